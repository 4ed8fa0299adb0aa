// l0spv-cl-std: CL1.2
// Half-precision storage without cl_khr_fp16: vload_half/vloada_half and
// vstore_half/vstorea_half with every rounding mode, scalar and vector.
// The half inputs are sanitised in-kernel (no NaN/Inf bit patterns) so that
// conversions never have to propagate NaN payloads. Float inputs include
// values beyond the half range (overflow behaviour depends on the rounding
// mode) and values that land in the half denormal range.
__kernel void vload_store_half(__global const ushort *hin, __global const uint *fin,
                         __global ushort *hout, __global float *fout) {
  size_t g = get_global_id(0);
  __private ushort hb[8];
  for (int i = 0; i < 8; i++) {
    ushort h = hin[8 * g + i];
    if ((h & 0x7C00u) == 0x7C00u)       // Inf/NaN exponent -> clear it
      h &= (ushort)0x83FFu;
    hb[i] = h;
  }
  __private const half *hp = (__private const half *)hb;

  __global float *fo = fout + 16 * g;
  fo[0] = vload_half(0, hp);
  fo[1] = vload_half(5, hp);
  vstore4(vload_half4(1, hp), 1, fo);   // fo[4..7]
  vstore4(vloada_half4(0, hp), 2, fo);  // fo[8..11]
  float2 two = vload_half2(3, hp);
  fo[2] = two.x;
  fo[3] = two.y;
  vstore4(vload_half4(0, (__global const half *)(hin + 8 * g)) * 0.0f +
          (float4)(1.0f), 3, fo);       // global form; multiplied away

  // float -> half with each rounding mode
  uint r = fin[2 * g], s = fin[2 * g + 1];
  float wide = (float)((int)(r >> 8) - 0x800000) * 0x1.0p-7f; // |x| <= 65536
  float tiny = (float)((int)(s >> 8) - 0x800000) * 0x1.0p-40f; // half denormals
  __global ushort *ho = hout + 16 * g;
  __global half *hq = (__global half *)ho;
  vstore_half(wide, 0, hq);
  vstore_half_rte(wide, 1, hq);
  vstore_half_rtz(wide, 2, hq);
  vstore_half_rtp(wide, 3, hq);
  vstore_half_rtn(wide, 4, hq);
  vstore_half_rte(tiny, 5, hq);
  vstore_half_rtz(tiny, 6, hq);
  vstore_half_rtp(-tiny, 7, hq);
  vstore_half4_rtz((float4)(wide, tiny, wide * 0.5f, -wide), 2, hq); // [8..11]
  vstorea_half4_rtn((float4)(tiny, -tiny, wide * 0.25f, 1.0f), 3, hq); // [12..15]
}
