// l0spv-cl-std: CL1.2
// int vectors of every width (2, 3, 4, 8, 16), from random bits.
// Exercises: vload/vstore of n = 2,3,4,8,16, swizzles (.sN, .xyzw, repeated
// and reversed components, swizzle as an lvalue), .lo/.hi/.even/.odd,
// component-wise arithmetic (wrap-around on uint, saturating on int),
// vector comparisons giving -1/0 masks, select, vector literals, scalar
// widening in mixed vector/scalar expressions.
__kernel void vec_int(__global const uint *in, __global uint *out) {
  size_t g = get_global_id(0);
  uint16 u = vload16(g, in);
  int16 s = as_int16(u);
  __global uint *o = out + 64 * g;

  // width 16: wrap-around arithmetic, reversal swizzle, comparison mask
  uint16 r16 = u * (uint16)3 + u.sFEDCBA9876543210;
  int16 c16 = s < s.sFEDCBA9876543210;
  vstore16(r16, 0, o);
  vstore16(as_uint16(c16), 1, o);

  // width 8: .lo/.hi/.even/.odd and built-ins on 8 lanes
  uint8 r8 = (u.lo ^ u.hi) + (u.even & u.odd);
  int8 m8 = max(s.lo, s.hi) ^ min(s.even, s.odd);
  vstore8(r8, 4, o);
  vstore8(as_uint8(m8), 5, o);

  // width 4: .xyzw swizzles incl. repeats, lvalue swizzle, saturation
  uint4 r4 = u.s048C - u.s37BF;
  r4.yx = r4.xy + u.s12;
  uint4 rep = r4.xxyy | r4.wzwz;
  int4 a4 = add_sat(s.s0123, s.s4567) ^ sub_sat(s.s89AB, s.sCDEF);
  vstore4(r4 ^ rep, 12, o);
  vstore4(as_uint4(a4), 13, o);

  // width 3: arithmetic, select with a 3-lane mask, vstore3 at odd offset
  uint3 t3 = u.s123 * u.s456 + (uint3)(1, 2, 3);
  int3 m3 = select(s.s789, s.sABC, s.s789 < s.sABC);
  vstore3(t3, 0, o + 56);
  vstore3(as_uint3(m3), 0, o + 59);

  // width 2: vector shift by vector count, hadd, scalar widening
  uint2 r2 = (u.s01 >> (u.s23 & (uint2)(31))) + (uint)7;
  r2 ^= as_uint2(hadd(s.s45, s.s67));
  vstore2(r2, 31, o);
}
