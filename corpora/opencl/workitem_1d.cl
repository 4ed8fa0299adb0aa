// Every work-item query in a 1-D NDRange, written out per work-item.
// Exercises: get_work_dim, get_global_id/size/offset, get_local_id/size,
// get_enqueued_local_size, get_group_id, get_num_groups,
// get_global_linear_id, get_local_linear_id, and the unused dimensions 1
// and 2 (which return the documented defaults: 0 for ids, 1 for sizes).
// Dimension indices >= 3 are deliberately absent: llvm-spirv 14 translates
// them into invalid or undefined SPIR-V (see
// ../known-consumer-bugs/workitem_dim_out_of_range.cl).
__kernel void workitem_1d(__global uint *out) {
  size_t g = get_global_id(0);
  __global uint *o = out + 16 * g;
  o[0] = get_work_dim();
  o[1] = (uint)get_global_id(0);
  o[2] = (uint)get_global_size(0);
  o[3] = (uint)get_global_offset(0);
  o[4] = (uint)get_local_id(0);
  o[5] = (uint)get_local_size(0);
  o[6] = (uint)get_enqueued_local_size(0);
  o[7] = (uint)get_group_id(0);
  o[8] = (uint)get_num_groups(0);
  o[9] = (uint)get_global_linear_id();
  o[10] = (uint)get_local_linear_id();
  o[11] = (uint)get_global_size(1) + (uint)get_global_size(2) * 16u;
  o[12] = (uint)get_local_size(1) + (uint)get_num_groups(2) * 16u;
  o[13] = (uint)get_global_id(1) + (uint)get_local_id(2) + (uint)get_group_id(1);
  uint d = get_work_dim() - 1u;       // run-time but in-range index
  o[14] = (uint)get_global_size(d);
  o[15] = (uint)get_local_id(d + 1u); // dimension 1: unused -> 0
}
