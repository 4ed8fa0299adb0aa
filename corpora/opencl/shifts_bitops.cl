// Shifts and bitwise operators on scalars and vectors. OpenCL C masks shift
// counts to the operand width, so any count is defined; the kernel also masks
// explicitly in a few places to exercise both forms.
// Exercises: <<, >> (logical and arithmetic), &, |, ^, ~, !, &&, || with
// short-circuit side-effect-free operands, vector shifts by vector counts.
__kernel void shifts_bitops(__global const uint *in, __global uint *out) {
  size_t g = get_global_id(0);
  uint a = in[2 * g], b = in[2 * g + 1];
  int sa = as_int(a);

  uint4 va = (uint4)(a, b, a ^ b, a & b);
  uint4 vc = (uint4)(b, a, b >> 3, a >> 7); // counts use only low 5 bits
  int4 vs = as_int4(va);

  __global uint *o = out + 16 * g;
  o[0] = a << b;                 // implicit mask: count is b & 31
  o[1] = a >> (b & 31u);
  o[2] = as_uint(sa >> (b & 31u)); // arithmetic shift of a signed value
  o[3] = (a & b) | (~a & ~b);
  o[4] = a ^ (b << 16) ^ (b >> 16);
  o[5] = (uint)(!a) + ((uint)(a && b) << 1) + ((uint)(a || (b > 5u)) << 2);
  uint4 sh = (va << vc) ^ (va >> vc);
  o[6] = sh.x;
  o[7] = sh.y;
  o[8] = sh.z;
  o[9] = sh.w;
  int4 ar = vs >> as_int4(vc & 31u);
  o[10] = as_uint(ar.x ^ ar.y ^ ar.z ^ ar.w);
  ulong wide = ((ulong)a << 32) | b;
  o[11] = (uint)(wide >> (b & 63u)) ^ (uint)(wide << (a & 63u));
  ushort hs = (ushort)a;
  o[12] = (uint)(ushort)(hs << (b & 15u)) | ((uint)(ushort)(hs >> (b & 15u)) << 16);
  uchar bs = (uchar)b;
  o[13] = (uint)(uchar)(bs << (a & 7u)) | ((uint)(uchar)(bs >> (a & 7u)) << 8);
  o[14] = (a & 0x80000000u) ? ~b : b;
  o[15] = bitselect(a, b, 0x0F0F0F0Fu);
}
