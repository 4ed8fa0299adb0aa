#include "generators/transform/registry.h"

#include <algorithm>
#include <vector>

#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {

std::span<const Transformation* const> AllTransformations() {
  static const std::vector<const Transformation*>* all = [] {
    auto* v = new std::vector<const Transformation*>(AllKinds());
    std::sort(v->begin(), v->end(),
              [](const Transformation* a, const Transformation* b) {
                return a->kind() < b->kind();
              });
    return v;
  }();
  return *all;
}

const Transformation* FindTransformation(std::string_view kind) {
  for (const Transformation* t : AllTransformations())
    if (t->kind() == kind) return t;
  return nullptr;
}

std::vector<std::string> KindAndEnablers(std::string_view kind) {
  const Transformation* t = FindTransformation(kind);
  if (t == nullptr) return {};
  std::vector<std::string> kinds{std::string(kind)};
  for (std::string_view e : t->enablers()) kinds.emplace_back(e);
  return kinds;
}

}  // namespace l0spv::generators::transform
