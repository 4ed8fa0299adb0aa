// 1D images: image1d_t read sampler-less and through a normalised
// clamp-to-edge sampler (out-of-range coordinates take the edge texel),
// image1d_buffer_t (sampler-less reads only, as OpenCL allows),
// image1d_array_t sampler-less and sampled (the layer coordinate is rounded
// with rint and clamped, OpenCL 1.2 §8.4; layers sit at n and n + 0.25 to
// stay off ties), and a write_only image1d_t.
const sampler_t s_edge =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
const sampler_t s_unnorm =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

__kernel void image_1d_kinds(read_only image1d_t line,
                             read_only image1d_buffer_t buf,
                             read_only image1d_array_t layers,
                             write_only image1d_t dst, __global float4 *out) {
  const int g = (int)get_global_id(0);
  const int w = get_image_width(line);
  const int aw = get_image_width(layers);
  const int n = (int)get_image_array_size(layers);
  const float4 a = read_imagef(line, g);
  const float4 b =
      read_imagef(line, s_edge, ((float)(g * 3 - w) + 0.5f) / (float)w);
  const int4 c = read_imagei(buf, g);
  const float4 d = read_imagef(layers, (int2)(g % aw, (g / aw) % n));
  // Layers -1.0 .. 4.25 (clamped to 0 .. n-1), u off the edges too.
  const float layer = (float)(g % 6 - 1) + ((g & 1) ? 0.25f : 0.0f);
  const float4 e = read_imagef(
      layers, s_unnorm, (float2)((float)(g % (aw + 4) - 2) + 0.5f, layer));
  __global float4 *o = out + g * 5;
  o[0] = a;
  o[1] = b;
  o[2] = convert_float4(c);
  o[3] = d;
  o[4] = e;
  write_imagef(dst, g, (float4)(a.x, d.y, (float)c.x, e.x));
}
