// l0spv-val-env: spv1.2
// 64-bit min/max/and/or/xor atomics from cl_khr_int64_extended_atomics on
// randomly initialised counters (order independent). Validated against
// spv1.2 rather than opencl2.2 because of the Int64Atomics capability.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

__kernel void atomics_int64_ext(__global const ulong *in, __global ulong *u,
                                __global long *s) {
  size_t gid = get_global_id(0);
  ulong v = in[gid];
  atom_min(&u[0], v);
  atom_max(&u[1], v);
  atom_and(&u[2], v | 0xF0F0F0F0F0F0F0F0UL);
  atom_or(&u[3], v & 0x0000FFFF0000FFFFUL);
  atom_xor(&u[4], v);
  atom_min(&s[0], as_long(v));
  atom_max(&s[1], as_long(v));
}
