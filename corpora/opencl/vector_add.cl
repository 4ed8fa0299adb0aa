// Element-wise float addition c = a + b.
// Exercises: get_global_id, global loads/stores, a bounds guard for launches
// whose global size exceeds n (the sidecar uses a non-uniform work-group
// split: 1000 work-items in groups of 64, so the last group has 40 items).
__kernel void vector_add(__global const float *a, __global const float *b,
                         __global float *c, uint n) {
  size_t gid = get_global_id(0);
  if (gid < n)
    c[gid] = a[gid] + b[gid];
}
