// l0spv-cl-std: CL1.2
// as_<type>() reinterpretation between equally sized scalar and vector types
// (OpBitcast). Float views of random bits are never used in arithmetic, only
// reinterpreted back, so NaN payloads are never observed through float ops.
__kernel void vec_as_reinterpret(__global const uint *in, __global uint *out) {
  size_t g = get_global_id(0);
  uint4 r = vload4(g, in);
  __global uint *o = out + 32 * g;

  float4 f = as_float4(r);
  vstore4(as_uint4(f), 0, o);                                 // identity
  uchar16 b = as_uchar16(r);
  vstore4(as_uint4(b.sFEDCBA9876543210), 1, o);               // byte reversal
  ushort8 h = as_ushort8(r);
  vstore4(as_uint4(h.s10325476), 2, o);                       // swap halves
  ulong2 l = as_ulong2(r);
  vstore4(as_uint4(l.yx), 3, o);
  long w = as_long(r.xy);
  o[16] = (uint)(w >> 40);
  char4 c = as_char4(r.z);
  o[17] = as_uint(convert_int(c.x) + convert_int(c.w));       // sign-extended
  short2 s = as_short2(r.w);
  o[18] = as_uint((int)s.x * (int)s.y);
  o[19] = as_uint(as_float(r.x));
  int3 i3 = as_int3(f);                                       // 3 lanes of 4
  vstore3(as_uint3(i3), 0, o + 20);
  uint8 u8 = as_uint8((ulong4)(l, l.yx));
  vstore8(u8, 3, o);                                          // o[24..31]
  o[23] = as_uint(as_uchar4(as_char4(r.y)).wzyx);
}
