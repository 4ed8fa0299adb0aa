// l0spv-cl-std: CL1.2
// shuffle and shuffle2 with data-dependent masks (masked explicitly to the
// valid component range), on char, short, int, long and float vectors.
// Exercises: OpVectorShuffle for constant masks and the OpenCL.std
// shuffle/shuffle2 extended instructions for run-time masks.
__kernel void shuffle_kernel(__global const uint *in, __global const float *fin,
                             __global uint *out) {
  size_t g = get_global_id(0);
  uint4 r = vload4(g, in);
  __global uint *o = out + 32 * g;

  int4 x = as_int4(r);
  uint4 m4 = r & 3u;
  vstore4(as_uint4(shuffle(x, m4)), 0, o);

  uchar16 c = as_uchar16(r);
  uchar16 cm = c.sFEDCBA9876543210 & (uchar)15;
  vstore4(as_uint4(shuffle(c, cm)), 1, o);

  short8 s = as_short8(r);
  ushort8 sm = as_ushort8(r.wzyx) & (ushort)15;       // picks from 2 inputs
  vstore4(as_uint4(shuffle2(s, s.s76543210 ^ (short)0x5A5A, sm)), 2, o);

  float8 fa = vload8(0, fin + (g % 32) * 8);
  float8 fb = fa * 2.0f;
  uint8 fm = (uint8)(r, r >> 8) & 15u;
  vstore8(as_uint8(shuffle2(fa, fb, fm)), 2, o);     // o[16..23]

  long2 l = as_long2(r);
  ulong4 lm = (ulong4)(r.x & 1u, r.y & 1u, (r.z >> 1) & 1u, 1);
  long4 lw = shuffle(l, lm);                          // widen 2 -> 4 lanes
  vstore8(as_uint8(lw), 3, o);                        // o[24..31]

  uint2 narrow = shuffle(r, (uint2)(3u, 0u));         // narrow 4 -> 2 lanes
  o[12] ^= narrow.x;
  o[13] ^= narrow.y;
}
