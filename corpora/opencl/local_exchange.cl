// Work-items exchanging data through __local memory in several phases
// separated by barriers: neighbour rotation, mirror read, half-group swap,
// and an odd-even transposition sort of the whole group.
// Exercises: __local kernel argument, barrier-separated read/write phases,
// data-dependent compare-and-swap between work-items (race free: in each
// round a pair is touched by exactly one work-item).
__kernel void local_exchange(__global const uint *in, __global uint *out,
                             __local uint *a) {
  size_t g = get_global_id(0);
  uint lid = (uint)get_local_id(0);
  uint lsz = (uint)get_local_size(0);

  a[lid] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint right = a[(lid + 1u) % lsz];
  uint mirror = a[lsz - 1u - lid];
  barrier(CLK_LOCAL_MEM_FENCE);          // all reads done before rewrite

  a[lid] = right ^ (mirror << 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint half_swap = a[(lid + lsz / 2u) % lsz];
  barrier(CLK_LOCAL_MEM_FENCE);

  // odd-even transposition sort: lsz rounds sort lsz values
  for (uint round = 0; round < lsz; round++) {
    if ((lid & 1u) == (round & 1u) && lid + 1u < lsz) {
      uint lo = a[lid], hi = a[lid + 1u];
      if (lo > hi) {
        a[lid] = hi;
        a[lid + 1u] = lo;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  out[3 * g] = a[lid];
  out[3 * g + 1] = half_swap;
  out[3 * g + 2] = right + mirror;
}
