// Arrays of structs in __global memory: field loads/stores at struct
// strides, whole-struct copies, pointers to members, reversed write order.
// The struct has no padding, so whole-struct copies are fully defined.
typedef struct {
  uint key;      // 0
  ushort a;      // 4
  uchar b;       // 6
  char c;        // 7
  ulong wide;    // 8
  float f;       // 16
  uint seq;      // 20   -> sizeof 24, no padding
} Rec;

__kernel void struct_array_global(__global const Rec *recs, __global Rec *outr,
                                  __global uint *summary, uint n) {
  size_t g = get_global_id(0);
  if (g >= n)
    return;
  Rec r = recs[g];                        // whole-struct load
  Rec w;
  w.key = r.key * 2654435761u;
  w.a = (ushort)(r.a + r.b);
  w.b = as_uchar(r.c);
  w.c = (char)(r.b & 0x7F);
  w.wide = r.wide ^ ((ulong)r.key << 32);
  w.f = (float)(r.key & 0xFFFFu) * 0.5f;
  w.seq = (uint)g;
  outr[n - 1 - g] = w;                    // whole-struct store, reversed

  __global const ushort *pa = &recs[g].a; // pointer to a member
  __global const uchar *pb = (__global const uchar *)&recs[g] + 6;
  summary[2 * g] = (uint)*pa + ((uint)*pb << 16);
  summary[2 * g + 1] = (uint)((__global const uchar *)&recs[g + 1 < n ? g + 1 : g] -
                              (__global const uchar *)&recs[0]);
}
