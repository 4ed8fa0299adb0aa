// Simultaneous signed min and max tree reduction using two __local buffers.
// Exercises: two __local pointer arguments, min/max on int, barriers in a
// loop, per-group results written by work-item 0.
__kernel void reduce_minmax_local(__global const int *in, __global int *out,
                                  __local int *lmin, __local int *lmax) {
  size_t gid = get_global_id(0);
  uint lid = (uint)get_local_id(0);
  uint lsz = (uint)get_local_size(0);

  int v = in[gid];
  lmin[lid] = v;
  lmax[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint s = lsz / 2; s > 0; s /= 2) {
    if (lid < s) {
      lmin[lid] = min(lmin[lid], lmin[lid + s]);
      lmax[lid] = max(lmax[lid], lmax[lid + s]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  if (lid == 0) {
    size_t g = get_group_id(0);
    out[2 * g] = lmin[0];
    out[2 * g + 1] = lmax[0];
  }
}
