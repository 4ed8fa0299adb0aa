// oracles/compare/float_bits.h — raw-bit helpers for comparing float
// elements of f16/f32/f64 buffers (internal to oracles/compare).
//
// Contract: pure functions on little-endian element bytes; no UB for any
// bit pattern (NaN, Inf, denormals).
#pragma once

#include <cstdint>
#include <string>

#include "oracles/compare/compare.h"

namespace l0spv::oracles::compare_internal {

// Reads one element of `type` at `p` (little-endian) as raw bits.
uint64_t LoadBits(FloatType type, const uint8_t* p);
bool IsNan(FloatType type, uint64_t bits);
// The value as a double (exact for all three types).
double ToDouble(FloatType type, uint64_t bits);
// "1.25 (0x3fa00000)".
std::string Describe(FloatType type, uint64_t bits);

}  // namespace l0spv::oracles::compare_internal
