#include "generators/kernel/opcode_stats.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_format.h"
#include "spirv/grammar.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::generators::kernel {

namespace {
std::string OpcodeName(uint32_t op) {
  const spirv::OpcodeInfo* info = spirv::FindOpcode(op);
  return info ? info->name : absl::StrFormat("Op%u", op);
}
std::string ExtName(uint32_t number) {
  const spirv::ExtInstInfo* info = spirv::FindOpenClStd(number);
  return info ? info->name : absl::StrFormat("ext%u", number);
}
}  // namespace

void OpcodeStats::Add(const spirv::Module& module) {
  const uint32_t std_set = module.OpenClStdImportId();
  absl::flat_hash_set<uint32_t> seen_ops, seen_ext;
  uint64_t size = 0;
  module.ForEachInstruction([&](const spirv::Instruction& inst) {
    ++size;
    ++opcodes_[inst.opcode()].occurrences;
    seen_ops.insert(inst.opcode());
    if (inst.opcode() == static_cast<uint32_t>(spv::Op::OpExtInst) &&
        inst.NumOperands() >= 2 && inst.word(0) == std_set) {
      ++ext_insts_[inst.word(1)].occurrences;
      seen_ext.insert(inst.word(1));
    }
  });
  for (uint32_t op : seen_ops) ++opcodes_[op].modules;
  for (uint32_t n : seen_ext) ++ext_insts_[n].modules;
  sizes_.push_back(size);
}

uint64_t OpcodeStats::MedianInstructions() const {
  if (sizes_.empty()) return 0;
  std::vector<uint64_t> sorted = sizes_;
  std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2,
                   sorted.end());
  return sorted[sorted.size() / 2];
}

std::string OpcodeStats::ToText() const {
  std::string out = absl::StrFormat(
      "%u module(s), median %u instructions; %u distinct core opcodes, %u "
      "distinct OpenCL.std instructions\n\n%-32s %8s %12s\n",
      modules(), MedianInstructions(), DistinctOpcodes(), DistinctExtInsts(),
      "core opcode", "modules", "occurrences");
  std::vector<std::pair<std::string, Count>> rows;
  for (const auto& [op, c] : opcodes_) rows.emplace_back(OpcodeName(op), c);
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [name, c] : rows)
    out += absl::StrFormat("%-32s %8u %12u\n", name, c.modules, c.occurrences);
  out += absl::StrFormat("\n%-32s %8s %12s\n", "OpenCL.std instruction",
                         "modules", "occurrences");
  rows.clear();
  for (const auto& [n, c] : ext_insts_) rows.emplace_back(ExtName(n), c);
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [name, c] : rows)
    out += absl::StrFormat("%-32s %8u %12u\n", name, c.modules, c.occurrences);
  return out;
}

nlohmann::json OpcodeStats::ToJson() const {
  nlohmann::json j{{"modules", modules()},
                   {"median_instructions", MedianInstructions()},
                   {"distinct_opcodes", DistinctOpcodes()},
                   {"distinct_opencl_std", DistinctExtInsts()},
                   {"opcodes", nlohmann::json::object()},
                   {"opencl_std", nlohmann::json::object()}};
  for (const auto& [op, c] : opcodes_)
    j["opcodes"][OpcodeName(op)] = {{"modules", c.modules},
                                    {"occurrences", c.occurrences}};
  for (const auto& [n, c] : ext_insts_)
    j["opencl_std"][ExtName(n)] = {{"modules", c.modules},
                                   {"occurrences", c.occurrences}};
  return j;
}

}  // namespace l0spv::generators::kernel
