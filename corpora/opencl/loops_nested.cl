// Loops of every C form with data-dependent but bounded trip counts:
// for/while/do-while, break/continue at several nesting levels, a loop with
// an early return in a helper, a goto that leaves two loops, a countdown
// loop with an unsigned index, and a loop-carried recurrence.
uint collatz_steps(uint x, uint limit) {
  uint steps = 0;
  x = (x & 0xFFFFu) | 1u;
  while (x != 1u) {
    if (steps == limit)
      return 0xFFFFFFFFu;      // early return from inside the loop
    x = (x & 1u) ? 3u * x + 1u : x >> 1;
    steps++;
  }
  return steps;
}

__kernel void loops_nested(__global const uint *in, __global uint *out) {
  size_t g = get_global_id(0);
  uint x = in[g];
  uint n = (x & 7u) + 1u;            // 1..8
  uint m = ((x >> 3) & 7u) + 1u;     // 1..8

  // nested for with continue/break on both levels
  uint acc = 0;
  for (uint i = 0; i < n; i++) {
    if (i == 2)
      continue;
    for (uint j = 0; j < m; j++) {
      if (((i + j) & 3u) == 3u)
        continue;
      if (j > 5)
        break;
      acc += i * 16u + j;
    }
    if (acc > 300u)
      break;
  }

  // do-while that always runs at least once
  uint d = 0, k = x >> 24;
  do {
    d += k & 1u;
    k >>= 1;
  } while (k != 0u);

  // while with a compound condition
  uint w = 0, v = x;
  while (v != 0u && w < 10u) {
    v &= v - 1u;                     // clear lowest set bit
    w++;
  }

  // countdown loop with unsigned index (terminates at 0 without wrapping)
  uint rev = 0;
  for (uint i = 8; i-- > 0;)
    rev = (rev << 4) | ((x >> (i * 4u)) & 0xFu);

  // goto leaving a doubly nested loop
  uint found = 0xFFFFu;
  for (uint a = 0; a < 4u; a++) {
    for (uint b = 0; b < 8u; b++) {
      if (((x >> (a * 8u + b)) & 0x7u) == 0x5u) {
        found = a * 8u + b;
        goto done;
      }
    }
  }
done:;

  // loop-carried recurrence (Fibonacci mod 2^32)
  uint f0 = 0, f1 = 1;
  for (uint i = 0; i < (x & 31u); i++) {
    uint t = f0 + f1;
    f0 = f1;
    f1 = t;
  }

  __global uint *o = out + 8 * g;
  o[0] = acc;
  o[1] = d;
  o[2] = w;
  o[3] = rev;
  o[4] = found;
  o[5] = f1;
  o[6] = collatz_steps(x, 200u);
  o[7] = collatz_steps(x >> 16, 5u);
}
