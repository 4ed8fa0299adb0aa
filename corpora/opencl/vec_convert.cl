// l0spv-cl-std: CL1.2
// convert_<type><n>[_sat][_rte|_rtz|_rtp|_rtn] between integer and float
// vectors of widths 2, 3, 4, 8 and 16. Float->integer conversions always use
// _sat (so out-of-range values and NaN are defined: NaN -> 0).
// Exercises: OpConvertFToS/FToU/SToF/UToF/SConvert/UConvert with the
// SaturatedConversion and FPRoundingMode decorations.
__kernel void vec_convert(__global const uint *in, __global uint *out) {
  size_t g = get_global_id(0);
  uint4 r = vload4(g, in);
  int4 si = as_int4(r);
  // Fractional values spanning +-2^20, with ties (x.5) appearing often.
  float4 f = convert_float4(si >> 8) * 0.125f;
  // Huge magnitudes beyond every integer range, plus the special values.
  float4 big = convert_float4(si) * 4096.0f;
  float4 special = (float4)(INFINITY, -INFINITY, NAN, -0.0f);
  __global uint *o = out + 64 * g;

  vstore4(as_uint4(convert_int4_sat_rte(f)), 0, o);
  vstore4(as_uint4(convert_int4_sat_rtz(f)), 1, o);
  vstore4(as_uint4(convert_int4_sat_rtp(f)), 2, o);
  vstore4(as_uint4(convert_int4_sat_rtn(f)), 3, o);
  vstore4(as_uint4(convert_int4_sat(big)), 4, o);
  vstore4(convert_uint4_sat(big), 5, o);
  vstore4(as_uint4(convert_int4_sat(special)), 6, o);

  // narrow integer destinations
  uchar4 uc = convert_uchar4_sat(f);
  char4 sc = convert_char4_sat_rte(f * 0.001f);
  ushort4 us = convert_ushort4_sat(si);
  short4 ss = convert_short4_sat(si >> 12);
  o[28] = as_uint(uc);
  o[29] = as_uint(sc);
  vstore2(as_uint2(us), 15, o);
  vstore2(as_uint2(ss), 16, o);

  // int -> float with explicit rounding (values above 2^24 round)
  vstore4(as_uint4(convert_float4_rtz(si)), 9, o);
  vstore4(as_uint4(convert_float4_rtp(r)), 10, o);
  vstore4(as_uint4(convert_float4_rtn(si)), 11, o);

  // 64-bit sources and destinations, width 2
  long2 l2 = as_long2(r);
  ulong2 ul2 = as_ulong2(r);
  vstore2(as_uint2(convert_int2_sat(l2)), 24, o);
  vstore2(as_uint2(convert_float2_rte(ul2)), 25, o);
  vstore2(as_uint2(convert_float2_rtz(l2)), 26, o);
  ulong2 fl = convert_ulong2_sat_rtn(big.xy);
  o[54] = (uint)fl.x ^ (uint)(fl.x >> 32);
  o[55] = (uint)fl.y ^ (uint)(fl.y >> 32);

  // width 3, 8 and 16
  int3 i3 = convert_int3_sat_rtp(f.xyz);
  vstore3(as_uint3(i3), 0, o + 56);
  short8 s8 = convert_short8_sat((int8)(si, si.wzyx));
  vstore4(as_uint4(s8), 15, o);                // o[60..63]
  uchar16 u16 = convert_uchar16_sat((int16)(si, si >> 4, si >> 8, si >> 24));
  vstore4(as_uint4(u16), 8, o);                // o[32..35]
  short16 f16 = convert_short16_sat_rte((float16)(f, big, f * 0.01f, special));
  vstore8(as_uint8(f16), 5, o);                // o[40..47]
  o[59] = as_uint(convert_float(si.x)) ^ as_uint(convert_float_rtz(r.y));
}
