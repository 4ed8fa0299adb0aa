// Integer division and remainder for signed/unsigned 8/16/32/64-bit types,
// with the divisor guarded against 0 and the INT_MIN / -1 overflow case.
// Exercises: OpSDiv/OpUDiv/OpSRem/OpUMod-style lowering, ternary guards,
// a non-uniform launch (333 work-items in groups of 32) with a bounds guard.
int safe_div(int a, int b) {
  if (b == 0 || (a == INT_MIN && b == -1))
    return a;
  return a / b;
}

int safe_rem(int a, int b) {
  if (b == 0 || (a == INT_MIN && b == -1))
    return 0;
  return a % b;
}

long safe_div64(long a, long b) {
  if (b == 0 || (a == LONG_MIN && b == -1))
    return a;
  return a / b;
}

__kernel void int_div_rem(__global const int *num, __global const int *den,
                          __global int *out, __global long *out64, uint n) {
  size_t g = get_global_id(0);
  if (g >= n)
    return;
  int a = num[g];
  // Make small and special divisors common: 0, -1, 1 and small values.
  int b = den[g];
  switch (as_uint(b) & 7u) {
  case 0: b = 0; break;
  case 1: b = -1; break;
  case 2: b = (b >> 24); break;   // arithmetic shift: [-128, 127]
  default: break;
  }
  if ((g & 15) == 3)
    a = INT_MIN;                  // exercise the INT_MIN guard

  uint ua = as_uint(a), ub = as_uint(b);
  short sa = as_short2(a).x, sb = as_short2(b).x;
  char ca = as_char4(a).x, cb = as_char4(b).y;

  __global int *o = out + 8 * g;
  o[0] = safe_div(a, b);
  o[1] = safe_rem(a, b);
  o[2] = as_int(ub ? ua / ub : 0u);
  o[3] = as_int(ub ? ua % ub : ua);
  o[4] = sb ? sa / sb : 0;        // promoted to int: no overflow possible
  o[5] = sb ? sa % sb : 0;
  o[6] = cb ? ca / cb : 0;
  o[7] = cb ? ca % cb : 0;

  long la = as_long((ulong)(long)a << 20) + b, lb = (long)b; // no signed shl
  out64[2 * g] = safe_div64(la, lb);
  out64[2 * g + 1] = lb ? la % lb : 0;
}
