// OpenCL 2.0 C11-style atomics: atomic_uint/atomic_int objects, explicit
// memory orders and scopes, atomic_init/load/compare_exchange, on both
// __global and __local memory. All uses are order independent.
__kernel void atomics_c11(__global const uint *in,
                          __global atomic_uint *cnt,
                          __global atomic_int *scnt) {
  __local atomic_uint lcount;
  __local atomic_uint lmax;
  uint lid = (uint)get_local_id(0);
  uint v = in[get_global_id(0)];

  if (lid == 0) {
    atomic_init(&lcount, 0u);
    atomic_init(&lmax, 0u);
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  atomic_fetch_add_explicit(&cnt[0], v & 0xFFFu, memory_order_relaxed,
                            memory_scope_device);
  atomic_fetch_or(&cnt[1], 1u << (v & 31u));
  atomic_fetch_max_explicit(&cnt[2], v, memory_order_relaxed);
  atomic_fetch_and(&cnt[3], ~(1u << ((v >> 5) & 31u)));
  atomic_fetch_xor_explicit(&cnt[4], v, memory_order_relaxed,
                            memory_scope_device);
  atomic_fetch_min(&scnt[0], as_int(v));
  atomic_fetch_sub(&scnt[1], (int)(v & 0xFFu));

  // Single winner via strong compare-exchange on a zero-initialised word.
  uint expected = 0u;
  if (atomic_compare_exchange_strong(&cnt[5], &expected, 5u))
    atomic_fetch_add(&cnt[6], 1u);

  atomic_fetch_add_explicit(&lcount, 1u, memory_order_relaxed,
                            memory_scope_work_group);
  atomic_fetch_max_explicit(&lmax, v >> 8, memory_order_relaxed,
                            memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);

  if (lid == 0) {
    atomic_fetch_add(&cnt[7], atomic_load_explicit(&lcount,
                                                   memory_order_relaxed,
                                                   memory_scope_work_group));
    atomic_fetch_max(&cnt[8], atomic_load(&lmax));
  }
}
