// Transcendental float built-ins with arguments kept inside each function's
// domain (derived from random bits, never NaN/Inf/denormal).
// Exercises: exp, exp2, exp10, expm1, log, log2, log10, log1p, sin, cos, tan,
// asin, acos, atan, atan2, sinh, cosh, tanh, pow, pown, powr, rootn, cbrt,
// rsqrt, hypot, erf, erfc.
float unit(uint r) { return (float)(r >> 8) * 0x1.0p-24f; } // [0, 1)

__kernel void float_transcendental(__global const uint *in, __global float *out) {
  size_t g = get_global_id(0);
  float u = unit(in[2 * g]), v = unit(in[2 * g + 1]);
  float s = u * 20.0f - 10.0f;          // [-10, 10)
  float p = 0.125f + v * 64.0f;         // (0, 64.125)
  float a = u * 2.0f - 1.0f;            // [-1, 1)
  float ang = (v - 0.5f) * 25.0f;       // about [-12.5, 12.5)
  int e = (int)(in[2 * g + 1] & 7u) - 3;

  __global float *o = out + 28 * g;
  o[0] = exp(s);
  o[1] = exp2(s);
  o[2] = exp10(a * 4.0f);
  o[3] = expm1(a);
  o[4] = log(p);
  o[5] = log2(p);
  o[6] = log10(p);
  o[7] = log1p(u);
  o[8] = sin(ang);
  o[9] = cos(ang);
  o[10] = tan(a);
  o[11] = asin(a);
  o[12] = acos(a);
  o[13] = atan(s);
  o[14] = atan2(s, a);
  o[15] = sinh(a * 3.0f);
  o[16] = cosh(a * 3.0f);
  o[17] = tanh(s);
  o[18] = pow(p, a * 3.0f);
  o[19] = pown(p * 0.25f, e);
  o[20] = powr(p, a);
  o[21] = rootn(p, e == 0 ? 2 : e);
  o[22] = cbrt(s);
  o[23] = rsqrt(p);
  o[24] = hypot(s, a);
  o[25] = erf(a * 2.0f);
  o[26] = erfc(a);
  o[27] = sqrt(p);
}
