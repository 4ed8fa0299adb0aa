// Sampled 2D reads through kernel-argument samplers (read_imagef(image,
// sampler, float2)), one per addressing mode: normalised nearest with
// clamp-to-edge, clamp (border colour), repeat and mirrored repeat;
// unnormalised nearest with addressing none (in-range coordinates only);
// normalised linear with repeat and unnormalised linear with clamp. Nearest
// coordinates sit on texel centres and linear ones a quarter texel off a
// centre (weights 0.25/0.75), so no result depends on how a device rounds a
// coordinate (OpenCL 1.2 §8.2).
__kernel void image_sampler_args(read_only image2d_t img, sampler_t cte,
                                 sampler_t clamp_border, sampler_t rep,
                                 sampler_t mirror, sampler_t none_unnorm,
                                 sampler_t rep_linear, sampler_t clamp_linear,
                                 __global float4 *out) {
  const int gx = (int)get_global_id(0), gy = (int)get_global_id(1);
  const int w = get_image_width(img), h = get_image_height(img);
  // Texel-space coordinates from -w to 2w: centres, and quarter points.
  const float2 c = (float2)((float)(gx - w) + 0.5f, (float)(gy - h) + 0.5f);
  const float2 qp = (float2)((float)(gx - w) + 0.25f, (float)(gy - h) + 0.75f);
  const float2 size = (float2)((float)w, (float)h);
  const float2 inside =
      (float2)((float)(gx % w) + 0.5f, (float)(gy % h) + 0.5f);
  __global float4 *o = out + (gy * (int)get_global_size(0) + gx) * 7;
  o[0] = read_imagef(img, cte, c / size);
  o[1] = read_imagef(img, clamp_border, c / size);
  o[2] = read_imagef(img, rep, c / size);
  o[3] = read_imagef(img, mirror, c / size);
  o[4] = read_imagef(img, none_unnorm, inside);
  o[5] = read_imagef(img, rep_linear, qp / size);
  o[6] = read_imagef(img, clamp_linear, qp);
}
