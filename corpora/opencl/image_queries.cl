// Image queries on every dimensionality but 1D buffer (PoCL's kernel
// library has no queries on image1d_buffer_t: undefined symbols at load):
// get_image_width/height/depth, get_image_array_size, get_image_dim,
// get_image_channel_order and get_image_channel_data_type (CLK_* values, i.e.
// OpImageQueryOrder / OpImageQueryFormat plus the OpenCL offsets), on
// read_only, write_only and read_write images of several formats.
__kernel void image_queries(read_only image1d_t a, read_only image1d_array_t c,
                            write_only image2d_t d, read_only image2d_array_t e,
                            read_only image3d_t f, read_write image2d_t g,
                            __global int *out) {
  if (get_global_id(0) != 0) return;
  int i = 0;
  out[i++] = get_image_width(a);
  out[i++] = get_image_channel_order(a);
  out[i++] = get_image_channel_data_type(a);
  out[i++] = get_image_width(c);
  out[i++] = (int)get_image_array_size(c);
  out[i++] = get_image_channel_order(c);
  out[i++] = get_image_channel_data_type(c);
  out[i++] = get_image_width(d);
  out[i++] = get_image_height(d);
  out[i++] = get_image_dim(d).x * 100 + get_image_dim(d).y;
  out[i++] = get_image_channel_order(d);
  out[i++] = get_image_channel_data_type(d);
  out[i++] = get_image_width(e);
  out[i++] = get_image_height(e);
  out[i++] = (int)get_image_array_size(e);
  out[i++] = get_image_dim(e).x * 100 + get_image_dim(e).y;
  out[i++] = get_image_channel_order(e);
  out[i++] = get_image_channel_data_type(e);
  const int4 fd = get_image_dim(f);
  out[i++] = get_image_width(f);
  out[i++] = get_image_height(f);
  out[i++] = get_image_depth(f);
  out[i++] = fd.x * 10000 + fd.y * 100 + fd.z * 1 + fd.w * 1000000;
  out[i++] = get_image_channel_order(f);
  out[i++] = get_image_channel_data_type(f);
  out[i++] = get_image_width(g);
  out[i++] = get_image_height(g);
  out[i++] = get_image_channel_order(g);
  out[i++] = get_image_channel_data_type(g);
  out[i] = i;  // 28: how many words came before
}
