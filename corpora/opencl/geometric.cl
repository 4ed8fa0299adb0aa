// l0spv-cl-std: CL1.2
// Geometric built-ins on float2/float3/float4 with small, exactly
// representable components (never the zero vector for normalize).
// Exercises: dot, cross (float3 and float4), length, normalize, distance,
// fast_length, fast_distance, fast_normalize, vload3/vstore3.
__kernel void geometric(__global const int *in, __global float *out) {
  size_t g = get_global_id(0);
  int4 r = vload4(g, in);
  // components in [-8, 8) with quarter steps
  float4 a = convert_float4(r & 63) * 0.25f - 8.0f;
  float4 b = convert_float4((r >> 8) & 63) * 0.25f - 8.0f;
  a.w = 1.0f;                               // a is never the zero vector
  float3 a3 = a.xyz, b3 = b.xyz;
  float2 a2 = a.xy;

  __global float *o = out + 24 * g;
  o[0] = dot(a, b);
  o[1] = dot(a3, b3);
  o[2] = dot(a2, b.zw);
  vstore3(cross(a3, b3), 1, o);             // o[3..5]
  float4 c4 = cross(a, b);
  vstore4(c4, 2, o);                        // o[8..11] (w is 0)
  o[6] = length(a);
  o[7] = distance(a, b);
  vstore4(normalize(a), 3, o);              // o[12..15]
  o[16] = length(a2 + (float2)(0.5f, 0.0f));
  o[17] = distance(a3, b3);
  o[18] = fast_length(a);
  o[19] = fast_distance(a, b);
  float4 fn = fast_normalize(a);
  o[20] = fn.x;
  o[21] = fn.y;
  o[22] = fn.z;
  o[23] = fn.w;
}
