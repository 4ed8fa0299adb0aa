// 3D and 2D-array images: sampler-less reads with int4 coordinates, sampled
// reads of the 3D image with normalised clamp-to-edge nearest (float4
// coordinates on texel centres, some outside), sampled reads of the 2D array
// with unnormalised clamp nearest (layer rounded with rint and clamped,
// OpenCL 1.2 §8.4; layers at n and n + 0.25, never on a tie), and a
// write_only image2d_array_t (3D writes need cl_khr_3d_image_writes, so
// none here).
const sampler_t s_edge =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
const sampler_t s_clamp =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

__kernel void image_3d_2darray(read_only image3d_t vol,
                               read_only image2d_array_t arr,
                               write_only image2d_array_t dst,
                               __global float4 *out) {
  const int x = (int)get_global_id(0), y = (int)get_global_id(1),
            z = (int)get_global_id(2);
  const int4 dim = (int4)(get_image_width(vol), get_image_height(vol),
                          get_image_depth(vol), 1);
  const float4 a = read_imagef(vol, (int4)(x % dim.x, y, z, 0));
  const float4 b = read_imagef(vol, s_edge,
                               ((float4)((float)(2 * x - dim.x), (float)(y - 1),
                                         (float)(2 * z - 1), 0.0f) +
                                0.5f) /
                                   convert_float4(dim));
  const float4 c = read_imagef(arr, (int4)(x, y, z, 0));
  const float layer = (float)(x % 5) - 1.0f + ((y & 1) ? 0.25f : 0.0f);
  const float4 d = read_imagef(
      arr, s_clamp,
      (float4)((float)(x - 2) + 0.5f, (float)y + 0.5f, layer, 0.0f));
  __global float4 *o =
      out +
      ((z * (int)get_global_size(1) + y) * (int)get_global_size(0) + x) * 4;
  o[0] = a;
  o[1] = b;
  o[2] = c;
  o[3] = d;
  // Only exact values go to the Float result image (compared bit for bit).
  write_imagef(dst, (int4)(x, y, z, 0), (float4)(c.x, d.x, (float)x, d.w));
}
