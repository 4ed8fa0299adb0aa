#include "spirv/kernel_batch.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "spirv/binary.h"
#include "spirv/grammar.h"
#include "spirv/ir_edit.h"
#include "spirv/link.h"
#include "spirv/type_table.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::spirv {
namespace {

// "1.4" for a version word (0x00010400); "the newest" for no bound.
std::string VersionName(uint32_t word) {
  if (word == ~0u) return "the newest";
  return absl::StrCat((word >> 16) & 0xff, ".", (word >> 8) & 0xff);
}

// Renames the entry point `from` (and its function's OpName) to `to`.
absl::Status RenameEntryPoint(Module& module, const std::string& from,
                              const std::string& to) {
  const uint32_t function = module.KernelEntryPointId(from);
  if (function == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("no Kernel entry point named '", from, "'"));
  }
  for (Instruction& ep : module.entry_points) {
    if (ep.NumOperands() > 2 && ep.operand(1).AsId() == function &&
        ep.operand(2).AsString() == from)
      ep.mutable_operands()[2] = StringOperand(to);
  }
  for (Instruction& name : module.debug_names) {
    if (Is(name, spv::Op::OpName) && name.NumOperands() > 1 &&
        name.operand(0).AsId() == function)
      name.mutable_operands()[1] = StringOperand(to);
  }
  return absl::OkStatus();
}

// Merges module-scope variables of one built-in and one type into the
// first: each case brought its own, and a front end declares one.
void MergeBuiltInVariables(Module& module) {
  const std::map<uint32_t, uint32_t> builtin_of = BuiltInDecorations(module);
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> first;  // (builtin, type)
  std::map<uint32_t, uint32_t> merged;                      // dup -> kept
  for (const Instruction& v : module.types_values) {
    if (!Is(v, spv::Op::OpVariable)) continue;
    auto b = builtin_of.find(v.result_id());
    if (b == builtin_of.end()) continue;
    auto [it, inserted] =
        first.emplace(std::make_pair(b->second, v.type_id()), v.result_id());
    if (!inserted) merged[v.result_id()] = it->second;
  }
  if (merged.empty()) return;
  std::erase_if(module.types_values, [&](const Instruction& i) {
    return merged.count(i.result_id()) != 0;
  });
  // Decorations and names of a merged variable go; the kept one has its own.
  const auto about_merged = [&](const Instruction& i) {
    return merged.count(AnnotatedId(i)) != 0;
  };
  std::erase_if(module.annotations, about_merged);
  std::erase_if(module.debug_names, about_merged);
  ReplaceAllUses(module, IdMap(merged.begin(), merged.end()));
  // An interface may now list the kept variable twice.
  for (Instruction& ep : module.entry_points) {
    std::set<uint32_t> seen;
    auto& ops = ep.mutable_operands();
    std::vector<Operand> kept_ops(
        ops.begin(), ops.begin() + std::min<size_t>(3, ops.size()));
    for (size_t i = 3; i < ops.size(); ++i) {
      if (seen.insert(ops[i].AsId()).second) kept_ops.push_back(ops[i]);
    }
    ops = std::move(kept_ops);
  }
}

// Whether a parameter of the module is decorated FuncParamAttr ByVal (a
// struct passed by value).
bool HasByValParameter(const Module& module) {
  for (const Instruction& a : module.annotations) {
    if (Is(a, spv::Op::OpDecorate) && a.NumOperands() > 2 &&
        a.operand(1).AsLiteral() ==
            static_cast<uint32_t>(spv::Decoration::FuncParamAttr) &&
        a.operand(2).AsLiteral() ==
            static_cast<uint32_t>(spv::FunctionParameterAttribute::ByVal))
      return true;
  }
  return false;
}

// Extensions that none of spirv-opt's extension allowlists holds (checked
// in SPIRV-Tools 2023.1, Debian 12: aggressive-dce, local-access-chain-
// convert, local-single-block-elim and local-single-store-elim keep one, and
// skip a module declaring anything outside it; no other pass names these):
// any of them, or several, turns off the same passes, so they share a key.
// The ones the generator emits; any other extension keys by its name.
bool InNoSpirvOptAllowlist(absl::string_view name) {
  static constexpr absl::string_view kUnlisted[] = {
      "SPV_EXT_shader_atomic_float16_add", "SPV_EXT_shader_atomic_float_add",
      "SPV_EXT_shader_atomic_float_min_max", "SPV_INTEL_subgroups",
      "SPV_KHR_linkonce_odr"};
  return std::find(std::begin(kUnlisted), std::end(kUnlisted), name) !=
         std::end(kUnlisted);
}

// The type `id` written structurally, so equal types of two modules read
// alike: "i32", "f16", "v8i64", "a4:i32", "p7:i32", "s{i32,f32}"; "?" for
// what it does not describe.
std::string StructuralType(const TypeTable& types, uint32_t id, int depth = 0) {
  const TypeInfo* t = types.Get(id);
  if (t == nullptr || depth > 8) return "?";
  switch (t->op) {
    case spv::Op::OpTypeBool:
      return "b";
    case spv::Op::OpTypeInt:
      return absl::StrCat("i", t->width);
    case spv::Op::OpTypeFloat:
      return absl::StrCat("f", t->width);
    case spv::Op::OpTypeVector:
      return absl::StrCat("v", t->count,
                          StructuralType(types, t->element, depth + 1));
    case spv::Op::OpTypeArray:
      return absl::StrCat("a", t->count, ":",
                          StructuralType(types, t->element, depth + 1));
    case spv::Op::OpTypePointer:
      return absl::StrCat("p", static_cast<uint32_t>(t->storage_class), ":",
                          StructuralType(types, t->element, depth + 1));
    case spv::Op::OpTypeStruct: {
      std::vector<std::string> members;
      for (uint32_t m : t->members)
        members.push_back(StructuralType(types, m, depth + 1));
      return absl::StrCat(t->packed ? "S{" : "s{", absl::StrJoin(members, ","),
                          "}");
    }
    default:
      return "?";
  }
}

// The pointee of the module's first OpGenericCastToPtrExplicit to Function
// storage, structurally; empty when it has none (or does not read).
std::string PrivateCastPointee(const std::vector<uint32_t>& words) {
  auto module = ReadModuleWords(words);
  if (!module.ok()) return "";
  const TypeTable types(*module);
  std::string pointee;
  std::as_const(*module).ForEachInstruction([&](const Instruction& inst) {
    if (!pointee.empty() || !Is(inst, spv::Op::OpGenericCastToPtrExplicit) ||
        inst.NumOperands() < 2 ||
        inst.operand(1).AsLiteral() !=
            static_cast<uint32_t>(spv::StorageClass::Function))
      return;
    const TypeInfo* pointer = types.Get(inst.type_id());
    if (pointer != nullptr) pointee = StructuralType(types, pointer->element);
  });
  return pointee;
}

}  // namespace

std::string BatchedEntryName(const std::string& entry, size_t index) {
  return absl::StrCat("b", index, "_", entry);
}

absl::StatusOr<std::vector<TestCase>> BatchKernels(
    std::span<const TestCase> cases) {
  if (cases.empty()) return absl::InvalidArgumentError("no cases to batch");
  std::vector<Module> modules;
  modules.reserve(cases.size());
  BatchFit fit;
  for (size_t i = 0; i < cases.size(); ++i) {
    const TestCase& tc = cases[i];
    const std::string which = absl::StrCat("case ", i, " of the batch");
    const BatchFit own = BatchFitOf(tc);
    if (!fit.Meets(own)) {
      return absl::InvalidArgumentError(absl::StrCat(
          which, " does not fit with the cases before it: it needs SPIR-V ",
          VersionName(own.needs), " to ", VersionName(own.allows),
          own.private_cast_pointee.empty()
              ? ""
              : absl::StrCat(" and casts to private ",
                             own.private_cast_pointee),
          "; they need ", VersionName(fit.needs), " to ",
          VersionName(fit.allows),
          fit.private_cast_pointee.empty()
              ? ""
              : absl::StrCat(" and cast to private ",
                             fit.private_cast_pointee)));
    }
    fit = fit.With(own);
    if (!tc.linked_modules.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(which, " has several modules"));
    }
    auto m = ReadModuleWords(tc.module_words);
    if (!m.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(which, ": ", m.status().message()));
    }
    if (auto s = RenameEntryPoint(*m, tc.entry_point,
                                  BatchedEntryName(tc.entry_point, i));
        !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(which, ": ", s.message()));
    }
    modules.push_back(*std::move(m));
  }
  // Kernels with a ByVal parameter go last: llvm-spirv 14's reverse
  // translation makes the group-decorated pointer parameters of a kernel
  // that follows such a kernel byval too (known-consumer-bugs/
  // llvm_spirv_group_byval: the generator's per-case gate cannot see the
  // other cases of a batch), which llvm-spirv, Oclgrind and PoCL (SPIR
  // path) then see as a wrong signature.
  std::vector<size_t> order(modules.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_partition(order.begin(), order.end(), [&](size_t i) {
    return !HasByValParameter(modules[i]);
  });
  std::vector<LinkInput> inputs;
  for (size_t i : order)
    inputs.push_back({absl::StrCat("case ", i), &modules[i]});
  auto linked = LinkModules(inputs);
  if (!linked.ok()) return linked.status();
  MergeBuiltInVariables(*linked);
  // One case's decoration group after another's decorations would make
  // llvm-spirv's reader take those into the group (llvm_spirv_group_byval).
  HoistDecorationGroups(*linked);
  linked->header.bound = linked->ComputeTightBound();
  const std::vector<uint32_t> words = EncodeModule(*linked);
  std::vector<TestCase> launches(cases.begin(), cases.end());
  for (size_t i = 0; i < launches.size(); ++i) {
    launches[i].module_words = words;
    launches[i].entry_point = BatchedEntryName(cases[i].entry_point, i);
  }
  return launches;
}

bool SharesOneModule(std::span<const TestCase> launches) {
  for (const TestCase& tc : launches.subspan(launches.empty() ? 0 : 1)) {
    if (tc.module_words != launches.front().module_words ||
        tc.linked_modules != launches.front().linked_modules)
      return false;
  }
  return true;
}

BatchFit BatchFitOf(const TestCase& test_case) {
  const std::vector<uint32_t>& words = test_case.module_words;
  BatchFit fit;
  if (words.size() > 1) fit.needs = words[1];
  bool explicit_cast = false;
  ScanInstructions(words, [&](uint32_t opcode, std::span<const uint32_t>) {
    if (const OpcodeInfo* info = FindOpcode(opcode))
      fit.allows = std::min(fit.allows, info->last_version);
    if (opcode == static_cast<uint32_t>(spv::Op::OpGenericCastToPtrExplicit))
      explicit_cast = true;
    return true;
  });
  // Rare: read the module only when it has such a cast.
  if (explicit_cast) fit.private_cast_pointee = PrivateCastPointee(words);
  return fit;
}

std::string BatchKey(const TestCase& test_case) {
  bool groups = false;
  bool unroll = false;
  std::set<std::string> extensions;
  ScanInstructions(test_case.module_words, [&](uint32_t opcode,
                                               std::span<const uint32_t> in) {
    switch (static_cast<spv::Op>(opcode)) {
      case spv::Op::OpDecorationGroup:
        groups = true;
        break;
      case spv::Op::OpLoopMerge:
        if (in.size() > 3 &&
            (in[3] & static_cast<uint32_t>(spv::LoopControlMask::Unroll)))
          unroll = true;
        break;
      case spv::Op::OpExtension: {
        const Operand literal{OperandKind::kLiteralString,
                              {in.begin() + 1, in.end()}};
        const std::string name = literal.AsString();
        extensions.insert(InNoSpirvOptAllowlist(name) ? "unlisted" : name);
        break;
      }
      default:
        break;
    }
    return true;
  });
  return absl::StrCat(groups ? "groups;" : "no-groups;",
                      unroll ? "unroll;" : "", absl::StrJoin(extensions, "/"));
}

}  // namespace l0spv::spirv
