// generators/kernel/value_type.h — the arithmetic types the generator reasons
// about (bool, int 8–64, float 16–64, and vectors of them) and their SPIR-V
// ids.
//
// Contract: a ValueType is a small value (kind, bit width, lane count).
// TypeCatalog turns it into a SPIR-V type id through the module builder, so
// every type and constant is declared once, and declares the capability a
// type needs (Int8, Int16, Int64, Float16, Float64, Vector16) the first time
// the type is used — a module never declares a capability it does not use.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "spirv/builder.h"

namespace l0spv::generators::kernel {

enum class Kind : uint8_t { kBool, kInt, kFloat };

struct ValueType {
  Kind kind = Kind::kInt;
  uint8_t width = 32;  // bits; 8 for bool (its OpenCL byte)
  uint8_t lanes = 1;   // 1 = scalar; 2, 3, 4, 8, 16

  bool IsVector() const { return lanes > 1; }
  bool IsInt() const { return kind == Kind::kInt; }
  bool IsFloat() const { return kind == Kind::kFloat; }
  bool IsBool() const { return kind == Kind::kBool; }
  ValueType Element() const { return {kind, width, 1}; }
  ValueType WithLanes(uint8_t n) const { return {kind, width, n}; }
  ValueType WithWidth(uint8_t w) const { return {kind, w, lanes}; }
  // The bool type of a comparison of this type (vector of bool for vectors).
  ValueType BoolOf() const { return {Kind::kBool, 8, lanes}; }
  // Total bits of the value in registers (vec3 counts 3 lanes).
  uint32_t Bits() const { return uint32_t{width} * lanes; }
  // Dense index (for per-type tables): kind × width × lanes.
  uint32_t Index() const;
  static constexpr uint32_t kIndexCount = 3 * 4 * 6;

  friend bool operator==(const ValueType&, const ValueType&) = default;
};

inline constexpr std::array<uint8_t, 6> kLaneCounts{1, 2, 3, 4, 8, 16};
inline constexpr std::array<uint8_t, 4> kIntWidths{8, 16, 32, 64};

inline ValueType IntT(uint8_t width, uint8_t lanes = 1) {
  return {Kind::kInt, width, lanes};
}
inline ValueType FloatT(uint8_t width, uint8_t lanes = 1) {
  return {Kind::kFloat, width, lanes};
}
inline ValueType BoolT(uint8_t lanes = 1) { return {Kind::kBool, 8, lanes}; }

class TypeCatalog {
 public:
  explicit TypeCatalog(spirv::ModuleBuilder& builder) : builder_(builder) {}

  uint32_t Id(ValueType type);
  uint32_t Void() { return builder_.VoidType(); }
  uint32_t Pointer(spv::StorageClass storage, uint32_t pointee) {
    return builder_.PointerType(storage, pointee);
  }
  uint32_t Array(uint32_t element, uint32_t length) {
    return builder_.ArrayType(element, length);
  }

  // A constant of `type` whose every lane has these raw bits (truncated to
  // the width; a bool lane is true when bits != 0).
  uint32_t Splat(ValueType type, uint64_t bits);
  // A constant with one raw-bits value per lane.
  uint32_t Constant(ValueType type, std::span<const uint64_t> lane_bits);
  uint32_t U32(uint32_t value) { return Splat(IntT(32), value); }
  uint32_t U64(uint64_t value) { return Splat(IntT(64), value); }

  spirv::ModuleBuilder& builder() { return builder_; }

 private:
  uint32_t ScalarConstant(ValueType scalar, uint64_t bits);

  spirv::ModuleBuilder& builder_;
  std::array<uint32_t, ValueType::kIndexCount> ids_{};
};

}  // namespace l0spv::generators::kernel
