// Several kernels in one module sharing a helper and a __constant table; one
// kernel calls another kernel as an ordinary function (allowed in OpenCL C).
// The sidecar launches mk_pipeline; the others are extra entry points that
// consumers must parse and compile too.
__constant uint weights[4] = {3, 5, 7, 11};

uint weigh(uint x, uint k) { return x * weights[k & 3u]; }

__kernel void mk_scale(__global uint *data, uint k) {
  size_t g = get_global_id(0);
  data[g] = weigh(data[g], k);
}

__kernel void mk_offset(__global uint *data, uint off) {
  size_t g = get_global_id(0);
  data[g] += off;
}

__kernel void mk_pipeline(__global uint *data, uint k, uint off) {
  mk_scale(data, k);     // each call touches only data[get_global_id(0)]
  mk_offset(data, off);
  size_t g = get_global_id(0);
  data[g] ^= weigh(g, k + 1u);
}
