// Self-checking conformance kernel for composite types and memory: struct
// and vector layout (SPIR 1.2 §2.1.4–2.1.5), packed structs, unions,
// swizzles, shuffles, vector relational results, vload/vstore, private,
// local and global memory, pointer arithmetic, generic pointers and
// atomics. Work-item 0 checks against hand-computed values from run-time
// inputs (in[i] == i). "FAIL <n>" per mismatch, err[0] counts them,
// "PASS conformance_types" when all hold.
#define CHECK(cond, id)          \
  do {                           \
    if (!(cond)) {               \
      printf("FAIL %d\n", (id)); \
      err[0] += 1;               \
    }                            \
  } while (0)

typedef struct {
  char c;
  int i;
  short s;
  long l;
} Mixed;  // 1 + 3 pad + 4 + 2 + 6 pad + 8 = 24 bytes

typedef struct __attribute__((packed)) {
  char c;
  int i;
} Packed;  // 5 bytes

typedef struct {
  char c;
  int3 v;  // int3 occupies 16 bytes, aligned to 16
} WithVec3;  // 32 bytes

#define offsetof(T, m) __builtin_offsetof(T, m)

typedef union {
  uint u;
  float f;
  uchar b[4];
} Pun;

int sum_through_generic(int *p, int n) {
  int s = 0;
  for (int k = 0; k < n; ++k) s += p[k];
  return s;
}

__kernel void conformance_types(__global const uint *in, __global uint *err,
                                __global uint *scratch,
                                __local uint *shared) {
  if (get_global_id(0) != 0) return;
  const uint one = in[1], two = in[2];
  // Layout.
  CHECK(sizeof(Mixed) == 24 && __alignof__(Mixed) == 8, 1);
  CHECK(offsetof(Mixed, i) == 4 && offsetof(Mixed, s) == 8, 2);
  CHECK(offsetof(Mixed, l) == 16, 3);
  CHECK(sizeof(Packed) == 5 && offsetof(Packed, i) == 1, 4);
  CHECK(sizeof(WithVec3) == 32 && offsetof(WithVec3, v) == 16, 5);
  CHECK(sizeof(int3) == 16 && sizeof(char3) == 4 && vec_step(float3) == 4, 6);
  CHECK(__alignof__(long4) == 32 && sizeof(short16) == 32, 7);
  // Structs in private memory, copied and modified.
  Mixed m = {(char)in[200], (int)in[7], (short)in[9], (long)in[255] << 40};
  Mixed copy = m;
  copy.s += (short)one;
  CHECK(m.c == -56 && m.i == 7 && m.s == 9 && copy.s == 10, 10);
  CHECK(copy.l == 0xff0000000000L, 11);
  Packed pk;
  pk.c = (char)one;
  pk.i = (int)in[100] * 1000;
  CHECK(pk.i == 100000 && pk.c == 1, 12);
  // Unions reinterpret bytes (little-endian device).
  Pun pun;
  pun.f = (float)one;
  CHECK(pun.u == 0x3f800000u && pun.b[3] == 0x3f && pun.b[0] == 0, 13);
  // Vectors: swizzles, hi/lo/even/odd, relational results.
  const int4 a = (int4)((int)in[1], (int)in[2], (int)in[3], (int)in[4]);
  CHECK(all(a.s3210 == (int4)(4, 3, 2, 1)), 20);
  CHECK(all(a.hi == (int2)(3, 4)) && all(a.lo == (int2)(1, 2)), 21);
  CHECK(all(a.even == (int2)(1, 3)) && all(a.odd == (int2)(2, 4)), 22);
  CHECK(all((a > (int4)2) == (int4)(0, 0, -1, -1)), 23);
  CHECK(all(select((int4)7, a, (int4)(0, -1, 0, -1)) == (int4)(7, 2, 7, 4)),
        24);
  CHECK(all(shuffle(a, (uint4)(3, 3, 0, 1)) == (int4)(4, 4, 1, 2)), 25);
  CHECK(all(shuffle2(a, a * 10, (uint4)(0, 4, 7, 2)) == (int4)(1, 10, 40, 3)),
        26);
  CHECK(all(convert_int4_sat((float4)(-1.5f, 3e10f, 2.5f, -3e10f)) ==
            (int4)(-1, 2147483647, 2, (int)0x80000000)),
        27);
  CHECK(all(convert_int4_rte((float4)(-1.5f, 0.5f, 2.5f, 3.5f)) ==
            (int4)(-2, 0, 2, 4)),
        28);
  CHECK(all(as_uchar4((uint)in[1] << 8) == (uchar4)(0, 1, 0, 0)), 29);
  const int8 wide = (int8)(a, a * 2);
  CHECK(wide.s7 == 8 && wide.s4 == 2 && all(wide.hi.lo == (int2)(2, 4)), 30);
  CHECK(any(a == 3) && !all(a == 3), 31);
  // vload/vstore on global, private and local memory.
  CHECK(all(vload4(1, in) == (uint4)(4, 5, 6, 7)), 40);
  uint priv[8];
  for (int k = 0; k < 8; ++k) priv[k] = in[k] * 3;
  vstore2((uint2)(in[100], in[101]), 3, priv);
  CHECK(priv[6] == 100 && priv[7] == 101 && priv[5] == 15, 41);
  vstore4((uint4)(in[9], in[8], in[7], in[6]), 0, shared);
  barrier(CLK_LOCAL_MEM_FENCE);
  CHECK(all(vload4(0, shared) == (uint4)(9, 8, 7, 6)), 42);
  CHECK(vload3(1, in).z == 5, 43);
  // Pointer arithmetic and generic pointers.
  __global const uint *p = in + 10;
  __global const uint *q = p + (int)in[5];
  CHECK(q - p == 5 && *q == 15 && q[-(int)one] == 14, 50);
  int local_ints[4] = {(int)in[1], (int)in[2], (int)in[3], (int)in[4]};
  CHECK(sum_through_generic(local_ints, 4) == 10, 51);
  CHECK(sum_through_generic((int *)(shared), 2) == 17, 52);
  // Global and local atomics (single work-item: results are exact).
  scratch[0] = in[10];
  scratch[1] = in[0];
  CHECK(atomic_add(&scratch[0], two) == 10 && scratch[0] == 12, 60);
  CHECK(atomic_cmpxchg(&scratch[0], in[12], in[99]) == 12 && scratch[0] == 99,
        61);
  CHECK(atomic_cmpxchg(&scratch[0], in[12], in[1]) == 99 && scratch[0] == 99,
        62);
  CHECK(atomic_min(&scratch[0], in[50]) == 99 && scratch[0] == 50, 63);
  CHECK(atomic_max((__global int *)&scratch[1], -(int)one) == 0 &&
            scratch[1] == 0,
        64);
  CHECK(atomic_xchg(&scratch[1], in[77]) == 0 && scratch[1] == 77, 65);
  CHECK(atomic_dec(&scratch[1]) == 77 && atomic_inc(&scratch[1]) == 76, 66);
  shared[4] = in[255];
  CHECK(atomic_and(&shared[4], in[15]) == 255 && shared[4] == 15, 67);
  CHECK(atomic_or(&shared[4], in[240]) == 15 && shared[4] == 255, 68);
  CHECK(atomic_xor(&shared[4], in[255]) == 255 && shared[4] == 0, 69);
  CHECK(atomic_sub(&shared[4], one) == 0 && shared[4] == 0xffffffffu, 70);
  if (err[0] == 0) printf("PASS conformance_types\n");
}
