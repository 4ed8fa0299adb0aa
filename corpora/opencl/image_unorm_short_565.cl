// The packed UnormShort565 channel type (CL_RGB only): read_imagef unpacks
// r = bits 15..11 / 31, g = bits 10..5 / 63, b = bits 4..0 / 31, alpha 1
// (OpenCL 1.2 §5.3.1.1); write_imagef packs with round to nearest.
// Written values are texel values read back, or exact fractions k/31, k/63,
// so no rounding choice matters. PoCL and Oclgrind have no 565 images.
__kernel void image_unorm_short_565(read_only image2d_t src,
                                    write_only image2d_t dst,
                                    __global float4 *out) {
  const int2 p = (int2)((int)get_global_id(0), (int)get_global_id(1));
  const float4 v = read_imagef(src, p);
  out[p.y * (int)get_global_size(0) + p.x] = v;
  const float k = (float)(p.x + 4 * p.y);
  write_imagef(dst, p, (float4)(v.z, k / 63.0f, (31.0f - k) / 31.0f, 0.5f));
}
