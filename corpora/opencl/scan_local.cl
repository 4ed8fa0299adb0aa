// Hillis-Steele inclusive prefix sum inside a work-group, double-buffered in
// a 2-D __local array so that every step reads one buffer and writes the other.
// Exercises: 2-D __local arrays, barriers in a loop, data-dependent reads of
// other work-items' local values.
#define WG 64

__kernel void scan_local(__global const uint *in, __global uint *out) {
  __local uint buf[2][WG];
  uint gid = (uint)get_global_id(0);
  uint lid = (uint)get_local_id(0);
  uint lsz = (uint)get_local_size(0); // must be <= WG
  int src = 0;

  buf[0][lid] = in[gid] & 0xFFFFu;
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint off = 1; off < lsz; off <<= 1) {
    uint v = buf[src][lid];
    if (lid >= off)
      v += buf[src][lid - off];
    buf[1 - src][lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    src = 1 - src;
  }

  out[gid] = buf[src][lid];
}
