// generators/transform/facts.h — what is known about a module and its test
// case, beyond what the module says (spirv-fuzz's fact manager, for kernels).
//
// Contract: facts are true for the test case's inputs. Initial facts come
// from the module and the test case (kernel arguments whose values are known,
// read-only input buffers); transformations add facts when they apply, in a
// deterministic order, so replaying a log rebuilds the same facts. A fact
// about an id that a later change removed is harmless: every query checks
// the id is still defined where it matters.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"

namespace l0spv::generators::transform {

// A kernel buffer argument the kernel never writes: its contents are the
// test case's input bytes for the whole run.
struct InputBuffer {
  uint32_t param_id = 0;  // OpFunctionParameter of the entry point
  size_t arg_index = 0;   // index into TestCase::args
  uint32_t storage_class = 0;
  const std::vector<uint8_t>* bytes = nullptr;  // owned by the TestCase
};

// A by-value integer kernel argument: its value is known.
struct KnownScalar {
  uint32_t param_id = 0;
  uint32_t type_id = 0;  // OpTypeInt
  uint32_t width = 0;
  uint64_t value = 0;  // zero-extended
};

class FactManager {
 public:
  // Blocks that no work-item executes on the test case's inputs.
  void AddDeadBlock(uint32_t label) { dead_blocks_.insert(label); }
  bool IsDeadBlock(uint32_t label) const {
    return dead_blocks_.contains(label);
  }

  // `a` and `b` hold the same value wherever both are available.
  void AddSynonym(uint32_t a, uint32_t b);
  // Every id known equal to `id`, `id` excluded, in insertion order.
  std::vector<uint32_t> SynonymsOf(uint32_t id) const;
  bool AreSynonyms(uint32_t a, uint32_t b) const;
  // Ids that have at least one synonym, sorted.
  std::vector<uint32_t> IdsWithSynonyms() const;

  // Ids whose value does not influence any result.
  void AddIrrelevantId(uint32_t id) { irrelevant_ids_.insert(id); }
  bool IsIrrelevantId(uint32_t id) const {
    return irrelevant_ids_.contains(id);
  }

  // Pointers (variables) whose pointee never influences any result: any
  // value may be stored there.
  void AddIrrelevantPointee(uint32_t id) { irrelevant_pointees_.push_back(id); }
  bool IsIrrelevantPointee(uint32_t id) const;
  const std::vector<uint32_t>& irrelevant_pointees() const {
    return irrelevant_pointees_;
  }

  // Functions a call may be added to from anywhere without changing a
  // result: no stores to memory the caller can see, no barriers, no atomics.
  void AddLiveSafeFunction(uint32_t id) { live_safe_.insert(id); }
  bool IsLiveSafeFunction(uint32_t id) const { return live_safe_.contains(id); }

  std::vector<InputBuffer>& input_buffers() { return input_buffers_; }
  const std::vector<InputBuffer>& input_buffers() const {
    return input_buffers_;
  }
  std::vector<KnownScalar>& known_scalars() { return known_scalars_; }
  const std::vector<KnownScalar>& known_scalars() const {
    return known_scalars_;
  }

 private:
  uint32_t Find(uint32_t id) const;

  absl::flat_hash_set<uint32_t> dead_blocks_;
  // Synonym classes: id → class index; classes keep insertion order so that
  // choices drawn from them are deterministic.
  absl::flat_hash_map<uint32_t, uint32_t> class_of_;
  std::vector<std::vector<uint32_t>> classes_;
  absl::flat_hash_set<uint32_t> irrelevant_ids_;
  std::vector<uint32_t> irrelevant_pointees_;
  absl::flat_hash_set<uint32_t> live_safe_;
  std::vector<InputBuffer> input_buffers_;
  std::vector<KnownScalar> known_scalars_;
};

}  // namespace l0spv::generators::transform
