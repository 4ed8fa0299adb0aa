// OpenCL 2.0 generic address space: helpers taking unqualified pointers are
// called with __global, __local and __private pointers; a generic pointer
// chosen at run time between address spaces; to_global/to_local/to_private
// casts back (OpGenericCastToPtrExplicit) with null checks; vload4 through
// a generic pointer.
// Requires OpenCL C 2.0 (GenericPointer capability).
int sum_n(const int *p, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += p[i] & 0xFFFF;
  return s;
}

void bump(int *p, int by) { *p += by; }

int which_space(int *p) {
  if (to_global(p))
    return 1;
  if (to_local(p))
    return 2;
  if (to_private(p))
    return 3;
  return 0;
}

__kernel void generic_addrspace(__global int *gin, __global int *out) {
  __local int l[64];
  int priv[8];
  size_t g = get_global_id(0);
  uint lid = (uint)get_local_id(0);

  l[lid] = gin[g] >> 4;
  for (int i = 0; i < 8; i++)
    priv[i] = (int)g * 8 + i;
  barrier(CLK_LOCAL_MEM_FENCE);

  int sg = sum_n(&gin[(g / 4) * 4], 4);         // global
  int sl = sum_n(&l[lid & ~3u], 4);             // local
  int sp = sum_n(priv, 8);                      // private
  bump(&priv[3], 100);                          // private through generic
  barrier(CLK_LOCAL_MEM_FENCE);                 // all reads of l done
  bump(&l[lid], 1);                             // own local slot only
  barrier(CLK_LOCAL_MEM_FENCE);

  // a generic pointer whose address space depends on the work-item
  int *gp = (lid & 1u) ? (int *)&l[lid & ~7u] : (int *)&gin[g & ~7ul];
  int4 v = vload4(0, gp);                       // generic vload
  int space = which_space(gp);
  __global int *back = to_global(gp);
  __local int *lback = to_local(gp);
  int via = back ? back[0] : (lback ? lback[1] : -1);

  __global int *o = out + 8 * g;
  o[0] = sg;
  o[1] = sl;
  o[2] = sp + priv[3];
  o[3] = l[lid];
  o[4] = v.x ^ v.y ^ v.z ^ v.w;
  o[5] = space * 10 + which_space(priv) + which_space(&l[0]) * 100;
  o[6] = via;
  o[7] = which_space(&o[7]);
}
