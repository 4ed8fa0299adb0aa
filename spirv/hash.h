// spirv/hash.h — FNV-1a 64, the one stable hash of the project.
//
// Contract: the values are the standard FNV-1a 64-bit hash (offset basis
// 0xcbf29ce484222325, prime 0x100000001b3) and never change between builds,
// compilers or hosts: module hashes name transformation logs, finding
// directories and signatures, and tests pin them. `Fnv1a64Words` hashes
// the words' little-endian bytes, i.e. the bytes of a SPIR-V binary on
// disk, so it equals `Fnv1a64` over those bytes. Seeding (`h`) chains
// several inputs into one hash.
#pragma once

#include <cstdint>
#include <span>

#include "absl/strings/string_view.h"

namespace l0spv::spirv {

inline constexpr uint64_t kFnv1a64Offset = 0xcbf29ce484222325u;
inline constexpr uint64_t kFnv1a64Prime = 0x100000001b3u;

// One FNV-1a step with a whole value (a byte, or a wider value for
// in-memory fingerprints that are never stored).
constexpr uint64_t Fnv1a64Mix(uint64_t h, uint64_t value) {
  return (h ^ value) * kFnv1a64Prime;
}

inline uint64_t Fnv1a64(absl::string_view bytes, uint64_t h = kFnv1a64Offset) {
  for (unsigned char c : bytes) h = Fnv1a64Mix(h, c);
  return h;
}

inline uint64_t Fnv1a64Words(std::span<const uint32_t> words,
                             uint64_t h = kFnv1a64Offset) {
  for (uint32_t w : words) {
    for (int b = 0; b < 4; ++b) h = Fnv1a64Mix(h, (w >> (8 * b)) & 0xFFu);
  }
  return h;
}

}  // namespace l0spv::spirv
