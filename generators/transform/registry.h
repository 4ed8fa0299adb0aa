// generators/transform/registry.h — every transformation kind.
//
// Contract: the list is fixed at build time and ordered by kind name, so a
// seed picks the same kinds in every build that has the same kinds.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "generators/transform/transformation.h"

namespace l0spv::generators::transform {

std::span<const Transformation* const> AllTransformations();
// nullptr for an unknown kind.
const Transformation* FindTransformation(std::string_view kind);
// `kind` followed by its enablers(): the kinds a run restricted to `kind`
// needs to find its opportunities. Empty for an unknown kind.
std::vector<std::string> KindAndEnablers(std::string_view kind);

}  // namespace l0spv::generators::transform
