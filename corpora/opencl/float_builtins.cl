// Basic float built-ins on inputs derived exactly from random bits, so no
// NaN/Inf/denormal ever enters. Most results are exact (rounding functions,
// fmin/fmax, copysign, ldexp, fmod, fma); sqrt, division and mad carry the
// OpenCL ULP allowances, so results are compared with a tolerance.
// Exercises: sqrt, fma, mad, fabs, floor, ceil, rint, round, trunc, fmin,
// fmax, fmod, remainder, copysign, ldexp, fdim, maxmag, minmag, ilogb, logb.

// Map 32 random bits to a float in [-64, 64) with 17 fraction bits (exact).
float bits_to_float(uint r) {
  return (float)((int)(r >> 8) - 0x800000) * 0x1.0p-17f;
}

__kernel void float_builtins(__global const uint *in, __global float *out,
                             __global int *iout) {
  size_t g = get_global_id(0);
  uint rx = in[3 * g], ry = in[3 * g + 1], rz = in[3 * g + 2];
  float x = bits_to_float(rx), y = bits_to_float(ry), z = bits_to_float(rz);
  float ynz = (y == 0.0f) ? 1.0f : y;   // non-zero divisor
  int k = (int)(rz & 15u) - 8;          // small exponent adjustment

  __global float *o = out + 20 * g;
  o[0] = sqrt(fabs(x));
  o[1] = fma(x, y, z);
  o[2] = mad(x, y, z);
  o[3] = fabs(x);
  o[4] = floor(x);
  o[5] = ceil(x);
  o[6] = rint(x * 4.0f);                // hits exact .5 ties: round-to-even
  o[7] = round(x * 4.0f);               // ties away from zero
  o[8] = trunc(x);
  o[9] = fmin(x, y);
  o[10] = fmax(x, y);
  o[11] = fmod(x, ynz);
  o[12] = remainder(x, ynz);
  o[13] = copysign(x, y);
  o[14] = ldexp(x, k);
  o[15] = x / ynz;
  o[16] = fdim(x, y);
  o[17] = maxmag(x, y);
  o[18] = minmag(x, y);
  o[19] = x * y - z;                    // not contracted (-ffp-contract=off)
  iout[2 * g] = ilogb(ynz);
  iout[2 * g + 1] = (int)logb(ynz);
}
