// l0spv-cl-std: CL1.2
// Math built-ins with pointer out-parameters, called with explicitly
// __private pointers. Compiled as OpenCL C 1.2 so that clang resolves the
// named __private overloads: under OpenCL C 2.0 only generic-pointer
// overloads exist, and PoCL cannot link those from SPIR.
// Exercises: frexp, modf, fract, remquo, sincos, lgamma_r.
__kernel void frexp_modf_private(__global const uint *in, __global float *out,
                                 __global int *iout) {
  size_t g = get_global_id(0);
  uint r = in[g];
  float x = (float)((int)(r >> 8) - 0x800000) * 0x1.0p-13f; // |x| <= 1024
  float y = (float)((r & 0xFFu) + 1u) * 0.375f;              // (0, 96]

  __private int e;
  __private float ip, fl, c;
  __private int quo, sgn;

  __global float *o = out + 8 * g;
  __global int *io = iout + 4 * g;
  o[0] = frexp(x, &e);
  io[0] = e;
  o[1] = modf(x, &ip);
  o[2] = ip;
  o[3] = fract(x, &fl) + fl;
  o[4] = remquo(x, y, &quo);
  // Only the sign and the magnitude modulo 8 are defined; when that residue
  // is 0 the value may be 0 or a multiple of -8, so the sign is dropped.
  io[1] = quo & 7;
  io[2] = (quo & 7) ? (quo < 0) : 0;
  o[5] = sincos(x * 0.001f, &c);
  o[6] = c;
  o[7] = lgamma_r(y, &sgn);
  io[3] = sgn;
}
