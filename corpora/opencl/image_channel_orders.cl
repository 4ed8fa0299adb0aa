// Channel orders beyond RGBA: RG, Intensity (I → (I,I,I,I)), Luminance
// (L → (L,L,L,1)), BGRA (stored b,g,r,a, read as r,g,b,a) and R; missing
// channels read as 0 and alpha as 1 (OpenCL 1.2 §8.3). Channel types
// SnormInt16, UnormInt8, HalfFloat, SignedInt32, Float. Writes go to an RG
// Float image. PoCL has no RG, Intensity or Luminance images.
__kernel void image_channel_orders(
    read_only image2d_t rg_snorm, read_only image2d_t intensity_unorm,
    read_only image2d_t luminance_half, read_only image2d_t bgra_unorm,
    read_only image2d_t r_int, read_only image2d_t rg_float,
    write_only image2d_t dst, __global float4 *out) {
  const int2 p = (int2)((int)get_global_id(0), (int)get_global_id(1));
  __global float4 *o = out + (p.y * (int)get_global_size(0) + p.x) * 6;
  o[0] = read_imagef(rg_snorm, p);
  o[1] = read_imagef(intensity_unorm, p);
  o[2] = read_imagef(luminance_half, p);
  o[3] = read_imagef(bgra_unorm, p);
  o[4] = convert_float4(read_imagei(r_int, p) >> (int4)(8, 0, 0, 0));
  const float4 f = read_imagef(rg_float, p);
  o[5] = f;
  write_imagef(dst, p, (float4)(f.y, o[2].x, 7.0f, 8.0f));
}
