// Reduction that stays correct when the last work-group is smaller than the
// others (OpenCL 2.0 non-uniform work-groups).
// Exercises: a statically sized __local array declared in the kernel,
// get_local_size vs get_enqueued_local_size, a guarded tree step for
// non-power-of-two group sizes, and a global atomic_add of group sums.
#define MAX_WG 128

__kernel void reduce_nonuniform(__global const uint *in, __global uint *out,
                                uint n, uint max_groups) {
  __local uint tmp[MAX_WG];
  uint gid = (uint)get_global_id(0);
  uint lid = (uint)get_local_id(0);
  uint lsz = (uint)get_local_size(0);          // actual size of this group
  uint esz = (uint)get_enqueued_local_size(0); // size requested at enqueue

  tmp[lid] = (gid < n) ? (in[gid] & 0xFFFFu) : 0u;
  barrier(CLK_LOCAL_MEM_FENCE);

  // esz is a power of two (the sidecar launches 128); lsz may be smaller.
  for (uint s = esz / 2; s > 0; s >>= 1) {
    if (lid < s && lid + s < lsz)
      tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  uint g = (uint)get_group_id(0);
  if (lid == 0 && g < max_groups) { // out holds 3 words per group + total
    out[3 * g + 0] = tmp[0];
    out[3 * g + 1] = lsz;
    out[3 * g + 2] = esz;
    atomic_add(&out[3 * max_groups], tmp[0]);
  }
}
