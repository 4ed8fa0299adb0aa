// Atomics on __local uint/int variables, initialised by one work-item and
// published to global memory after a barrier.
// Exercises: __local scalars/arrays declared in the kernel, atomic_add/inc/
// min/max/cmpxchg/xchg on the local address space, barrier ordering.
__kernel void atomics_local(__global const uint *in, __global uint *out) {
  __local uint lu[4];
  __local int li[4];
  uint lid = (uint)get_local_id(0);

  if (lid == 0) {
    lu[0] = 0u;
    lu[1] = 0u;
    lu[2] = 0xFFFFFFFFu;
    lu[3] = 0u;
    li[0] = INT_MAX;
    li[1] = INT_MIN;
    li[2] = 0;
    li[3] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  uint v = in[get_global_id(0)];
  int sv = as_int(v);
  atomic_add(&lu[0], v);
  atomic_inc(&lu[1]);
  atomic_min(&lu[2], v);
  atomic_max(&lu[3], v);
  atomic_min(&li[0], sv);
  atomic_max(&li[1], sv);
  if (atomic_cmpxchg(&li[2], 0, 1) == 0)
    atomic_xchg(&li[3], 42); // only the single winner writes
  barrier(CLK_LOCAL_MEM_FENCE);

  if (lid == 0) {
    __global uint *o = out + 8 * get_group_id(0);
    o[0] = lu[0];
    o[1] = lu[1];
    o[2] = lu[2];
    o[3] = lu[3];
    o[4] = as_uint(li[0]);
    o[5] = as_uint(li[1]);
    o[6] = as_uint(li[2]);
    o[7] = as_uint(li[3]);
  }
}
