// Self-checking image conformance kernel: one work-item writes known values
// into read_write images of many channel orders and types, meets a
// work_group_barrier(CLK_IMAGE_MEM_FENCE) (which orders its own image
// writes before its reads, OpenCL 2.0 C §6.13.14), reads them back and
// compares with what OpenCL 1.2 §8.3 defines: float → normalised rounding
// and saturation (NaN → 0), snorm's -1.0 clamp, saturating integer writes,
// exact half/float round trips, missing channels (0, 0, 0, 1), and through
// zero-filled read_only images the border colours of §8.2 ((0,0,0,0) for
// orders with alpha, (0,0,0,1) for R) with clamp and clamp-to-edge.
// Normalised reads may be 1.5 ulp off (§8.3.1.1): near() allows that. Every
// written value is at least 0.15 from a rounding tie, inside the 0.6-ulp
// freedom float → normalised conversions have.
// check[id] = 1 (pass) or 2 (fail); each failure also prints "FAIL id" and
// counts in err[0]; "PASS conformance_images" when all hold.
#define CHECK(cond, id)          \
  do {                           \
    if (cond) {                  \
      check[id] = 1;             \
    } else {                     \
      check[id] = 2;             \
      printf("FAIL %d\n", (id)); \
      err[0] += 1;               \
    }                            \
  } while (0)

// e is the float nearest the exact value (within 0.5 ulp), the read is
// within 1.5 ulp of the exact value: 2 ulp of e in all.
static bool near(float v, float e) {
  const float a = fabs(e);
  return fabs(v - e) <= 2.0f * (nextafter(a, INFINITY) - a);
}
static bool near4(float4 v, float4 e) {
  return near(v.x, e.x) && near(v.y, e.y) && near(v.z, e.z) && near(v.w, e.w);
}
static bool eq4(float4 v, float4 e) { return all(v == e); }
static bool eqi4(int4 v, int4 e) { return all(v == e); }

const sampler_t s_clamp =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
const sampler_t s_edge = CLK_NORMALIZED_COORDS_FALSE |
                         CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
const sampler_t s_clamp_norm =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

__kernel void conformance_images(
    __global uint *check, __global uint *err, read_write image2d_t rgba_unorm8,
    read_write image2d_t r_snorm16, read_write image2d_t rgba_int32,
    read_write image2d_t rgba_int8, read_write image2d_t a_int16,
    read_write image2d_t r_half, read_write image2d_t rgba_float,
    read_write image2d_t bgra_unorm8, read_write image2d_t argb_int8,
    read_write image2d_t r_unorm8, read_only image2d_t zero_r,
    read_only image2d_t zero_rgba_float, read_only image2d_t zero_a,
    read_only image2d_t zero_r_int) {
  if (get_global_id(0) != 0) return;
  const int2 p0 = (int2)(0, 0), p1 = (int2)(1, 0), p2 = (int2)(0, 1),
             p3 = (int2)(1, 1);
  // --- writes ------------------------------------------------------------
  write_imagef(rgba_unorm8, p0, (float4)(0.2f, 0.6f, 1.0f, 0.0f));
  write_imagef(rgba_unorm8, p1, (float4)(-0.25f, 1.5f, NAN, -INFINITY));
  write_imagef(rgba_unorm8, p2, (float4)(0.501f, 0.0985f, 0.75f, 0.003f));
  write_imagef(r_snorm16, p0, (float4)(-2.0f, 5.0f, 5.0f, 5.0f));
  write_imagef(r_snorm16, p1, (float4)(1.0f, 0.0f, 0.0f, 0.0f));
  write_imagef(r_snorm16, p2, (float4)(0.25f, 0.0f, 0.0f, 0.0f));
  write_imagef(r_snorm16, p3, (float4)(-1.0f, 0.0f, 0.0f, 0.0f));
  write_imagei(rgba_int32, p0, (int4)(INT_MIN, INT_MAX, -1, 7));
  write_imagei(rgba_int8, p0, (int4)(-200, 200, -128, 127));
  write_imagei(rgba_int8, p1, (int4)(INT_MIN, INT_MAX, -1, 0));
  write_imagei(a_int16, p0, (int4)(5, 6, 7, 70000));
  write_imagei(a_int16, p1, (int4)(5, 6, 7, -40000));
  write_imagef(r_half, p0, (float4)(0.375f, 2.0f, 3.0f, 4.0f));
  write_imagef(r_half, p1, (float4)(-65504.0f, 0.0f, 0.0f, 0.0f));
  write_imagef(r_half, p2, (float4)(-0.0f, 0.0f, 0.0f, 0.0f));
  write_imagef(rgba_float, p0, (float4)(-0.0f, INFINITY, 1.0e-3f, -3.5f));
  write_imagef(rgba_float, p1, (float4)(FLT_MAX, -FLT_MIN, 0.1f, 1.0e30f));
  write_imagef(bgra_unorm8, p0, (float4)(1.0f, 0.0f, 0.2f, 0.6f));
  write_imagei(argb_int8, p0, (int4)(1, -2, 3, -4));
  write_imagef(r_unorm8, p0, (float4)(0.6f, 9.0f, 9.0f, 9.0f));
  work_group_barrier(CLK_IMAGE_MEM_FENCE);

  // --- UnormInt8: rounding to k/255, saturation, NaN → 0 ------------------
  CHECK(near4(read_imagef(rgba_unorm8, p0), (float4)(0.2f, 0.6f, 1.0f, 0.0f)),
        1);
  CHECK(eq4(read_imagef(rgba_unorm8, p1), (float4)(0.0f, 1.0f, 0.0f, 0.0f)), 2);
  // 0.501 * 255 = 127.755 → 128, 0.0985 * 255 = 25.12 → 25,
  // 0.75 * 255 = 191.25 → 191, 0.003 * 255 = 0.765 → 1
  CHECK(near4(read_imagef(rgba_unorm8, p2),
              (float4)(0.501960814f, 0.0980392173f, 0.749019623f,
                       0.00392156886f)),
        3);
  // --- SnormInt16: saturation, the -1.0 clamp, missing channels ----------
  CHECK(eq4(read_imagef(r_snorm16, p0), (float4)(-1.0f, 0.0f, 0.0f, 1.0f)), 6);
  CHECK(eq4(read_imagef(r_snorm16, p1), (float4)(1.0f, 0.0f, 0.0f, 1.0f)), 7);
  // 0.25 * 32767 = 8191.75 → 8192; 8192 / 32767
  CHECK(near(read_imagef(r_snorm16, p2).x, 0.250007629f), 8);
  CHECK(eq4(read_imagef(r_snorm16, p3), (float4)(-1.0f, 0.0f, 0.0f, 1.0f)), 9);
  // --- signed integers: exact and saturating ------------------------------
  CHECK(eqi4(read_imagei(rgba_int32, p0), (int4)(INT_MIN, INT_MAX, -1, 7)), 10);
  CHECK(eqi4(read_imagei(rgba_int8, p0), (int4)(-128, 127, -128, 127)), 11);
  CHECK(eqi4(read_imagei(rgba_int8, p1), (int4)(-128, 127, -1, 0)), 12);
  // A: only alpha is stored; red, green and blue read as 0
  CHECK(eqi4(read_imagei(a_int16, p0), (int4)(0, 0, 0, 32767)), 13);
  CHECK(eqi4(read_imagei(a_int16, p1), (int4)(0, 0, 0, -32768)), 14);
  // --- HalfFloat: exact values round-trip, R gives (r, 0, 0, 1) -----------
  CHECK(eq4(read_imagef(r_half, p0), (float4)(0.375f, 0.0f, 0.0f, 1.0f)), 15);
  CHECK(eq4(read_imagef(r_half, p1), (float4)(-65504.0f, 0.0f, 0.0f, 1.0f)),
        16);
  CHECK(signbit(read_imagef(r_half, p2).x) && read_imagef(r_half, p2).x == 0.0f,
        17);
  // --- Float: bit-exact, including -0, infinity, extremes -----------------
  const float4 f0 = read_imagef(rgba_float, p0);
  CHECK(signbit(f0.x) && f0.x == 0.0f && isinf(f0.y) && f0.y > 0.0f, 18);
  CHECK(f0.z == 1.0e-3f && f0.w == -3.5f, 19);
  CHECK(eq4(read_imagef(rgba_float, p1),
            (float4)(FLT_MAX, -FLT_MIN, 0.1f, 1.0e30f)),
        20);
  // --- channel orders: BGRA and ARGB read back in r, g, b, a order --------
  CHECK(near4(read_imagef(bgra_unorm8, p0), (float4)(1.0f, 0.0f, 0.2f, 0.6f)),
        21);
  CHECK(eqi4(read_imagei(argb_int8, p0), (int4)(1, -2, 3, -4)), 22);
  CHECK(near4(read_imagef(r_unorm8, p0), (float4)(0.6f, 0.0f, 0.0f, 1.0f)), 23);
  // --- border colours and edges on zero-filled images ----------------------
  CHECK(eq4(read_imagef(zero_r, p0), (float4)(0.0f, 0.0f, 0.0f, 1.0f)), 24);
  CHECK(eq4(read_imagef(zero_r, s_clamp, (int2)(-1, 0)),
            (float4)(0.0f, 0.0f, 0.0f, 1.0f)),
        25);
  CHECK(eq4(read_imagef(zero_r, s_edge, (int2)(5, 5)),
            (float4)(0.0f, 0.0f, 0.0f, 1.0f)),
        26);
  CHECK(eq4(read_imagef(zero_r, s_clamp_norm, (float2)(1.25f, 0.5f)),
            (float4)(0.0f, 0.0f, 0.0f, 1.0f)),
        27);
  CHECK(eq4(read_imagef(zero_rgba_float, s_clamp, (int2)(-1, -1)),
            (float4)(0.0f)),
        28);
  CHECK(eq4(read_imagef(zero_rgba_float, s_clamp_norm, (float2)(0.5f, -0.75f)),
            (float4)(0.0f)),
        29);
  CHECK(eq4(read_imagef(zero_a, s_clamp, (int2)(2, 0)), (float4)(0.0f)), 30);
  CHECK(eq4(read_imagef(zero_a, p0), (float4)(0.0f)), 31);
  CHECK(
      eqi4(read_imagei(zero_r_int, s_clamp, (int2)(9, 9)), (int4)(0, 0, 0, 1)),
      32);
  CHECK(eqi4(read_imagei(zero_r_int, p0), (int4)(0, 0, 0, 1)), 33);
  if (err[0] == 0) printf("PASS conformance_images\n");
}
