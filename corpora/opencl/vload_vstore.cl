// l0spv-cl-std: CL1.2
// vloadn/vstoren (n = 2, 3, 4, 8, 16) on every address space that allows
// them: __global, __local, __private (array filled by a loop) and __constant,
// including element-aligned but vector-misaligned offsets (p + 1).
// Compiled as OpenCL C 1.2 so the named-address-space overloads are used
// (no generic pointers); see generic_addrspace.cl for the generic forms.
#define WG 32

__kernel void vload_vstore(__global const int *gin, __constant int *cin,
                           __global int *out) {
  __local int tile[WG * 16];
  __private int priv[20];
  size_t g = get_global_id(0);
  uint lid = (uint)get_local_id(0);

  // stage 16 ints per work-item in local memory
  vstore16(vload16(g, gin), lid, tile);
  for (int i = 0; i < 20; i++)
    priv[i] = gin[(g * 7 + (size_t)i * 3) % 1024] ^ i;
  barrier(CLK_LOCAL_MEM_FENCE);

  // read a neighbour's data from local memory at a misaligned offset
  uint nb = (lid + 1) % WG;
  __local const int *lp = tile + nb * 16 + 1;
  int8 l8 = vload8(0, lp);          // elements 1..8 of the neighbour
  int3 l3 = vload3(2, lp);          // elements 7..9
  int16 g16 = vload16(0, gin + g * 15 + (g & 1)); // odd g: misaligned
  int4 c4 = vload4(g & 7, cin + 1); // __constant, misaligned
  int2 p2 = vload2(3, priv + 1);    // __private, misaligned
  int3 p3 = vload3(1, priv);

  __global int *o = out + 48 * g;
  vstore8(l8, 0, o);
  vstore3(l3, 0, o + 8);
  vstore16(g16 + (int16)(1), 0, o + 11);   // misaligned global store
  vstore4(c4, 0, o + 27);
  vstore2(p2, 0, o + 31);
  vstore3(p3, 11, o + 0);                  // o[33..35]
  int16 mix = (int16)(l8, p2, c4, (int2)(l3.z, p3.x));
  vstore8(mix.lo ^ mix.hi, 0, o + 36);
  vstore4((int4)(l3, p3.y), 11, o);         // o[44..47]
}
