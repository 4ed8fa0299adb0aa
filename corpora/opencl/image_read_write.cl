// OpenCL 2.0 read_write images with barrier-separated phases: every
// work-item reads its own texel, the work-group meets at
// work_group_barrier(CLK_IMAGE_MEM_FENCE), each overwrites its texel, they
// meet again (which makes the writes visible to the group, OpenCL 2.0 C
// §6.13.14), and each reads a neighbour's new texel. Only sampler-less
// reads are allowed on read_write images. One work-group covers the image.
__kernel void image_read_write(read_write image2d_t img,
                               read_write image2d_t counts,
                               __global float4 *out) {
  const int2 p = (int2)((int)get_global_id(0), (int)get_global_id(1));
  const int w = get_image_width(img), h = get_image_height(img);
  const float4 mine = read_imagef(img, p);
  const int4 n = read_imagei(counts, p);
  work_group_barrier(CLK_IMAGE_MEM_FENCE);
  write_imagef(img, p, (float4)(mine.y, mine.x * 2.0f, (float)p.x, -mine.w));
  write_imagei(counts, p, n + (int4)(p.x, p.y, 1, -1));
  work_group_barrier(CLK_IMAGE_MEM_FENCE);
  const int2 q = (int2)((p.x + 1) % w, (p.y + h - 1) % h);
  const float4 theirs = read_imagef(img, q);
  const int4 m = read_imagei(counts, q);
  __global float4 *o = out + (p.y * w + p.x) * 2;
  o[0] = theirs;
  o[1] = convert_float4(m);
}
