// Work-item queries in a 2-D NDRange whose global size is not a multiple of
// the local size in either dimension (OpenCL 2.0 non-uniform work-groups):
// edge groups are smaller, which get_local_size reports while
// get_enqueued_local_size keeps the requested size.
__kernel void workitem_2d(__global uint *out) {
  size_t gx = get_global_id(0), gy = get_global_id(1);
  size_t lin = gy * get_global_size(0) + gx;
  __global uint *o = out + 16 * lin;
  o[0] = get_work_dim();
  o[1] = (uint)gx | ((uint)gy << 16);
  o[2] = (uint)get_global_size(0) | ((uint)get_global_size(1) << 16);
  o[3] = (uint)get_local_id(0) | ((uint)get_local_id(1) << 16);
  o[4] = (uint)get_local_size(0) | ((uint)get_local_size(1) << 16);
  o[5] = (uint)get_enqueued_local_size(0) |
         ((uint)get_enqueued_local_size(1) << 16);
  o[6] = (uint)get_group_id(0) | ((uint)get_group_id(1) << 16);
  o[7] = (uint)get_num_groups(0) | ((uint)get_num_groups(1) << 16);
  o[8] = (uint)get_global_linear_id();
  o[9] = (uint)get_local_linear_id();
  o[10] = (uint)get_global_offset(0) + (uint)get_global_offset(1);
  o[11] = (uint)get_global_size(2) + (uint)get_local_size(2) +
          (uint)get_num_groups(2);        // 1 + 1 + 1
  o[12] = (uint)lin;
  o[13] = (uint)(get_group_id(1) * get_num_groups(0) + get_group_id(0));
  o[14] = (uint)get_global_id(2) + (uint)get_local_id(2);
  o[15] = 0xC0FFEEu;
}
