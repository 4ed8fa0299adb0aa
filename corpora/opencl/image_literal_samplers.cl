// Sampled 2D reads through literal samplers (const sampler_t in the program,
// OpConstantSampler in SPIR-V): every addressing mode with nearest and linear
// filtering, normalised and unnormalised coordinates, float2 and int2
// coordinates, on an RGBA Float image (inputs are multiples of 1/64, so the
// 0.25/0.75 linear weights give exact sums) and an R SnormInt16 image.
// Nearest coordinates sit on texel centres, linear ones a quarter texel off a
// centre; addressing none only sees coordinates whose whole footprint is
// inside the image (OpenCL 1.2 §8.2).
const sampler_t s_none_near =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;
const sampler_t s_edge_lin =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
const sampler_t s_clamp_lin =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;
const sampler_t s_mirror_lin = CLK_NORMALIZED_COORDS_TRUE |
                               CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR;
const sampler_t s_none_lin =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_NONE | CLK_FILTER_LINEAR;
const sampler_t s_rep_near =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;
const sampler_t s_int_clamp =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

__kernel void image_literal_samplers(read_only image2d_t img,
                                     read_only image2d_t snorm,
                                     __global float4 *out) {
  // A function-scope literal sampler, too.
  const sampler_t s_int_edge = CLK_NORMALIZED_COORDS_FALSE |
                               CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
  const int gx = (int)get_global_id(0), gy = (int)get_global_id(1);
  const int w = get_image_width(img), h = get_image_height(img);
  const float2 size = (float2)((float)w, (float)h);
  const float2 c = (float2)((float)(gx - w) + 0.5f, (float)(gy - h) + 0.5f);
  const float2 qp = (float2)((float)(gx - w) + 0.25f, (float)(gy - h) + 0.75f);
  const float2 inside =
      (float2)((float)(gx % w) + 0.5f, (float)(gy % h) + 0.5f);
  const float2 inside_q =
      (float2)((float)(gx % (w - 1)) + 0.75f, (float)(gy % (h - 1)) + 0.75f);
  const int2 ic = (int2)(gx - w, gy - h);
  __global float4 *o = out + (gy * (int)get_global_size(0) + gx) * 10;
  o[0] = read_imagef(img, s_none_near, inside);
  o[1] = read_imagef(img, s_edge_lin, qp);
  o[2] = read_imagef(img, s_clamp_lin, qp / size);
  o[3] = read_imagef(img, s_mirror_lin, qp / size);
  o[4] = read_imagef(img, s_none_lin, inside_q / size);
  o[5] = read_imagef(img, s_rep_near, c / size);
  o[6] = read_imagef(img, s_int_clamp, ic);
  o[7] = read_imagef(img, s_int_edge, ic);
  o[8] = read_imagef(snorm, s_mirror_lin, qp / size);
  o[9] = read_imagef(snorm, s_int_clamp, ic);
}
