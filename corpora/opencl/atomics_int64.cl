// l0spv-val-env: spv1.2
// 64-bit atomics from cl_khr_int64_base_atomics (atom_* spelling) on
// __global ulong and long, used order-independently.
// Note: spirv-val --target-env opencl2.2 rejects the Int64Atomics capability
// this needs (it is optional in OpenCL), so the l0spv-val-env line above
// makes the build validate this module with --target-env spv1.2 instead.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

__kernel void atomics_int64(__global const ulong *in, __global ulong *acc,
                            __global long *sacc, __global ulong *slots) {
  size_t gid = get_global_id(0);
  ulong v = in[gid];

  atom_add(&acc[0], v);           // wraps modulo 2^64
  atom_inc(&acc[1]);
  atom_sub(&acc[2], v >> 3);
  atom_dec(&acc[3]);
  if (atom_cmpxchg(&acc[4], 0UL, 7UL) == 0UL)
    atom_inc(&acc[5]);            // single winner
  atom_xchg(&acc[6], 0x0123456789ABCDEFUL);

  atom_add(&sacc[0], (long)(v & 0xFFFFUL) - 32768L); // bounded signed sum
  atom_sub(&sacc[1], (long)(v >> 48));

  ulong old = atom_xchg(&slots[gid], v ^ (ulong)gid);
  atom_add(&slots[gid], old + 1UL);
}
