// Sampler-less 2D image reads and writes (OpenCL 1.2 read_imagef/read_imagei
// with int2 coordinates, write_imagef/write_imagei): an RGBA UnormInt8 image
// mirrored in x and stored with its channels reversed into a BGRA UnormInt8
// image (unorm → float → unorm round trip), an R Float image widened into RGBA
// Float (exact: the inputs are multiples of 1/64), and an RGBA SignedInt32
// image stored into RGBA SignedInt16 (write_imagei saturates, OpenCL 1.2
// §8.3.4; .y and .z are shifted into range first so both paths are taken).
__kernel void image2d_samplerless(read_only image2d_t src_unorm,
                                  read_only image2d_t src_float,
                                  read_only image2d_t src_int,
                                  write_only image2d_t dst_bgra,
                                  write_only image2d_t dst_rgba,
                                  write_only image2d_t dst_short) {
  const int2 p = (int2)((int)get_global_id(0), (int)get_global_id(1));
  const int2 q = (int2)(get_image_width(src_unorm) - 1 - p.x, p.y);
  const float4 u = read_imagef(src_unorm, q);
  write_imagef(dst_bgra, p, u.wzyx);
  const float f = read_imagef(src_float, p).x;
  write_imagef(dst_rgba, p, (float4)(f, f * 2.0f, -f, 0.25f));
  const int4 i = read_imagei(src_int, p);
  write_imagei(dst_short, p, (int4)(i.x, i.y >> 16, i.z >> 20, i.w));
}
