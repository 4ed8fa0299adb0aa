#include "generators/kernel/opcode_stats.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "spirv/binary.h"
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

namespace {
// Instruction count per opcode, and the OpenCL.std instructions present.
struct ModuleOpcodes {
  std::map<uint32_t, uint64_t> opcodes;
  std::map<uint32_t, uint64_t> ext_insts;
  uint64_t size = 0;
};
ModuleOpcodes CountOpcodes(const spirv::Module& module) {
  ModuleOpcodes counts;
  const uint32_t std_set = module.OpenClStdImportId();
  module.ForEachInstruction([&](const spirv::Instruction& inst) {
    ++counts.size;
    ++counts.opcodes[inst.opcode()];
    if (inst.opcode() == static_cast<uint32_t>(spv::Op::OpExtInst) &&
        inst.NumOperands() >= 2 && inst.word(0) == std_set)
      ++counts.ext_insts[inst.word(1)];
  });
  return counts;
}
}  // namespace

void OpcodeStats::Add(const spirv::Module& module) {
  const ModuleOpcodes counts = CountOpcodes(module);
  for (const auto& [op, n] : counts.opcodes) {
    ++opcodes_[op].modules;
    opcodes_[op].occurrences += n;
  }
  for (const auto& [number, n] : counts.ext_insts) {
    ++ext_insts_[number].modules;
    ext_insts_[number].occurrences += n;
  }
  sizes_.push_back(counts.size);
}

void OpcodeStats::AddChecked(const spirv::Module& module, bool lint_ok,
                             bool ref_ran) {
  checked_ = true;
  const ModuleOpcodes counts = CountOpcodes(module);
  for (const auto& [op, n] : counts.opcodes) {
    if (lint_ok) ++lint_ok_[op];
    if (ref_ran) ++ref_ran_[op];
  }
  if (ref_ran)
    for (const auto& [number, n] : counts.ext_insts) ++ext_ref_ran_[number];
}

void OpcodeStats::AddTransformed(const spirv::Module& before,
                                 const spirv::Module& after) {
  transformed_any_ = true;
  const ModuleOpcodes a = CountOpcodes(before), b = CountOpcodes(after);
  absl::flat_hash_set<uint32_t> changed;
  for (const auto& [op, n] : a.opcodes) {
    auto it = b.opcodes.find(op);
    if (it == b.opcodes.end() || it->second != n) changed.insert(op);
  }
  for (const auto& [op, n] : b.opcodes)
    if (!a.opcodes.contains(op)) changed.insert(op);
  for (uint32_t op : changed) ++transformed_[op];
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
  // A measured column prints "-" when this run did not measure it.
  const auto column = [](bool measured, const std::map<uint32_t, uint64_t>& m,
                         uint32_t key) -> std::string {
    if (!measured) return "-";
    auto it = m.find(key);
    return absl::StrCat(it == m.end() ? 0 : it->second);
  };
  std::string out = absl::StrFormat(
      "coverage on profile '%s' over %u module(s)\n"
      "gen: generated modules with it; lint / ref: modules with it (generated "
      "or transformed) lint accepted / ref ran (--check); xform: cases whose "
      "transformations created or removed it\n\n"
      "%-40s %-24s %8s %8s %8s %8s\n",
      profile.name, modules(), "usable core opcode", "class", "gen", "lint",
      "ref", "xform");
  uint64_t usable = 0, generated = 0, images = 0, images_generated = 0;
  uint64_t linted = 0, ran = 0, transformed = 0;
  std::vector<std::string> missing;
  for (const spirv::OpcodeInfo& info : spirv::AllOpcodes()) {
    if (!Usable(info, profile)) continue;
    auto it = opcodes_.find(info.opcode);
    const uint64_t n = it == opcodes_.end() ? 0 : it->second.modules;
    out += absl::StrFormat("%-40s %-24s %8u %8s %8s %8s\n", info.name,
                           info.instr_class, n,
                           column(checked_, lint_ok_, info.opcode),
                           column(checked_, ref_ran_, info.opcode),
                           column(transformed_any_, transformed_, info.opcode));
    if (IsImageOpcode(info)) {
      ++images;
      if (n != 0) ++images_generated;
      continue;
    }
    ++usable;
    linted += lint_ok_.contains(info.opcode);
    ran += ref_ran_.contains(info.opcode);
    transformed += transformed_.contains(info.opcode);
    if (n != 0) {
      ++generated;
    } else {
      missing.push_back(info.name);
    }
  }
  uint64_t ext_generated = 0, ext_ran = 0;
  std::vector<std::string> ext_missing;
  out += absl::StrFormat("\n%-40s %8s %8s\n", "OpenCL.std instruction", "gen",
                         "ref");
  for (const spirv::ExtInstInfo& info : spirv::AllOpenClStd()) {
    auto it = ext_insts_.find(info.number);
    const uint64_t n = it == ext_insts_.end() ? 0 : it->second.modules;
    out += absl::StrFormat("%-40s %8u %8s\n", info.name, n,
                           column(checked_, ext_ref_ran_, info.number));
    ext_ran += ext_ref_ran_.contains(info.number);
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
  if (checked_) {
    out += absl::StrFormat(
        "core opcodes outside images in modules lint accepted: %u, ref ran: "
        "%u of %u usable\nOpenCL.std in modules ref ran: %u of %u\n",
        linted, ran, usable, ext_ran, spirv::AllOpenClStd().size());
  }
  if (transformed_any_) {
    out += absl::StrFormat(
        "core opcodes outside images created or removed by transformations: "
        "%u of %u usable\n",
        transformed, usable);
  }
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

namespace {
// Whether an OpExtInstImport's words name "OpenCL.std" (its literal string
// starts at word 2, NUL-terminated, packed little-end first).
bool ImportsOpenClStd(std::span<const uint32_t> words) {
  constexpr std::string_view kName = "OpenCL.std";
  std::string name;
  for (size_t i = 2; i < words.size(); ++i) {
    for (int b = 0; b < 4; ++b) {
      const char c = static_cast<char>((words[i] >> (8 * b)) & 0xff);
      if (c == '\0') return name == kName;
      name.push_back(c);
    }
  }
  return false;
}
}  // namespace

void AddCoverageNames(std::span<const uint32_t> words,
                      const oracles::DeviceProfile& profile,
                      std::set<std::string>& core,
                      std::set<std::string>& opencl_std) {
  constexpr uint32_t kExtInstImport =
      static_cast<uint32_t>(spv::Op::OpExtInstImport);
  constexpr uint32_t kExtInst = static_cast<uint32_t>(spv::Op::OpExtInst);
  absl::flat_hash_set<uint32_t> opcodes, ext_insts;
  uint32_t std_set = 0;  // 0 is never a result id
  spirv::ScanInstructions(words, [&](uint32_t op, auto inst) {
    opcodes.insert(op);
    if (op == kExtInstImport && inst.size() >= 3 && ImportsOpenClStd(inst))
      std_set = inst[1];
    // OpExtInst: type, result, set, instruction.
    if (op == kExtInst && inst.size() >= 5 && inst[3] == std_set)
      ext_insts.insert(inst[4]);
    return true;
  });
  for (uint32_t op : opcodes) {
    const spirv::OpcodeInfo* info = spirv::FindOpcode(op);
    if (info != nullptr && Usable(*info, profile) && !IsImageOpcode(*info))
      core.insert(info->name);
  }
  for (uint32_t number : ext_insts) opencl_std.insert(ExtName(number));
}

}  // namespace l0spv::generators::kernel
