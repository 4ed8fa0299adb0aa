// 2-D tiled matrix transpose through a padded __local tile.
// Exercises: 2-D NDRange, get_local_id(1)/get_group_id(1)/get_num_groups,
// a 2-D __local array with padding, barrier between write and transposed
// read.
#define TILE 8

__kernel void local_transpose_2d(__global const uint *in, __global uint *out,
                                 uint width, uint height) {
  __local uint tile[TILE][TILE + 1];
  uint lx = (uint)get_local_id(0), ly = (uint)get_local_id(1);
  uint gx = (uint)get_global_id(0), gy = (uint)get_global_id(1);

  if (gx < width && gy < height)
    tile[ly][lx] = in[gy * width + gx];
  barrier(CLK_LOCAL_MEM_FENCE);

  // transposed block position
  uint tx = (uint)get_group_id(1) * TILE + lx;
  uint ty = (uint)get_group_id(0) * TILE + ly;
  if (tx < height && ty < width)
    out[ty * height + tx] = tile[lx][ly];
}
