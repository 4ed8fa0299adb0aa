// Work-group tree reduction of uint values through a __local scratch buffer
// passed as a kernel argument.
// Exercises: __local pointer kernel arguments, barrier(CLK_LOCAL_MEM_FENCE)
// inside a loop, get_local_size/get_group_id, zero padding beyond n.
// Requires a power-of-two local size. Unsigned sums wrap (well defined).
__kernel void reduce_sum_local(__global const uint *in, __global uint *partial,
                               __local uint *scratch, uint n) {
  uint gid = (uint)get_global_id(0);
  uint lid = (uint)get_local_id(0);
  uint lsz = (uint)get_local_size(0);

  scratch[lid] = (gid < n) ? in[gid] : 0u;
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint s = lsz >> 1; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  if (lid == 0)
    partial[get_group_id(0)] = scratch[0];
}
