// Self-checking integer conformance kernel: work-item 0 computes results of
// every integer width from run-time inputs (in[i] == i, so nothing folds at
// compile time) and compares them with values worked out by hand from the
// OpenCL C 2.0 specification. Each mismatch prints "FAIL <n>" and counts in
// err[0]; the kernel prints "PASS conformance_int" when all hold.
#define CHECK(cond, id)          \
  do {                           \
    if (!(cond)) {               \
      printf("FAIL %d\n", (id)); \
      err[0] += 1;               \
    }                            \
  } while (0)

__kernel void conformance_int(__global const uint *in, __global uint *err) {
  if (get_global_id(0) != 0) return;
  const uint one = in[1], two = in[2], three = in[3], seven = in[7];
  // 8-bit: wrap-around, saturation, bit counting, rotation, halving adds.
  CHECK((uchar)(in[250] + in[10]) == 4, 1);
  const char m128 = (char)(in[127] + one);
  CHECK(m128 == -128, 2);
  CHECK((uchar)(m128 * (char)two) == 0, 3);
  CHECK(add_sat((char)in[100], (char)in[100]) == 127, 4);
  CHECK(sub_sat((uchar)three, (uchar)seven) == 0, 5);
  CHECK(abs_diff((char)-(char)in[100], (char)in[100]) == 200, 6);
  CHECK(clz((uchar)one) == 7, 7);
  CHECK(popcount((uchar)in[255]) == 8, 8);
  CHECK(rotate((uchar)in[129], (uchar)one) == 3, 9);
  CHECK(mul_hi((uchar)in[200], (uchar)in[200]) == 156, 10);
  CHECK(hadd((uchar)in[255], (uchar)in[255]) == 255, 11);
  CHECK(rhadd((uchar)one, (uchar)two) == 2, 12);
  CHECK(abs((char)-(char)in[5]) == 5, 13);
  // 16-bit
  const ushort h = (ushort)(in[255] * in[255]);  // 65025
  CHECK(h == 65025, 20);
  CHECK((ushort)(h + in[255] + in[255] + in[10]) == 9, 21);  // 65545 mod 2^16
  CHECK(mul_hi((short)-(short)in[200], (short)in[200]) == -1, 22);  // -40000>>16
  CHECK(add_sat((ushort)h, (ushort)h) == 65535, 23);
  CHECK(clz((ushort)in[255]) == 8, 24);
  CHECK((short)((short)-(short)in[7] >> one) == -4, 25);  // arithmetic shift
  CHECK(upsample((uchar)in[18], (uchar)in[52]) == 0x1234, 26);
  CHECK(rotate((ushort)in[1], (ushort)in[17]) == 2, 27);  // count mod 16
  // 32-bit
  const uint big = in[255] << 24;  // 0xff000000
  CHECK(big == 0xff000000u, 30);
  CHECK((int)big >> (int)seven == (int)0xfffe0000, 31);
  CHECK(big >> seven == 0x01fe0000u, 32);
  CHECK(mul_hi(big, big) == 0xfe010000u, 33);
  CHECK(mad_hi(big, two, three) == 4u, 34);  // hi(0x1fe000000)=1, +3
  CHECK(mad_sat((int)in[200], (int)in[200], (int)in[7]) == 40007, 36);
  CHECK(add_sat((int)0x7ffffff0, (int)in[100]) == 0x7fffffff, 37);
  CHECK(sub_sat((int)0x80000010, (int)in[100]) == (int)0x80000000, 38);
  CHECK(popcount(big) == 8, 39);
  CHECK(clz(one) == 31, 40);
  CHECK(ctz(in[96]) == 5, 41);
  CHECK(abs_diff((int)-(int)in[100], (int)in[50]) == 150u, 42);
  CHECK(mul24((int)in[100], (int)in[200]) == 20000, 43);
  CHECK(mad24((uint)in[100], (uint)in[100], seven) == 10007u, 44);
  CHECK((int)in[7] / -(int)in[2] == -3 && (int)in[7] % -(int)in[2] == 1, 45);
  CHECK(-(int)in[7] / (int)in[2] == -3 && -(int)in[7] % (int)in[2] == -1, 46);
  CHECK(rotate(big, (uint)in[8]) == 0x000000ffu, 47);
  CHECK(bitselect(big, ~big, in[15]) == 0xff00000fu, 48);
  CHECK(select(one, two, (int)-(int)one) == two, 49);
  CHECK(max((int)-(int)three, (int)two) == 2 && min(three, two) == 2, 50);
  CHECK(clamp((int)in[200], (int)in[10], (int)in[100]) == 100, 51);
  // 64-bit
  const ulong w = ((ulong)in[1] << 63) | in[255];
  CHECK(w == 0x80000000000000ffUL, 60);
  CHECK((long)w >> 60 == -8L, 61);
  CHECK(w >> 60 == 8UL, 62);
  CHECK(mul_hi(w, (ulong)in[4]) == 2UL, 63);
  CHECK(mul_hi((long)w, (long)in[4]) == -2L, 64);
  CHECK(popcount(w) == 9UL, 65);
  CHECK(clz((ulong)in[1]) == 63UL, 66);
  CHECK(rotate(w, (ulong)in[4]) == 0x0000000000000ff8UL, 67);
  CHECK((ulong)(w * (ulong)in[2]) == 0x1feUL, 68);
  CHECK(abs_diff((long)w, (long)in[0]) == 0x7fffffffffffff01UL, 69);
  CHECK(add_sat((long)w, (long)-(long)in[255]) == (long)0x8000000000000000UL,
        70);
  CHECK((long)-(long)in[9] / (long)in[4] == -2L &&
            (long)-(long)in[9] % (long)in[4] == -1L,
        71);
  CHECK(upsample(in[1], in[2]) == 0x100000002UL, 72);
  // Conversions between widths and signedness.
  CHECK((long)(char)in[200] == -56L, 80);
  CHECK((ulong)(uchar)in[200] == 200UL, 81);
  CHECK((int)(short)(in[255] * in[255] * in[2]) == -1022, 82);  // 130050
  CHECK(convert_uchar_sat((int)-(int)in[5]) == 0, 83);
  CHECK(convert_char_sat(in[200]) == 127, 84);
  CHECK(convert_ushort_sat((long)in[70] * (long)in[100] * in[10]) == 65535,
        85);
  CHECK(convert_int_sat((ulong)w) == 0x7fffffff, 86);
  CHECK(convert_uint_sat((long)w) == 0u, 87);
  CHECK(as_uint((int)-(int)one) == 0xffffffffu, 88);
  if (err[0] == 0) printf("PASS conformance_int\n");
}
