// l0spv-cl-std: CL1.2
// float vectors of every width (2, 3, 4, 8, 16) on exactly representable
// values (iota input scaled by powers of two), so +, -, * are exact.
// Exercises: swizzles, .lo/.hi/.even/.odd, component-wise arithmetic,
// scalar-to-vector widening, vector comparisons (int masks), select, fabs,
// fmin/fmax, vector literals built from smaller vectors.
__kernel void vec_float(__global const float *in, __global float *out) {
  size_t g = get_global_id(0);
  float16 v = vload16(g, in) * 0.5f - 100.0f;   // exact: |v| < 2^12
  __global float *o = out + 64 * g;

  float16 r16 = v * 0.25f + v.sFEDCBA9876543210;
  int16 c16 = isless(v, v.s89ABCDEF01234567);
  vstore16(r16, 0, o);
  vstore16(convert_float16(c16), 1, o);

  float8 r8 = (v.lo - v.hi) * (v.even + v.odd);
  float8 m8 = fmax(v.lo, v.hi) - fmin(v.even, v.odd);
  vstore8(r8, 4, o);
  vstore8(m8, 5, o);

  float4 r4 = (float4)(v.s01, v.s23 * 2.0f);    // literal from float2 parts
  r4.wz = r4.xy - 1.0f;                          // lvalue swizzle
  float4 a4 = fabs(v.s048C) + r4.xxyy * r4.wzwz;
  vstore4(r4, 12, o);
  vstore4(a4, 13, o);

  float3 t3 = v.s123 * v.s456 - (float3)(1.0f, 2.0f, 3.0f);
  float3 m3 = select(v.s789, v.sABC, isgreater(v.s789, v.sABC));
  vstore3(t3, 0, o + 56);
  vstore3(m3, 0, o + 59);

  float2 r2 = v.s01 * v.s23 + (float2)(0.125f);
  vstore2(r2, 31, o);
}
