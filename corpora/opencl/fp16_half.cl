// Half precision arithmetic (cl_khr_fp16): scalar and vector half math,
// conversions float<->half with rounding modes, half comparisons, a half
// scalar kernel argument. Inputs are small dyadic values, so +, -, * are
// exact in half; sqrt/division carry ULP allowances.
// Note: llvm-spirv 14 declares only the Float16Buffer capability for this
// module although it does half arithmetic (Float16 is required by the
// SPIR-V spec); spirv-val does not check it and IGC accepts it.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void fp16_half(__global const ushort *in, __global half *out,
                        __global float *fout, half scale) {
  size_t g = get_global_id(0);
  ushort r0 = in[2 * g], r1 = in[2 * g + 1];
  // values k/8 with k in [-512, 511]: exact in half
  half a = (half)((int)(r0 & 0x3FFu) - 512) * (half)0.125h;
  half b = (half)((int)(r1 & 0x3FFu) - 512) * (half)0.125h;
  half bnz = (b == (half)0.0h) ? (half)1.0h : b;

  __global half *o = out + 16 * g;
  o[0] = a + b;
  o[1] = a - b;
  o[2] = (a * (half)0.25h) * (b * (half)0.125h);
  o[3] = a * scale;
  o[4] = fabs(a);
  o[5] = fmin(a, b);
  o[6] = fmax(a, b);
  o[7] = floor(a * (half)0.5h);
  o[8] = sqrt(fabs(a));
  o[9] = a / bnz;
  o[10] = fma(a, (half)0.5h, b);
  o[11] = (a < b) ? a : b;
  half4 v = (half4)(a, b, scale, (half)1.0h);
  half4 w = v * (half)2.0h - v.wzyx;
  o[12] = w.x;
  o[13] = w.y + w.z + w.w;
  o[14] = convert_half_rtz(1.0f / 3.0f);
  o[15] = convert_half_rtp((float)r0 * 0.5f);  // up to 32767.5 -> fits half

  __global float *f = fout + 4 * g;
  f[0] = (float)a * (float)b;
  f[1] = convert_float(o[2]);
  f[2] = (float)(half)((float)r1 * 3.0f);      // overflow -> inf for > 65519
  f[3] = (float)isless(a, b) + (float)isequal(a, b) * 2.0f;
}
