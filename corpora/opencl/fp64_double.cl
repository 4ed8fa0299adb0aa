// Double precision (cl_khr_fp64): arithmetic, correctly rounded division and
// sqrt, fma, rounding functions, conversions to/from float and integers
// (saturating, with rounding modes), double vectors and a few
// transcendentals. Inputs are exact doubles built from random bits.
// Not every device has fp64 (e.g. Intel Gen12LP/tgllp): the ocloc check
// uses -device skl for this module.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

double bits_to_double(ulong r) {
  // 53-bit signed integer scaled by 2^-40: exact, |x| < 2^13
  return (double)(as_long(r) >> 11) * 0x1.0p-40;
}

__kernel void fp64_double(__global const ulong *in, __global double *out,
                          __global long *iout) {
  size_t g = get_global_id(0);
  double x = bits_to_double(in[2 * g]);
  double y = bits_to_double(in[2 * g + 1]);
  double ynz = (y == 0.0) ? 1.0 : y;

  __global double *o = out + 16 * g;
  o[0] = x + y;
  o[1] = x * y;
  o[2] = x / ynz;                  // correctly rounded for double
  o[3] = sqrt(fabs(x));            // correctly rounded for double
  o[4] = fma(x, y, -x);
  o[5] = floor(x) + ceil(y) + trunc(x * 0.5) + rint(y * 0.25);
  o[6] = fmin(x, y) - fmax(x, y);
  o[7] = (double)(float)x;         // round to float and back (rte)
  o[8] = (double)convert_float_rtz(x) - (double)convert_float_rtp(y);
  o[9] = ldexp(x, -20) + copysign(1.0, y);
  double2 v2 = (double2)(x, y) * (double2)(0.5, 2.0);
  double4 v4 = (double4)(v2, v2.yx) + 1.0;
  o[10] = v4.x + v4.w;
  o[11] = dot(v4, (double4)(1.0, -1.0, 0.5, 0.25));
  o[12] = exp(x * 0x1.0p-10);      // |arg| < 8
  o[13] = log(fabs(x) + 1.0);
  o[14] = sin(y * 0x1.0p-8);
  o[15] = pow(fabs(x) * 0x1.0p-12 + 0.5, 1.5);

  __global long *io = iout + 4 * g;
  io[0] = convert_long_sat(x * 0x1.0p60);   // saturates for large |x|
  io[1] = convert_long_sat_rte(x);
  io[2] = (long)convert_int_sat_rtn(y);
  io[3] = as_long(x * y);
}
