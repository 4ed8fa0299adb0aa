// printf with many conversions and modifiers, only from work-item 0 so the
// output order does not depend on scheduling. All printed values are exactly
// representable, so formatted text is deterministic.
// Exercises: the OpenCL.std printf extended instruction, UniformConstant
// format strings, vector specifiers (%v4hld etc.), length modifiers.
// Without cl_khr_fp64 float arguments are not promoted to double; clang's
// -Wformat does not know that, so silence it here.
#pragma clang diagnostic ignored "-Wformat"

__constant char greeting[] = "hello";

__kernel void printf_formats(__global const int *in, __global int *out) {
  size_t g = get_global_id(0);
  out[g] = in[g] * 2;
  if (g == 0) {
    int4 v = (int4)(1, -2, 3, -4);
    float2 f2 = (float2)(0.5f, -1.25f);
    uchar4 c4 = (uchar4)(1, 2, 254, 255);
    short2 s2 = (short2)(-300, 300);
    long big = -1234567890123L;
    ulong ubig = 18446744073709551615UL;
    int rc = printf("int %d %i uint %u hex %x %X oct %o\n", -42, 7,
                    4000000000u, 0xBEEFu, 0xCAFEu, 8u);
    rc |= printf("float %f %e %E %g %G\n", 1.5f, 1234.5f, 0.00025f, 0.0001f,
                 1e20f);
    rc |= printf("str %s %s char %c pct %%\n", greeting, "world", 'Z');
    rc |= printf("vec %v4hld %v2hlf %v4hhu %v2hd\n", v, f2, c4, s2);
    rc |= printf("long %ld %lu %lx\n", big, ubig, ubig);
    rc |= printf("width [%5d] [%-5d] [%05d] [%+d] [%8.3f] [%.2e]\n", 42, 42,
                 42, 42, 3.125f, 12345.5f);
    rc |= printf("short %hd %hu char %hhd %hhu\n", (short)-5, (ushort)65535,
                 (char)-7, (uchar)200);
    out[64] = rc;  // 0 when every printf succeeded
  }
}
