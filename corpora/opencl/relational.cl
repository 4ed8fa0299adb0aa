// Relational built-ins on scalars and vectors. Inputs are random bit
// patterns with denormals flushed to signed zero in the integer domain, so
// the results do not depend on a device's denormal mode; NaN and Inf do
// occur, but only feed classification/comparison functions (no arithmetic).
// Exercises: isnan, isinf, isfinite, isnormal, signbit, isequal, isnotequal,
// isgreater, isless, islessgreater, isordered, isunordered, select (scalar
// and vector, int and float), bitselect, any, all.
float sane(uint bits) {
  if ((bits & 0x7F800000u) == 0u)      // denormal or zero -> signed zero
    bits &= 0x80000000u;
  return as_float(bits);
}

__kernel void relational(__global const uint *in, __global uint *out) {
  size_t g = get_global_id(0);
  uint4 r = ((__global const uint4 *)in)[g];   // vector-typed load
  // force a few specials: every 8th item gets NaN/Inf/zero lanes
  if ((g & 7u) == 0u)
    r = (uint4)(0x7FC00000u, 0xFF800000u, 0x80000000u, r.w);
  float4 a = (float4)(sane(r.x), sane(r.y), sane(r.z), sane(r.w));
  float4 b = a.yzwx;
  float x = a.x, y = a.y;

  __global uint *o = out + 24 * g;
  o[0] = (uint)isnan(x) | ((uint)isinf(x) << 1) | ((uint)isfinite(x) << 2) |
         ((uint)isnormal(x) << 3) | ((uint)signbit(x) << 4);
  o[1] = (uint)isequal(x, y) | ((uint)isnotequal(x, y) << 1) |
         ((uint)isgreater(x, y) << 2) | ((uint)isless(x, y) << 3) |
         ((uint)islessgreater(x, y) << 4) | ((uint)isordered(x, y) << 5) |
         ((uint)isunordered(x, y) << 6) | ((uint)isgreaterequal(x, y) << 7) |
         ((uint)islessequal(x, y) << 8);
  __global uint4 *o4 = (__global uint4 *)o;         // 96-byte aligned rows
  o4[1] = as_uint4(isnan(a));                        // o[4..7]: -1 / 0
  o4[2] = as_uint4(signbit(a) ^ isinf(b));           // o[8..11]
  int4 lt = isless(a, b);
  o4[3] = as_uint4(select(a, b, lt));                // o[12..15] (bits only)
  o[16] = (uint)any(lt) | ((uint)all(lt) << 1) | ((uint)any(isnan(a)) << 2) |
          ((uint)all(isfinite(a)) << 3);
  o[17] = select(r.x, r.y, (uint)(r.z & 1u));        // scalar select
  o[18] = bitselect(r.x, r.y, r.z);
  o[19] = as_uint(bitselect(a.x, a.y, as_float(0xBF0FF0F0u))); // normal mask
  int4 si = as_int4(r);
  o4[5] = as_uint4(select(si, ~si, si < (int4)(0))); // o[20..23]
}
