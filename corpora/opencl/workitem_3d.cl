// Work-item queries in a 3-D NDRange; every dimension index 0..2 is used.
// The linearised ids are recomputed by hand and compared with the built-in
// linear ids (the xor is 0 when they agree).
__kernel void workitem_3d(__global uint *out) {
  size_t gx = get_global_id(0), gy = get_global_id(1), gz = get_global_id(2);
  size_t sx = get_global_size(0), sy = get_global_size(1);
  size_t lin = (gz * sy + gy) * sx + gx;
  size_t llin = (get_local_id(2) * get_local_size(1) + get_local_id(1)) *
                    get_local_size(0) + get_local_id(0);
  __global uint *o = out + 12 * lin;
  o[0] = get_work_dim();
  o[1] = (uint)gx | ((uint)gy << 8) | ((uint)gz << 16);
  o[2] = (uint)sx | ((uint)sy << 8) | ((uint)get_global_size(2) << 16);
  o[3] = (uint)get_local_id(0) | ((uint)get_local_id(1) << 8) |
         ((uint)get_local_id(2) << 16);
  o[4] = (uint)get_local_size(0) | ((uint)get_local_size(1) << 8) |
         ((uint)get_local_size(2) << 16);
  o[5] = (uint)get_group_id(0) | ((uint)get_group_id(1) << 8) |
         ((uint)get_group_id(2) << 16);
  o[6] = (uint)get_num_groups(0) | ((uint)get_num_groups(1) << 8) |
         ((uint)get_num_groups(2) << 16);
  o[7] = (uint)get_global_linear_id();
  o[8] = (uint)get_local_linear_id();
  o[9] = (uint)(lin ^ get_global_linear_id());
  o[10] = (uint)(llin ^ get_local_linear_id());
  o[11] = (uint)(get_global_offset(0) + get_global_offset(1) +
                 get_global_offset(2));
}
