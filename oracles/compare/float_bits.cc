#include "oracles/compare/float_bits.h"

#include "absl/strings/str_format.h"
#include "spirv/numeric_bits.h"

namespace l0spv::oracles {
namespace compare_internal {

uint64_t LoadBits(FloatType type, const uint8_t* p) {
  uint64_t bits = 0;
  for (size_t i = FloatTypeBytes(type); i-- > 0;) bits = (bits << 8) | p[i];
  return bits;
}

bool IsNan(FloatType type, uint64_t bits) {
  switch (type) {
    case FloatType::kF16:
      return spirv::IsHalfNan(static_cast<uint16_t>(bits));
    case FloatType::kF32:
      return spirv::IsFloatNan(static_cast<uint32_t>(bits));
    case FloatType::kF64:
      return spirv::IsDoubleNan(bits);
  }
  return false;
}

double ToDouble(FloatType type, uint64_t bits) {
  return spirv::DecodeFloat(bits,
                            static_cast<uint32_t>(FloatTypeBytes(type) * 8));
}

std::string Describe(FloatType type, uint64_t bits) {
  const int digits = static_cast<int>(FloatTypeBytes(type) * 2);
  return absl::StrFormat("%.17g (0x%0*x)", ToDouble(type, bits), digits, bits);
}

}  // namespace compare_internal

const char* FloatTypeName(FloatType type) {
  switch (type) {
    case FloatType::kF16:
      return "f16";
    case FloatType::kF32:
      return "f32";
    case FloatType::kF64:
      return "f64";
  }
  return "?";
}

size_t FloatTypeBytes(FloatType type) {
  switch (type) {
    case FloatType::kF16:
      return 2;
    case FloatType::kF32:
      return 4;
    case FloatType::kF64:
      return 8;
  }
  return 4;
}

uint64_t UlpDistance(FloatType type, uint64_t a_bits, uint64_t b_bits) {
  const int width = static_cast<int>(FloatTypeBytes(type) * 8);
  const uint64_t sign = uint64_t{1} << (width - 1);
  // Sign-magnitude → a monotonic signed integer line (as __int128 to avoid
  // overflow for f64).
  auto ordered = [sign](uint64_t bits) -> __int128 {
    const __int128 mag = static_cast<__int128>(bits & (sign - 1));
    return (bits & sign) ? -mag : mag;
  };
  const __int128 d = ordered(a_bits) - ordered(b_bits);
  const __int128 abs = d < 0 ? -d : d;
  return abs > static_cast<__int128>(UINT64_MAX) ? UINT64_MAX
                                                 : static_cast<uint64_t>(abs);
}

}  // namespace l0spv::oracles
