#include "generators/transform/facts.h"

#include <algorithm>

namespace l0spv::generators::transform {

void FactManager::AddSynonym(uint32_t a, uint32_t b) {
  if (a == b) return;
  auto ia = class_of_.find(a);
  auto ib = class_of_.find(b);
  if (ia == class_of_.end() && ib == class_of_.end()) {
    const uint32_t c = static_cast<uint32_t>(classes_.size());
    classes_.push_back({a, b});
    class_of_[a] = c;
    class_of_[b] = c;
    return;
  }
  if (ia == class_of_.end()) {
    classes_[ib->second].push_back(a);
    class_of_[a] = ib->second;
    return;
  }
  if (ib == class_of_.end()) {
    classes_[ia->second].push_back(b);
    class_of_[b] = ia->second;
    return;
  }
  const uint32_t keep = ia->second, drop = ib->second;
  if (keep == drop) return;
  for (uint32_t id : classes_[drop]) {
    classes_[keep].push_back(id);
    class_of_[id] = keep;
  }
  classes_[drop].clear();
}

std::vector<uint32_t> FactManager::SynonymsOf(uint32_t id) const {
  std::vector<uint32_t> out;
  auto it = class_of_.find(id);
  if (it == class_of_.end()) return out;
  for (uint32_t other : classes_[it->second])
    if (other != id) out.push_back(other);
  return out;
}

bool FactManager::AreSynonyms(uint32_t a, uint32_t b) const {
  auto ia = class_of_.find(a);
  auto ib = class_of_.find(b);
  return ia != class_of_.end() && ib != class_of_.end() &&
         ia->second == ib->second;
}

std::vector<uint32_t> FactManager::IdsWithSynonyms() const {
  std::vector<uint32_t> out;
  for (const auto& c : classes_)
    if (c.size() > 1) out.insert(out.end(), c.begin(), c.end());
  std::sort(out.begin(), out.end());
  return out;
}

bool FactManager::IsIrrelevantPointee(uint32_t id) const {
  return std::find(irrelevant_pointees_.begin(), irrelevant_pointees_.end(),
                   id) != irrelevant_pointees_.end();
}

}  // namespace l0spv::generators::transform
