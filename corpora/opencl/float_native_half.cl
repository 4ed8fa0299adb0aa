// native_* and half_* math variants. Their accuracy is implementation-defined
// (native_*) or only ~8192 ulp (half_*), so results must be compared loosely.
// Arguments are kept in the ranges the half_* functions require
// (|x| <= 2^16 for sin/cos/tan) and away from poles.
float unit(uint r) { return (float)(r >> 8) * 0x1.0p-24f; }

__kernel void float_native_half(__global const uint *in, __global float *out) {
  size_t g = get_global_id(0);
  float u = unit(in[2 * g]), v = unit(in[2 * g + 1]);
  float pos = 0.5f + u * 100.0f;        // [0.5, 100.5)
  float ang = (v - 0.5f) * 6.0f;        // [-3, 3)
  float sml = u * 8.0f - 4.0f;          // [-4, 4)

  __global float *o = out + 24 * g;
  o[0] = native_sqrt(pos);
  o[1] = native_rsqrt(pos);
  o[2] = native_exp(sml);
  o[3] = native_exp2(sml);
  o[4] = native_exp10(sml * 0.5f);
  o[5] = native_log(pos);
  o[6] = native_log2(pos);
  o[7] = native_log10(pos);
  o[8] = native_sin(ang);
  o[9] = native_cos(ang);
  o[10] = native_tan(ang * 0.4f);
  o[11] = native_recip(pos);
  o[12] = native_divide(sml, pos);
  o[13] = native_powr(pos, v);
  o[14] = half_sqrt(pos);
  o[15] = half_rsqrt(pos);
  o[16] = half_exp(sml);
  o[17] = half_log(pos);
  o[18] = half_sin(ang);
  o[19] = half_cos(ang);
  o[20] = half_tan(ang * 0.4f);
  o[21] = half_recip(pos);
  o[22] = half_divide(sml, pos);
  o[23] = half_powr(pos, v);
}
