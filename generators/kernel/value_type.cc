#include "generators/kernel/value_type.h"

#include <vector>

namespace l0spv::generators::kernel {
namespace {

uint32_t WidthIndex(uint8_t width) {
  switch (width) {
    case 8:
      return 0;
    case 16:
      return 1;
    case 32:
      return 2;
    default:
      return 3;
  }
}

uint32_t LaneIndex(uint8_t lanes) {
  for (uint32_t i = 0; i < kLaneCounts.size(); ++i) {
    if (kLaneCounts[i] == lanes) return i;
  }
  return 0;
}

}  // namespace

uint32_t ValueType::Index() const {
  return (static_cast<uint32_t>(kind) * 4 + WidthIndex(width)) * 6 +
         LaneIndex(lanes);
}

uint32_t TypeCatalog::Id(ValueType type) {
  uint32_t& slot = ids_[type.Index()];
  if (slot != 0) return slot;
  uint32_t id = 0;
  if (type.IsVector()) {
    id = builder_.VectorType(Id(type.Element()), type.lanes);
    if (type.lanes >= 8) builder_.AddCapability(spv::Capability::Vector16);
  } else if (type.IsBool()) {
    id = builder_.BoolType();
  } else if (type.IsInt()) {
    id = builder_.IntType(type.width);
    if (type.width == 8) builder_.AddCapability(spv::Capability::Int8);
    if (type.width == 16) builder_.AddCapability(spv::Capability::Int16);
    if (type.width == 64) builder_.AddCapability(spv::Capability::Int64);
  } else {
    id = builder_.FloatType(type.width);
    if (type.width == 16) builder_.AddCapability(spv::Capability::Float16);
    if (type.width == 64) builder_.AddCapability(spv::Capability::Float64);
  }
  slot = id;
  return id;
}

uint32_t TypeCatalog::ScalarConstant(ValueType scalar, uint64_t bits) {
  if (scalar.IsBool()) return builder_.BoolConstant(bits != 0);
  return builder_.IntConstant(Id(scalar), bits);
}

uint32_t TypeCatalog::Splat(ValueType type, uint64_t bits) {
  const uint32_t element = ScalarConstant(type.Element(), bits);
  if (!type.IsVector()) return element;
  return builder_.CompositeConstant(Id(type),
                                    std::vector<uint32_t>(type.lanes, element));
}

uint32_t TypeCatalog::Constant(ValueType type,
                               std::span<const uint64_t> lane_bits) {
  if (!type.IsVector()) return ScalarConstant(type, lane_bits[0]);
  std::vector<uint32_t> lanes;
  lanes.reserve(type.lanes);
  for (uint32_t i = 0; i < type.lanes; ++i)
    lanes.push_back(ScalarConstant(type.Element(), lane_bits[i]));
  return builder_.CompositeConstant(Id(type), lanes);
}

}  // namespace l0spv::generators::kernel
