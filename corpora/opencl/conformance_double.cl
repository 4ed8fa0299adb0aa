// l0spv-cl-std: CL1.2
// Self-checking double-precision conformance kernel (cl_khr_fp64): work-item
// 0 evaluates double operations whose results are exact for these run-time
// operands (in[i] == i) and compares them with values worked out by hand:
// correctly rounded arithmetic, division and sqrt, fma, rounding functions,
// min/max with NaN, bit patterns, the 53-bit significand limit under each
// rounding mode of the long->double and double->float conversions,
// saturating double->integer conversions, frexp/modf/remquo through private
// pointers (OpenCL 1.2, so PoCL runs it too), relational built-ins, and
// double vectors of 2, 3, 4, 8 and 16 lanes. "FAIL <n>" per mismatch,
// err[0] counts them, "PASS conformance_double" when all hold.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define CHECK(cond, id)          \
  do {                           \
    if (!(cond)) {               \
      printf("FAIL %d\n", (id)); \
      err[0] += 1;               \
    }                            \
  } while (0)

__kernel void conformance_double(__global const uint *in, __global uint *err) {
  if (get_global_id(0) != 0) return;
  const double d0 = (double)in[0], d1 = (double)in[1], d2 = (double)in[2],
               d3 = (double)in[3], d10 = (double)in[10];
  const double neg = -d3 / d2;  // -1.5, exact
  const double nan = d0 / d0;
  const double inf = d1 / d0;

  // Arithmetic, division, sqrt and fma: correctly rounded.
  CHECK(d3 + d10 == 13.0 && d3 - d10 == -7.0 && d3 * d10 == 30.0, 1);
  CHECK(d1 / d3 * d3 == 1.0 && d10 / d2 == 5.0, 2);
  CHECK(as_ulong(d1 / d3) == 0x3fd5555555555555ul, 3);  // 1/3, rounded
  CHECK(fma(d3, d10, d1) == 31.0, 4);
  // fma rounds once: (1 + 2^-30)^2 - 1 keeps the 2^-60 term.
  const double e = d1 + ldexp(d1, -30);
  CHECK(fma(e, e, -d1) == ldexp(d1, -29) + ldexp(d1, -60), 5);
  CHECK(sqrt(d2) == 0x1.6a09e667f3bcdp+0, 6);  // sqrt(2), rounded
  CHECK(as_ulong(d1) == 0x3ff0000000000000ul && as_ulong(-d0) == (1ul << 63),
        7);
  CHECK(as_ulong(inf) == 0x7ff0000000000000ul && isnan(nan), 8);
  // The significand has 53 bits: 2^53 + 1 lies between 2^53 and 2^53 + 2.
  const long odd = ((long)in[1] << 53) + in[1];
  CHECK(convert_double_rte(odd) == 0x1p53 && convert_double_rtz(odd) == 0x1p53,
        9);
  CHECK(convert_double_rtp(odd) == 0x1p53 + 2.0 &&
            convert_double_rtn(-odd) == -0x1p53 - 2.0,
        10);
  CHECK(convert_double(odd + in[2]) == 0x1p53 + 4.0, 11);  // tie to even
  // double -> float: 1 + 2^-24 lies between two floats.
  const double mid = d1 + ldexp(d1, -24);
  CHECK(convert_float_rte(mid) == 1.0f && convert_float_rtp(mid) == 1.0f + 0x1p-23f,
        12);
  CHECK(convert_float_rtz(-mid) == -1.0f && convert_float_rtn(-mid) == -1.0f - 0x1p-23f,
        13);
  CHECK(isinf(convert_float(d10 * 1e300)) && convert_float_rtz(d10 * 1e300) == MAXFLOAT,
        14);
  // double -> integer: saturating and rounding-mode conversions.
  CHECK(convert_int_rtn(neg) == -2 && convert_int_rtp(neg) == -1 && (int)neg == -1,
        15);
  CHECK(convert_long_sat(d10 * 1e300) == LONG_MAX && convert_ulong_sat(neg) == 0,
        16);
  CHECK(convert_int_sat(nan) == 0 && convert_char_sat(-d10 * 100) == -128, 17);
  CHECK(convert_long(0x1p62 + d0) == (1l << 62), 18);
  // Rounding and common functions.
  CHECK(floor(neg) == -2.0 && ceil(neg) == -1.0 && trunc(neg) == -1.0, 19);
  CHECK(round(neg) == -2.0 && rint(d2 + 0.5) == 2.0, 20);
  CHECK(fabs(neg) == 1.5 && copysign(d3, neg) == -3.0, 21);
  CHECK(fmin(nan, d2) == 2.0 && fmax(d2, nan) == 2.0, 22);
  CHECK(fmod(d10, d3) == 1.0 && remainder(d10 + d1, d3) == -1.0, 23);
  CHECK(ldexp(d3, (int)in[4]) == 48.0 && ilogb(d10) == 3 && logb(d10) == 3.0,
        24);
  CHECK(nextafter(d1, d2) == d1 + 0x1p-52, 25);
  CHECK(fdim(d10, d3) == 7.0 && maxmag(-d3, d2) == -3.0, 26);
  int ex = 0;
  CHECK(frexp(d10, &ex) == 0.625 && ex == 4, 27);
  double ip = 0.0;
  CHECK(modf(neg, &ip) == -0.5 && ip == -1.0, 28);
  int quo = 0;
  CHECK(remquo(d10, d3, &quo) == 1.0 && (quo & 7) == 3, 29);
  // Relational built-ins (scalar: int 1/0).
  CHECK(isequal(d1, d1) && !isequal(nan, nan) && isunordered(nan, d1), 30);
  CHECK(signbit(-d0) && !signbit(d0) && isnormal(d1) && !isnormal(d0), 31);
  CHECK(isfinite(0x1.fffffffffffffp1023 + d0) && isinf(-inf), 32);
  CHECK(select(d1, d2, (long)-1) == 2.0 && bitselect(d1, d3, d0) == 1.0, 33);
  // Vectors: every width.
  const double2 v2 = (double2)(d1, d2);
  const double3 v3 = (double3)(d1, d2, d3);
  const double4 v4 = (double4)(d1, d2, d3, d10);
  const double8 v8 = (double8)(v4, -v4);
  const double16 v16 = (double16)(v8, v8 * 2.0);
  CHECK(all((v2 * v2).yx == (double2)(4.0, 1.0)), 34);
  CHECK(all(v3 / (double3)(d2) == (double3)(0.5, 1.0, 1.5)), 35);
  CHECK(all(v4.wzyx == (double4)(10.0, 3.0, 2.0, 1.0)), 36);
  CHECK(all(floor(v4 * 0.5) == (double4)(0.0, 1.0, 1.0, 5.0)), 37);
  CHECK(all(v8.hi == -v8.lo) && v8.s7 == -10.0, 38);
  CHECK(v16.sf == -20.0 && v16.s9 == 4.0 && v16.s3 == 10.0, 39);
  const long4 lt = v4 < (double4)(d2);
  CHECK(all(lt == (long4)(-1, 0, 0, 0)), 40);
  CHECK(all(convert_int4(v4) == (int4)(1, 2, 3, 10)), 41);
  CHECK(all(convert_double4((float4)(1.0f, 2.0f, 3.0f, 10.0f)) == v4), 42);
  CHECK(all(fma(v4, v4, v4) == (double4)(2.0, 6.0, 12.0, 110.0)), 43);
  CHECK(dot(v4, v4) == 114.0 && length(v2 * 0.0 + (double2)(d3, 4.0)) == 5.0,
        44);
  CHECK(all(sqrt(v4 * v4) == v4), 45);
  CHECK(all(as_ulong2(v2) == (ulong2)(0x3ff0000000000000ul, 0x4000000000000000ul)),
        46);
  if (err[0] == 0) printf("PASS conformance_double\n");
}
