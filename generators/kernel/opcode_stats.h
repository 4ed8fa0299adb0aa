// generators/kernel/opcode_stats.h — how often each core opcode and each
// OpenCL.std instruction appears over a set of generated modules (the
// coverage table of `l0spv-fuzz generate --stats`).
//
// Contract: Add() counts, per opcode / extended instruction, the modules
// containing it and its total occurrences; module sizes are kept for the
// median. Names come from the generated grammar tables.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "oracles/validity/device_profile.h"
#include "spirv/module.h"

namespace l0spv::generators::kernel {

class OpcodeStats {
 public:
  void Add(const spirv::Module& module);

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
  // the usable opcodes never generated.
  std::string CoverageText(const oracles::DeviceProfile& profile) const;

 private:
  struct Count {
    uint64_t modules = 0;
    uint64_t occurrences = 0;
  };
  std::map<uint32_t, Count> opcodes_;
  std::map<uint32_t, Count> ext_insts_;
  std::vector<uint64_t> sizes_;
};

}  // namespace l0spv::generators::kernel
