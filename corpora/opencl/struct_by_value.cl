// Structs passed by value as kernel arguments (ByVal pointer parameters in
// SPIR-V), including padding, 8-byte aligned members, a vector member and a
// nested struct with a char array; also struct copies into helpers.
// Host layout (little endian) is given as bytes_hex in the sidecar.
typedef struct {
  int scale;      // offset 0
  uint offset;    // 4
  float bias;     // 8
  ushort flags;   // 12
  uchar tag;      // 14, then 1 byte padding
  ulong mask;     // 16
  int2 pair;      // 24   -> sizeof 32
} Params;

typedef struct {
  char name[4];   // 0
  short v;        // 4, then 2 bytes padding
} Inner;

typedef struct {
  Inner in;       // 0
  float f;        // 8    -> sizeof 12
} Outer;

uint apply(Params p, uint x) {            // struct by value to a helper
  return x * (uint)p.scale + p.offset + (p.flags & 0xFu) + p.tag;
}

int name_sum(const __private Outer *o) {  // struct by pointer
  int s = 0;
  for (int i = 0; i < 4; i++)
    s += o->in.name[i];
  return s + o->in.v;
}

__kernel void struct_by_value(__global const uint *in, __global uint *out,
                              Params p, Outer q) {
  size_t g = get_global_id(0);
  uint x = in[g];
  Outer local_q = q;                      // private copy
  local_q.in.v = (short)(local_q.in.v + (short)(g & 7));

  __global uint *o = out + 8 * g;
  o[0] = apply(p, x);
  o[1] = as_uint(p.bias * (float)(x & 255u));
  o[2] = (uint)(p.mask >> (g & 63)) ^ (uint)(p.mask >> 32);
  o[3] = as_uint(p.pair.x * 3 + p.pair.y);
  o[4] = as_uint(name_sum(&local_q));
  o[5] = as_uint(q.f + 1.0f);
  o[6] = (uint)q.in.name[0] | ((uint)q.in.name[2] << 8) | ((uint)p.flags << 16);
  o[7] = (uint)sizeof(Params) | ((uint)sizeof(Outer) << 8);
}
