// KNOWN PRODUCER BUG (llvm-spirv 14): work-item functions with a dimension
// index outside 0..2. OpenCL C defines the result (1 for sizes, 0 for ids),
// but the translator lowers
//   - a constant index such as get_global_size(3) to
//     OpCompositeExtract %ulong %v3 3, which spirv-val rejects
//     ("Vector access is out of bounds, vector size is 3, but access index
//     is 3"), and
//   - a run-time index to an unguarded OpVectorExtractDynamic, whose result
//     is undefined in SPIR-V for an out-of-range index.
// Kept out of the main corpus because the produced module is invalid.
__kernel void workitem_dim_out_of_range(__global uint *out, uint dyn) {
  size_t g = get_global_id(0);
  out[4 * g + 0] = (uint)get_global_size(3);  // must be 1
  out[4 * g + 1] = (uint)get_global_id(7);    // must be 0
  out[4 * g + 2] = (uint)get_local_size(dyn); // dyn = 5 -> must be 1
  out[4 * g + 3] = (uint)get_group_id(dyn);   // dyn = 5 -> must be 0
}
