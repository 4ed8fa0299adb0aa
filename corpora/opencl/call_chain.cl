// Non-kernel helper functions: by-value scalar, vector and struct
// parameters, struct return values, __private/__global/__local pointer
// parameters (out-parameters), and a call chain four levels deep.
typedef struct {
  uint lo;
  uint hi;
} Pair;

uint mix_bits(uint a, uint b) {             // by value
  return (a ^ (b << 7) ^ (b >> 3)) * 0x9E3779B1u;
}

Pair make_pair(uint a, uint b) {            // struct return
  Pair p;
  p.lo = a;
  p.hi = b;
  return p;
}

uint sum_pair(Pair p) {                     // struct by value
  return p.lo + p.hi;
}

void accumulate(__private uint *acc, uint v) { // private out-parameter
  *acc += v;
}

uint4 rotate_lanes(uint4 v, uint by) {      // vector in, vector out
  return rotate(v, (uint4)(by));
}

void store_result(__global uint *dst, size_t idx, uint v) {
  dst[idx] = v;
}

uint read_neighbour(__local const uint *l, uint lid, uint lsz) {
  return l[(lid + 1u) % lsz];
}

// chain: level3 -> level2 -> level1 -> mix_bits
uint level1(uint x) { return mix_bits(x, x + 1u); }
uint level2(uint x, __private uint *side) {
  uint r = level1(x) + level1(x >> 1);
  accumulate(side, r & 0xFFu);
  return r;
}
uint level3(uint x) {
  uint side = 0;
  uint r = level2(x, &side);
  r ^= level2(r, &side);
  return r + side;
}

__kernel void call_chain(__global const uint *in, __global uint *out) {
  __local uint shared_vals[64];
  size_t g = get_global_id(0);
  uint lid = (uint)get_local_id(0);
  uint lsz = (uint)get_local_size(0);
  uint x = in[g];

  shared_vals[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);

  uint acc = 0;
  accumulate(&acc, x & 0xFFFFu);
  accumulate(&acc, sum_pair(make_pair(x, x >> 16)));
  uint4 rl = rotate_lanes((uint4)(x, ~x, x >> 8, 1u), x & 31u);

  __global uint *o = out + 8 * g;
  store_result(o, 0, level3(x));
  store_result(o, 1, acc);
  store_result(o, 2, rl.x ^ rl.y);
  store_result(o, 3, rl.z + rl.w);
  store_result(o, 4, read_neighbour(shared_vals, lid, lsz));
  store_result(o, 5, mix_bits(x, 0u));
  store_result(o, 6, level1(lid));
  store_result(o, 7, sum_pair(make_pair(lid, lsz)));
}
