// OpenCL 2.0 work-group collective functions on integers (results do not
// depend on evaluation order): reduce, inclusive/exclusive scan, broadcast
// (1-D and from a computed id), all/any. llvm-spirv lowers these to
// OpGroupIAdd/OpGroupUMax/OpGroupSMin/OpGroupBroadcast/OpGroupAll/OpGroupAny
// (Groups capability). All calls are in uniform control flow.
__kernel void workgroup_collectives(__global const uint *in, __global uint *out) {
  size_t g = get_global_id(0);
  uint lid = (uint)get_local_id(0);
  uint x = in[g];
  int sx = as_int(x) >> 8;

  uint rsum = work_group_reduce_add(x);          // wraps: defined for uint
  uint rmax = work_group_reduce_max(x);
  int rmin = work_group_reduce_min(sx);
  uint incl = work_group_scan_inclusive_add(x & 0xFFFFu);
  uint excl = work_group_scan_exclusive_add(x & 0xFFFFu);
  int smax = work_group_scan_inclusive_max(sx);
  int smin = work_group_scan_exclusive_min(sx); // lid 0 gets INT_MAX
  uint b0 = work_group_broadcast(x, 0);
  size_t src = (size_t)(rsum & 31u);             // uniform, in range
  uint bk = work_group_broadcast(x, src);
  int all_small = work_group_all(x < 0xF0000000u);
  int any_zero_low = work_group_any((x & 0xFFu) == 0u);
  ulong rsum64 = work_group_reduce_add((ulong)x);

  __global uint *o = out + 12 * g;
  o[0] = rsum;
  o[1] = rmax;
  o[2] = as_uint(rmin);
  o[3] = incl;
  o[4] = excl;
  o[5] = as_uint(smax);
  o[6] = as_uint(smin);
  o[7] = b0;
  o[8] = bk;
  o[9] = (uint)(all_small != 0) | ((uint)(any_zero_low != 0) << 1) | (lid << 8);
  o[10] = (uint)rsum64;
  o[11] = (uint)(rsum64 >> 32);
}
