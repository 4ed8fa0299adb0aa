// Integer built-in functions on 32-bit and 64-bit operands taken from random
// bits. Every function used here is defined for all inputs (clamp gets
// ordered bounds; mad24/mul24 get 24-bit operands).
// Exercises: clamp, mad_sat, add_sat, sub_sat, hadd, rhadd, rotate, clz,
// popcount, mul_hi, abs, abs_diff, upsample, min, max, mad24, mul24, and a
// few vector (char4/short2) forms.
__kernel void int_builtins(__global const uint *in, __global uint *out,
                           __global ulong *out64) {
  size_t g = get_global_id(0);
  uint ua = in[3 * g], ub = in[3 * g + 1], uc = in[3 * g + 2];
  int a = as_int(ua), b = as_int(ub), c = as_int(uc);
  __global uint *o = out + 24 * g;

  o[0] = as_uint(clamp(a, min(b, c), max(b, c)));
  o[1] = clamp(ua, min(ub, uc), max(ub, uc));
  o[2] = as_uint(mad_sat(a, b, c));
  o[3] = mad_sat(ua, ub, uc);
  o[4] = as_uint(add_sat(a, b));
  o[5] = as_uint(sub_sat(a, b));
  o[6] = add_sat(ua, ub);
  o[7] = sub_sat(ua, ub);
  o[8] = as_uint(hadd(a, b));
  o[9] = rhadd(ua, ub);
  o[10] = as_uint(rotate(a, b)); // only the low 5 bits of b are used
  o[11] = rotate(ua, ub);
  o[12] = clz(ua);
  o[13] = popcount(ub);
  o[14] = as_uint(mul_hi(a, b));
  o[15] = mul_hi(ua, ub);
  o[16] = abs(a);                 // abs(INT_MIN) is 0x80000000u, defined
  o[17] = abs_diff(a, b);
  o[18] = as_uint(upsample(as_short2(ua).y, as_ushort2(ub).x));
  o[19] = upsample(as_ushort2(ua).x, as_ushort2(ub).y);
  o[20] = mad24(ua & 0xFFFFFFu, ub & 0xFFFFFFu, uc);
  o[21] = mul24(ua & 0xFFFFFFu, uc & 0xFFFFFFu);
  o[22] = as_uint(max(a, b)) ^ min(ua, ub);
  o[23] = as_uint(add_sat(as_char4(ua), as_char4(ub))) ^
          as_uint(hadd(as_short2(ub), as_short2(uc)));

  // 64-bit forms
  ulong la = ((ulong)ua << 32) | ub, lb = ((ulong)uc << 32) | ua;
  long sa = as_long(la), sb = as_long(lb);
  __global ulong *p = out64 + 8 * g;
  p[0] = clz(la) + ((ulong)popcount(lb) << 32);
  p[1] = as_ulong(mul_hi(sa, sb));
  p[2] = mul_hi(la, lb);
  p[3] = upsample(ua, uc);
  p[4] = rotate(la, lb);
  p[5] = as_ulong(add_sat(sa, sb));
  p[6] = abs_diff(sa, sb);
  p[7] = as_ulong(sub_sat(sa, sb)) ^ as_ulong(clamp(sa, min(sb, 0L), max(sb, 0L)));
}
