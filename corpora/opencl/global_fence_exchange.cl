// Work-items of a group communicating through __global memory, ordered by
// barrier(CLK_GLOBAL_MEM_FENCE). Each group only touches its own slice of
// the scratch buffer, so there is no inter-group communication.
__kernel void global_fence_exchange(__global const uint *in,
                                    __global uint *scratch,
                                    __global uint *out) {
  size_t g = get_global_id(0);
  uint lid = (uint)get_local_id(0);
  uint lsz = (uint)get_local_size(0);
  size_t base = g - lid;                 // first item of this group

  scratch[g] = in[g] * 2654435761u;
  barrier(CLK_GLOBAL_MEM_FENCE);
  uint left = scratch[base + (lid + lsz - 1u) % lsz];
  uint far = scratch[base + (lid * 5u) % lsz];
  barrier(CLK_GLOBAL_MEM_FENCE);
  scratch[g] = left ^ far;
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  out[g] = scratch[base + (lsz - 1u - lid)] + lid;
}
