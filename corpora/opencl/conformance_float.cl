// Self-checking float conformance kernel: work-item 0 evaluates correctly
// rounded or exact float operations on run-time inputs (in[i] == i) and
// compares with values worked out by hand (OpenCL C 2.0 §6.13.2: only
// operations whose result is exact for these operands, so any conforming
// device must match bit for bit; divisions only where the quotient is
// exact, since single-precision division may be off by 2.5 ulp). "FAIL <n>" per mismatch, err[0] counts
// them, "PASS conformance_float" when all hold.
#define CHECK(cond, id)          \
  do {                           \
    if (!(cond)) {               \
      printf("FAIL %d\n", (id)); \
      err[0] += 1;               \
    }                            \
  } while (0)

__kernel void conformance_float(__global const uint *in, __global uint *err) {
  if (get_global_id(0) != 0) return;
  const float f0 = (float)in[0], f1 = (float)in[1], f2 = (float)in[2],
              f3 = (float)in[3], f10 = (float)in[10];
  const float half_neg = -f3 / f2;  // -1.5, exact
  const float nan = f0 / f0;
  CHECK(fma(f3, f10, f1) == 31.0f, 1);
  CHECK(floor(half_neg) == -2.0f && ceil(half_neg) == -1.0f, 2);
  CHECK(round(-half_neg) == 2.0f && round(half_neg) == -2.0f, 3);
  CHECK(rint(-half_neg) == 2.0f && rint(f2 + 0.5f) == 2.0f, 4);
  CHECK(trunc(half_neg) == -1.0f, 5);
  CHECK(fmod(f10, f3) == 1.0f && fmod(-f10, f3) == -1.0f, 6);
  CHECK(remainder(f10, f3) == 1.0f && remainder(f10 + f1, f3) == -1.0f, 7);
  CHECK(copysign(f3, -f1) == -3.0f, 8);
  CHECK(fmin(f2, f3) == 2.0f && fmax(-f2, -f3) == -2.0f, 9);
  CHECK(fmin(nan, f2) == 2.0f && fmax(f2, nan) == 2.0f, 10);
  CHECK(ldexp(f3, (int)in[4]) == 48.0f, 11);
  int e = 0;
  CHECK(frexp(f10, &e) == 0.625f && e == 4, 12);
  CHECK(as_uint(f1) == 0x3f800000u, 13);
  CHECK(as_uint(-f0) == 0x80000000u, 14);
  CHECK(isnan(nan) && !isnan(f1), 15);
  CHECK(isinf(f1 / f0) && f1 / f0 > 0.0f && isinf(-f1 / f0), 16);
  CHECK(nextafter(f1, f2) == 1.0f + 0x1p-23f, 17);
  CHECK(convert_int_rtn(half_neg) == -2 && convert_int_rtp(half_neg) == -1,
        18);
  CHECK(convert_int_rte(f3 + 0.5f) == 4 && convert_int_rte(f2 + 0.5f) == 2,
        19);
  CHECK(convert_int_rtz(half_neg) == -1, 20);
  CHECK(convert_int_sat(f10 * 1e10f) == 2147483647, 21);
  CHECK(convert_int_sat(nan) == 0, 22);
  CHECK(convert_uchar_sat(-f3) == 0 && convert_uchar_sat(f10 * 100) == 255,
        23);
  const uint p24 = (in[1] << 24) + in[1];  // 16777217: not a float
  CHECK(convert_float_rtz(p24) == 16777216.0f, 24);
  CHECK(convert_float_rtp(p24) == 16777218.0f, 25);
  CHECK(convert_float_rte(p24) == 16777216.0f, 26);
  CHECK(convert_float(in[255] << 24) == 4278190080.0f, 27);
  CHECK(fabs(half_neg) == 1.5f, 28);
  CHECK(sqrt(f2 * f2) == 2.0f && sqrt(f10 * f10 + f1 * 21.0f) == 11.0f, 29);
  CHECK(signbit(-f0) != 0 && signbit(f0) == 0, 30);
  CHECK(isequal(f1, f1) && !isequal(nan, nan) && isunordered(nan, f1), 31);
  CHECK(isgreater(f2, f1) && !isgreater(nan, f1) && islessgreater(f1, f2), 32);
  CHECK(step(f2, f3) == 1.0f && step(f3, f2) == 0.0f, 33);
  CHECK(clamp(f10, f1, f3) == 3.0f, 34);
  CHECK(f1 / f3 * f3 != 0.0f, 35);
  CHECK(f1 - f1 == 0.0f && as_uint(f0 * -f1) == 0x80000000u, 38);
  CHECK(as_uint((float)(in[1] << 31 | in[1])) == 0x4f000000u, 39);
  CHECK((uint)(f10 * 25.5f) == 255u, 40);
  const float4 v = (float4)(f1, f2, f3, f10);
  CHECK(dot(v, v) == 114.0f, 41);
  CHECK(all(v.wzyx == (float4)(10.0f, 3.0f, 2.0f, 1.0f)), 42);
  const float3 c = cross((float3)(f1, f0, f0), (float3)(f0, f1, f0));
  CHECK(c.x == 0.0f && c.y == 0.0f && c.z == 1.0f, 43);
  CHECK(all(floor(v * 0.5f) == (float4)(0.0f, 1.0f, 1.0f, 5.0f)), 44);
  CHECK(any(isnan((float2)(f1, nan))) && !all(isnan((float2)(f1, nan))), 45);
  CHECK(ilogb(f10) == 3 && logb(f10) == 3.0f, 46);
  float ip = 0.0f;
  CHECK(modf(half_neg, &ip) == -0.5f && ip == -1.0f, 47);
  int q = 0;
  CHECK(remquo(f10, f3, &q) == 1.0f && (q & 7) == 3, 48);
  CHECK(fdim(f10, f3) == 7.0f && fdim(f3, f10) == 0.0f, 49);
  CHECK(maxmag(-f3, f2) == -3.0f && minmag(-f3, f2) == 2.0f, 50);
  if (err[0] == 0) printf("PASS conformance_float\n");
}
