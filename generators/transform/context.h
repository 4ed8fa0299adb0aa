// generators/transform/context.h — the module being transformed, its test
// case, facts, analyses and fresh ids, shared by every transformation (the
// IRContext of SPIRV-Tools' source/opt, for kernels).
//
// Contract:
//  - Analyses (definitions, types, dominators) are built on demand and
//    dropped by Invalidate(); the engine invalidates after every applied
//    transformation, so a transformation may edit the Module freely.
//  - InstPos values are positions, valid until the next edit. Records name
//    instructions with InstDescriptor instead, which survives unrelated edits
//    (a later transformation still finds its instruction when an earlier
//    one was removed from the log).
//  - NewId() is the only source of new ids (the ModuleBuilder is routed
//    through it): while recording, ids come from the header bound and are
//    remembered; while replaying, from the record's list, then from an
//    overflow range above every id of the log. Either way the header bound
//    stays above every id.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "generators/transform/facts.h"
#include "nlohmann/json.hpp"
#include "spirv/builder.h"
#include "spirv/cfg.h"
#include "spirv/module.h"
#include "spirv/test_case.h"
#include "spirv/type_table.h"

namespace l0spv::generators::transform {

// Where an instruction is now: functions[function].blocks[block]
// .instructions[index].
struct InstPos {
  size_t function = 0;
  size_t block = 0;
  size_t index = 0;
  friend bool operator==(const InstPos&, const InstPos&) = default;
};

// Names an instruction the way spirv-fuzz does: the `skip`-th instruction
// with `opcode` at or after the instruction whose result id is `base` (or
// after the label, when `base` is a block's label), in base's block.
struct InstDescriptor {
  uint32_t base = 0;
  uint32_t opcode = 0;
  uint32_t skip = 0;
};
nlohmann::json ToJson(const InstDescriptor& d);
// InvalidArgument when `j` is not {"base","opcode","skip"} of integers.
absl::StatusOr<InstDescriptor> InstDescriptorFromJson(const nlohmann::json& j);

// Where an id is defined.
struct DefSite {
  int32_t function = -1;  // -1: module scope
  uint32_t block = 0;     // label of the defining block; 0 for parameters
                          // and OpFunction
  size_t block_index = 0;
  size_t index = 0;  // position in the block (labels: 0, params: param #)
  uint32_t opcode = 0;
  uint32_t type_id = 0;
  bool is_label = false;
};

// Successors, predecessors, reachability and dominators of one function
// (spirv/cfg.h); the context caches one per function.
using Dominators = spirv::Cfg;

class TransformContext {
 public:
  TransformContext(spirv::Module& module, const spirv::TestCase& test_case);

  spirv::Module& module() { return module_; }
  const spirv::TestCase& test_case() const { return test_case_; }
  FactManager& facts() { return facts_; }

  // The entry point's function index in module().functions, or -1.
  int32_t entry_function() const { return entry_function_; }

  // Analyses.
  const DefSite* Def(uint32_t id);
  const spirv::TypeTable& types();
  spirv::ModuleBuilder& builder();
  const Dominators& dominators(size_t function);
  void Invalidate();
  // Kinds add types and constants only through builder(); one that edits
  // the types/values section by hand (e.g. a spec constant) calls this.
  void ResetBuilder();

  // Fresh ids.
  uint32_t NewId();
  void BeginRecording(std::vector<uint32_t>* out);
  void BeginReplaying(std::span<const uint32_t> ids, uint32_t* overflow_next);
  void EndIds();

  // Lookups.
  std::optional<InstPos> Find(const InstDescriptor& d);
  InstDescriptor Describe(const InstPos& pos);
  spirv::Instruction& At(const InstPos& pos);
  // Position of the instruction defining `id` in a block, or nullopt (module
  // scope, parameters, labels, unknown ids).
  std::optional<InstPos> PosOfDef(uint32_t id);
  spirv::BasicBlock& BlockAt(const InstPos& pos) {
    return module_.functions[pos.function].blocks[pos.block];
  }
  // (function, block) of a label.
  std::optional<std::pair<size_t, size_t>> FindBlock(uint32_t label);
  // Whether `id` may be an operand of a (non-phi) instruction placed at
  // `pos` (before the instruction now there): a module-scope id, a parameter
  // of that function, or defined earlier in the block or in a block that
  // strictly dominates it. Blocks unreachable from the entry never qualify.
  bool IsAvailableAt(uint32_t id, const InstPos& pos);
  // First index of a block where ordinary instructions may go: after the
  // label's OpPhi and (in an entry block) OpVariable instructions.
  static size_t FirstInsertionIndex(const spirv::BasicBlock& block);
  // Index before which instructions go at the end of a block: before the
  // terminator and its OpSelectionMerge/OpLoopMerge.
  static size_t LastInsertionIndex(const spirv::BasicBlock& block);
  // The id of a scalar/vector type of this kind and width, created on need.
  uint32_t TypeOf(uint32_t id);  // type id of a value id (0 if none)

 private:
  void BuildDefs();
  void ComputeInitialFacts();

  spirv::Module& module_;
  const spirv::TestCase& test_case_;
  FactManager facts_;
  int32_t entry_function_ = -1;

  bool defs_built_ = false;
  // Indexed by id (ids are below the header bound, which replay caps);
  // opcode 0 = not defined.
  std::vector<DefSite> defs_;
  std::unique_ptr<spirv::TypeTable> types_;
  std::unique_ptr<spirv::ModuleBuilder> builder_;
  size_t types_size_ = 0, annotations_size_ = 0;
  struct CachedDominators {
    std::unique_ptr<Dominators> tree;
    uint64_t fingerprint = 0;
  };
  absl::flat_hash_map<size_t, CachedDominators> dominators_;

  std::vector<uint32_t>* recording_ = nullptr;
  std::span<const uint32_t> replay_ids_;
  size_t replay_next_ = 0;
  uint32_t* overflow_next_ = nullptr;
};

}  // namespace l0spv::generators::transform
