// Unions and pointer casts: type punning through a union (float/uint/bytes),
// reading a __global uint buffer through a uchar pointer (byte order is
// little endian on every target we use: checked via the union), pointer
// arithmetic and differences, pointer comparison, walking a buffer with an
// incremented pointer, and alignment checks via uintptr_t (only the low bits
// are observed, never absolute addresses).
typedef union {
  float f;
  uint u;
  uchar b[4];
  ushort h[2];
} Pun;

__kernel void unions_ptrcast(__global const uint *in, __global uint *out) {
  size_t g = get_global_id(0);
  Pun p;
  p.u = in[g];
  uint bytes_sum = (uint)p.b[0] + p.b[1] + p.b[2] + p.b[3];
  uint halves = (uint)p.h[0] ^ ((uint)p.h[1] << 3);
  p.b[3] = 0x3F;                           // rewrite one byte of the float
  uint fixed_bits = p.u;                   // read back as integer only

  __global const uchar *bp = (__global const uchar *)(in + g);
  uint le = (uint)bp[0] | ((uint)bp[1] << 8) | ((uint)bp[2] << 16) |
            ((uint)bp[3] << 24);           // == in[g] on little endian

  __global const uint *start = in + (g & ~15ul);
  __global const uint *end = start + 16;
  __global const uint *q = start;
  uint walk = 0;
  while (q < end) {                        // pointer comparison
    walk += *q++ >> 28;
  }
  ptrdiff_t d = end - (in + g);            // element difference
  uint aligned = (uint)(((uintptr_t)(in + g)) & 3u); // 0: 4-byte aligned

  __global uint *o = out + 6 * g;
  o[0] = bytes_sum;
  o[1] = halves;
  o[2] = fixed_bits;
  o[3] = le ^ in[g];                       // 0
  o[4] = walk;
  o[5] = (uint)d | (aligned << 16);
}
