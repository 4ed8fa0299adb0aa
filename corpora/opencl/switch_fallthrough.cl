// switch statements: fall-through chains, grouped labels, default in the
// middle, sparse and negative case values, return from inside a case, a
// switch on char, and a switch inside a loop using break/continue.
uint classify(uint x) {
  uint acc = 0;
  switch (x & 15u) {
  case 0:
    acc += 1;           // fall through
  case 1:
    acc += 10;          // fall through
  case 2:
    acc += 100;
    break;
  case 3:
  case 4:
    acc = 7;
    break;
  default:              // default placed in the middle
    acc = 5;            // fall through
  case 5:
    acc ^= x >> 4;      // fall through
  case 6:
    acc ^= 0xFFu;
    break;
  case 9:
    return 99u;
  case 10: {
    uint t = x * 3u;
    acc = t;            // fall through
  }
  case 11:
    acc += 11;
  }
  return acc;
}

int sparse(int v) {
  switch (v) {
  case -100000: return 1;
  case -5:      return 2;
  case 0:       return 3;
  case 1000:    return 4;
  case 65536:   return 5;
  case 2147483647: return 6;
  default:      return v & 0xFF;
  }
}

int on_char(char c) {
  switch (c) {
  case 'a': case 'e': case 'i': case 'o': case 'u': return 1;
  case -128: return -1;
  case 0: return 0;
  default: return 2;
  }
}

__kernel void switch_fallthrough(__global const uint *in, __global uint *out) {
  size_t g = get_global_id(0);
  uint x = in[g];
  // make the sparse cases reachable for some work-items
  int sv = as_int(x);
  switch (g & 7) {
  case 0: sv = -5; break;
  case 1: sv = 65536; break;
  case 2: sv = 2147483647; break;
  case 3: sv = -100000; break;
  default: break;
  }

  uint loopacc = 0;
  for (uint i = 0; i < 16; i++) {
    switch ((x >> i) & 3u) {
    case 0:
      continue;            // next loop iteration
    case 1:
      loopacc += i;
      break;               // leaves the switch only
    case 2:
      loopacc ^= i << 3;   // fall through
    default:
      loopacc += 1;
    }
    if (loopacc > 200u)
      break;               // leaves the loop
  }

  __global uint *o = out + 4 * g;
  o[0] = classify(x);
  o[1] = as_uint(sparse(sv));
  o[2] = as_uint(on_char(as_char4(x).x) + on_char((char)('a' + (g % 26))));
  o[3] = loopacc;
}
