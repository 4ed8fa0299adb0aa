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

// Whether a module valid for `profile` may contain the opcode: its version
// range covers one the profile reads, one of its capabilities (if it lists
// any) is in the profile or enabled by one of the profile's extensions, and
// one of its extensions (if it lists any) is the profile's.
bool Usable(const spirv::OpcodeInfo& info,
            const oracles::DeviceProfile& profile) {
  const std::string_view cls = info.instr_class;
  if (cls == "@exclude" || cls == "Reserved") return false;
  if (info.min_version > profile.max_spirv_version) return false;
  if (info.last_version < 0x00010000) return false;
  if (!info.capabilities.empty()) {
    bool any = false;
    for (uint32_t c : info.capabilities) {
      const auto cap = static_cast<spv::Capability>(c);
      any = any || profile.HasCapability(cap);
      for (const oracles::ProfileExtension& e : profile.extensions)
        any = any || std::find(e.capabilities.begin(), e.capabilities.end(),
                               cap) != e.capabilities.end();
    }
    if (!any) return false;
  }
  if (!info.extensions.empty()) {
    bool any = false;
    for (const char* e : info.extensions)
      any = any || profile.FindExtension(e) != nullptr;
    if (!any) return false;
  }
  return true;
}

bool IsImageOpcode(const spirv::OpcodeInfo& info) {
  if (std::string_view(info.instr_class) == "Image") return true;
  // OpImageTexelPointer, OpSubgroupImageBlockReadINTEL, ...
  if (std::string_view(info.name).find("Image") != std::string_view::npos)
    return true;
  switch (static_cast<spv::Op>(info.opcode)) {
    case spv::Op::OpTypeImage:
    case spv::Op::OpTypeSampler:
    case spv::Op::OpTypeSampledImage:
    case spv::Op::OpConstantSampler:
      return true;
    default:
      return false;
  }
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

std::string OpcodeStats::CoverageText(
    const oracles::DeviceProfile& profile) const {
  std::string out = absl::StrFormat(
      "coverage on profile '%s' over %u module(s)\n\n%-40s %-24s %8s\n",
      profile.name, modules(), "usable core opcode", "class", "modules");
  uint64_t usable = 0, generated = 0, images = 0, images_generated = 0;
  std::vector<std::string> missing;
  for (const spirv::OpcodeInfo& info : spirv::AllOpcodes()) {
    if (!Usable(info, profile)) continue;
    auto it = opcodes_.find(info.opcode);
    const uint64_t n = it == opcodes_.end() ? 0 : it->second.modules;
    out += absl::StrFormat("%-40s %-24s %8u\n", info.name, info.instr_class, n);
    if (IsImageOpcode(info)) {
      ++images;
      if (n != 0) ++images_generated;
      continue;
    }
    ++usable;
    if (n != 0) {
      ++generated;
    } else {
      missing.push_back(info.name);
    }
  }
  uint64_t ext_generated = 0;
  std::vector<std::string> ext_missing;
  out += absl::StrFormat("\n%-40s %8s\n", "OpenCL.std instruction", "modules");
  for (const spirv::ExtInstInfo& info : spirv::AllOpenClStd()) {
    auto it = ext_insts_.find(info.number);
    const uint64_t n = it == ext_insts_.end() ? 0 : it->second.modules;
    out += absl::StrFormat("%-40s %8u\n", info.name, n);
    if (n != 0) {
      ++ext_generated;
    } else {
      ext_missing.push_back(info.name);
    }
  }
  const auto percent = [](uint64_t a, uint64_t b) {
    return b == 0 ? 100.0 : 100.0 * static_cast<double>(a) / b;
  };
  out += absl::StrFormat(
      "\ncore opcodes outside images: %u of %u usable generated (%.1f%%)\n"
      "image opcodes: %u of %u usable generated (%.1f%%)\n"
      "OpenCL.std: %u of %u generated (%.1f%%)\n",
      generated, usable, percent(generated, usable), images_generated, images,
      percent(images_generated, images), ext_generated,
      spirv::AllOpenClStd().size(),
      percent(ext_generated, spirv::AllOpenClStd().size()));
  out += "never generated (core, outside images):";
  for (const std::string& name : missing) out += " " + name;
  out += "\nnever generated (OpenCL.std):";
  for (const std::string& name : ext_missing) out += " " + name;
  out += "\n";
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
