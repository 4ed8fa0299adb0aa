// Sampler-less unsigned-integer image reads and writes (read_imageui,
// write_imageui): an RGBA UnsignedInt16 image stored into RGBA UnsignedInt8
// (write_imageui saturates to 255, OpenCL 1.2 §8.3.4; .y is shifted into
// range so both paths are taken) and an R UnsignedInt32 image transposed
// into an RGBA UnsignedInt16 image (saturating to 65535; values are kept
// below 2^31, see notes).
__kernel void image2d_uint(read_only image2d_t src16, read_only image2d_t src32,
                           write_only image2d_t dst8,
                           write_only image2d_t dst16) {
  const int2 p = (int2)((int)get_global_id(0), (int)get_global_id(1));
  const uint4 a = read_imageui(src16, p);
  write_imageui(dst8, p, (uint4)(a.x, a.y >> 8, a.z & 0xffu, a.w >> 1));
  const uint b = read_imageui(src32, p.yx).x & 0x7fffffffu;
  write_imageui(dst16, p, (uint4)(b, b >> 16, b >> 24, 65535u));
}
