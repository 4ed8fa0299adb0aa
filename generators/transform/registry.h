// generators/transform/registry.h — every transformation kind.
//
// Contract: the list is fixed at build time and ordered by kind name, so a
// seed picks the same kinds in every build that has the same kinds.
#pragma once

#include <span>
#include <string_view>

#include "generators/transform/transformation.h"

namespace l0spv::transform {

std::span<const Transformation* const> AllTransformations();
// nullptr for an unknown kind.
const Transformation* FindTransformation(std::string_view kind);

}  // namespace l0spv::transform
