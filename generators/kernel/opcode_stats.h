// generators/kernel/opcode_stats.h — how often each core opcode and each
// OpenCL.std instruction appears over a set of generated modules (the
// coverage table of `l0spv-fuzz generate --stats`).
//
// Contract: Add() counts, per opcode / extended instruction, the modules
// containing it and its total occurrences; module sizes are kept for the
// median. Names come from the generated grammar tables.
// The coverage table's other columns are measured, not declared:
// AddChecked() records, per opcode, the modules containing it that lint
// accepted and that the reference interpreter ran to a result (generated or
// transformed modules alike); AddTransformed() records the opcodes whose
// instruction count a transformation sequence changed (it created or removed
// instructions of that opcode). Columns never fed print "-".
// AddCoverageNames() is the same count for one module by name, as a
// campaign's per-target coverage keeps it.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "oracles/validity/device_profile.h"
#include "spirv/module.h"

namespace l0spv::generators::kernel {

class OpcodeStats {
 public:
  void Add(const spirv::Module& module);
  // `module` was linted (accepted or not) and, if accepted, run on `ref`
  // (`ref_ran`: it reached a result, not `unsupported` or an error).
  void AddChecked(const spirv::Module& module, bool lint_ok, bool ref_ran);
  // `after` is `before` after a transformation sequence.
  void AddTransformed(const spirv::Module& before, const spirv::Module& after);

  size_t modules() const { return sizes_.size(); }
  size_t DistinctOpcodes() const { return opcodes_.size(); }
  size_t DistinctExtInsts() const { return ext_insts_.size(); }
  uint64_t MedianInstructions() const;

  // A table sorted by name: "name  modules  occurrences".
  std::string ToText() const;
  nlohmann::json ToJson() const;

  // The coverage table of `generate --stats --coverage`: every core opcode
  // `profile` makes usable (grammar version, capabilities and extensions;
  // reserved and excluded grammar entries left out) and every OpenCL.std
  // instruction, each with whether these modules used it; image
  // instructions are counted apart, and the lines end with the totals and
  // the usable opcodes never generated. Columns: gen (modules generated
  // with it), lint and ref (modules with it lint accepted / ref ran), xform
  // (cases whose transformations created or removed it).
  std::string CoverageText(const oracles::DeviceProfile& profile) const;

 private:
  struct Count {
    uint64_t modules = 0;
    uint64_t occurrences = 0;
  };
  std::map<uint32_t, Count> opcodes_;
  std::map<uint32_t, Count> ext_insts_;
  std::vector<uint64_t> sizes_;
  // Per opcode: modules lint accepted, modules ref ran, cases whose
  // transformations changed its count (the measured columns).
  std::map<uint32_t, uint64_t> lint_ok_, ref_ran_, transformed_;
  // Per OpenCL.std instruction: modules ref ran.
  std::map<uint32_t, uint64_t> ext_ref_ran_;
  bool checked_ = false, transformed_any_ = false;
};

// Adds to `core` the core opcodes of `words` that CoverageText counts as
// usable outside images for `profile`, and to `opencl_std` its OpenCL.std
// instructions, by name. A scan of the words, not a parse (cheap enough for
// every case of a campaign); malformed words add what precedes the fault.
void AddCoverageNames(std::span<const uint32_t> words,
                      const oracles::DeviceProfile& profile,
                      std::set<std::string>& core,
                      std::set<std::string>& opencl_std);

}  // namespace l0spv::generators::kernel
