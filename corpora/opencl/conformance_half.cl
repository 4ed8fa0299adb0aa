// Self-checking half-precision conformance kernel (cl_khr_fp16): work-item 0
// evaluates half operations whose results are exact for these run-time
// operands (in[i] == i) and compares them with values worked out by hand:
// arithmetic, fma, rounding functions, min/max with NaN, bit patterns,
// overflow to infinity, the 11-bit significand limit under each rounding
// mode of the int->half and float->half conversions, saturating half->int
// conversions, relational built-ins, and half vectors of 2, 3, 4, 8 and 16
// lanes (swizzles, relational results as short lanes, conversions).
// Subnormal halves are avoided: devices may flush them. "FAIL <n>" per
// mismatch, err[0] counts them, "PASS conformance_half" when all hold.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define CHECK(cond, id)          \
  do {                           \
    if (!(cond)) {               \
      printf("FAIL %d\n", (id)); \
      err[0] += 1;               \
    }                            \
  } while (0)

__kernel void conformance_half(__global const uint *in, __global uint *err) {
  if (get_global_id(0) != 0) return;
  const half h0 = (half)in[0], h1 = (half)in[1], h2 = (half)in[2],
             h3 = (half)in[3], h10 = (half)in[10], h100 = (half)in[100];
  const half neg = -h3 / h2;  // -1.5, exact
  const half nan = h0 / h0;
  const half inf = h1 / h0;

  // Arithmetic and fma (correctly rounded; exact for these operands).
  CHECK(h3 + h10 == 13.0h && h3 - h10 == -7.0h, 1);
  CHECK(h3 * h10 == 30.0h && h10 / h2 == 5.0h, 2);
  CHECK(fma(h3, h10, h1) == 31.0h, 3);
  CHECK(sqrt(h10 * h10) == 10.0h, 4);
  // Bit patterns (IEEE binary16).
  CHECK(as_ushort(h1) == 0x3c00 && as_ushort(neg) == 0xbe00, 5);
  CHECK(as_ushort(-h0) == 0x8000 && as_ushort(inf) == 0x7c00, 6);
  // 65504 is the largest finite half; 100 * 1000 overflows to +inf.
  const half big = (half)(in[255] * 256u + in[224]);  // 65504
  CHECK(as_ushort(big) == 0x7bff && !isinf(big), 7);
  CHECK(isinf(h100 * (h10 * h100)), 8);
  // The significand has 11 bits: 2049 lies between 2048 and 2050.
  const uint odd = (in[1] << 11) + in[1];  // 2049
  CHECK(convert_half_rte(odd) == 2048.0h && convert_half_rtz(odd) == 2048.0h,
        9);
  CHECK(convert_half_rtp(odd) == 2050.0h && convert_half_rtn(odd) == 2048.0h,
        10);
  CHECK(convert_half_rte(odd + in[2]) == 2052.0h, 11);  // 2051: tie to even
  const float f_odd = (float)odd + 0.5f;                  // 2049.5
  CHECK(convert_half_rte(f_odd) == 2050.0h && convert_half_rtz(f_odd) == 2048.0h,
        12);
  CHECK(convert_half_rtn(-f_odd) == -2050.0h &&
            convert_half_rtp(-f_odd) == -2048.0h,
        13);
  CHECK((float)neg == -1.5f && (int)neg == -1, 14);
  // half -> integer: saturating and rounding-mode conversions.
  CHECK(convert_int_rtn(neg) == -2 && convert_int_rtp(neg) == -1, 15);
  CHECK(convert_char_sat(big) == 127 && convert_uchar_sat(neg) == 0, 16);
  CHECK(convert_short_sat(inf) == 32767 && convert_int_sat(nan) == 0, 17);
  CHECK(convert_ushort(big) == 65504, 18);
  // Rounding and common functions.
  CHECK(floor(neg) == -2.0h && ceil(neg) == -1.0h && trunc(neg) == -1.0h, 19);
  CHECK(round(neg) == -2.0h && rint(h2 + 0.5h) == 2.0h, 20);
  CHECK(fabs(neg) == 1.5h && copysign(h3, neg) == -3.0h, 21);
  CHECK(fmin(nan, h2) == 2.0h && fmax(h2, nan) == 2.0h, 22);
  CHECK(fmod(h10, h3) == 1.0h && fdim(h10, h3) == 7.0h, 23);
  CHECK(ldexp(h3, (int)in[4]) == 48.0h && ilogb(h10) == 3, 24);
  CHECK(nextafter(h1, h2) == h1 + (half)0x1p-10f, 25);
  CHECK(clamp(h10, h1, h3) == 3.0h && step(h2, h3) == 1.0h, 26);
  CHECK(mad(h2, h3, h1) == 7.0h, 27);
  // Relational built-ins (scalar: int 1/0).
  CHECK(isnan(nan) && !isnan(h1) && isinf(-inf) && isfinite(big), 28);
  CHECK(isequal(h1, h1) && !isequal(nan, nan) && isunordered(nan, h1), 29);
  CHECK(signbit(-h0) && !signbit(h0) && isnormal(h1) && !isnormal(h0), 30);
  CHECK(select(h1, h2, (short)-1) == 2.0h, 31);
  // Vectors: every width.
  const half2 v2 = (half2)(h1, h2);
  const half3 v3 = (half3)(h1, h2, h3);
  const half4 v4 = (half4)(h1, h2, h3, h10);
  const half8 v8 = (half8)(v4, -v4);
  const half16 v16 = (half16)(v8, v8 * 2.0h);
  CHECK(all((v2 * v2).yx == (half2)(4.0h, 1.0h)), 32);
  CHECK(all(v3 + v3 == (half3)(2.0h, 4.0h, 6.0h)), 33);
  CHECK(all(v4.wzyx == (half4)(10.0h, 3.0h, 2.0h, 1.0h)), 34);
  CHECK(all(floor(v4 * 0.5h) == (half4)(0.0h, 1.0h, 1.0h, 5.0h)), 35);
  CHECK(all(v8.hi == -v8.lo) && v8.s7 == -10.0h, 36);
  CHECK(v16.sf == -20.0h && v16.s9 == 4.0h && v16.s3 == 10.0h, 37);
  const short4 lt = v4 < (half4)(h2);
  CHECK(all(lt == (short4)(-1, 0, 0, 0)), 38);
  CHECK(any(isnan((half2)(h1, nan))) && !all(isnan((half2)(h1, nan))), 39);
  CHECK(all(convert_int4(v4) == (int4)(1, 2, 3, 10)), 40);
  CHECK(all(convert_half4((int4)(1, 2, 3, 10)) == v4), 41);
  CHECK(all(fma(v4, v4, v4) == (half4)(2.0h, 6.0h, 12.0h, 110.0h)), 42);
  CHECK(dot(v4, v4) == 114.0h, 43);
  CHECK(all(fmax(v8, (half8)(h0)) == (half8)(v4, (half4)(0.0h))), 44);
  CHECK(all(as_ushort2(v2) == (ushort2)(0x3c00, 0x4000)), 45);
  if (err[0] == 0) printf("PASS conformance_half\n");
}
