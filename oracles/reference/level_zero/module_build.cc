#include "oracles/reference/level_zero/module_build.h"

#include <cstring>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "oracles/reference/decode.h"
#include "oracles/validity/device_profile.h"
#include "oracles/validity/lint.h"
#include "spirv/binary.h"
#include "spirv/link.h"
#include "spirv/module.h"
#include "spirv/type_table.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::zeref {
namespace {

BuildResult Failure(ze_result_t result, std::string log) {
  BuildResult r;
  r.result = result;
  r.log = std::move(log);
  return r;
}

// Build flags of Level Zero / OpenCL drivers. Precision-relaxing flags are
// accepted and have no effect: the reference computes exactly.
void ApplyBuildFlags(std::string_view flags, BuiltModule& out,
                     std::string& log) {
  for (absl::string_view flag :
       absl::StrSplit(absl::string_view(flags.data(), flags.size()), ' ',
                      absl::SkipWhitespace())) {
    if (flag == "-cl-denorms-are-zero") {
      out.flush_denormals = true;
    } else if (flag == "-ze-opt-disable" || flag == "-cl-opt-disable" ||
               absl::StartsWith(flag, "-ze-opt-level") ||
               flag == "-ze-opt-greater-than-4GB-buffer-required" ||
               flag == "-cl-mad-enable" || flag == "-cl-fast-relaxed-math" ||
               flag == "-cl-no-signed-zeros" ||
               flag == "-cl-unsafe-math-optimizations" ||
               flag == "-cl-finite-math-only" ||
               flag == "-cl-fp32-correctly-rounded-divide-sqrt") {
      absl::StrAppend(&log, "note: build flag ", flag,
                      " has no effect on the l0spv reference device (it "
                      "always computes the reference result)\n");
    } else {
      absl::StrAppend(&log, "warning: unknown build flag ", flag, " ignored\n");
    }
  }
}

// Rewrites the default value of every specialization constant named in
// `constants`; the error names the spec id.
std::string Specialize(spirv::Module& module,
                       std::span<const SpecConstantValue> constants) {
  if (constants.empty()) return "";
  const spirv::TypeTable types(module);
  for (const SpecConstantValue& c : constants) {
    if (c.value == nullptr)
      return absl::StrCat("specialization constant ", c.id,
                          ": the value pointer is null");
    uint32_t target = 0;
    for (const spirv::Instruction& a : module.annotations) {
      if (a.opcode() == static_cast<uint32_t>(spv::Op::OpDecorate) &&
          a.NumOperands() >= 3 &&
          a.word(1) == static_cast<uint32_t>(spv::Decoration::SpecId) &&
          a.word(2) == c.id) {
        target = a.word(0);
        break;
      }
    }
    if (target == 0)
      return absl::StrCat("specialization constant id ", c.id,
                          " is not declared by the module (no OpDecorate "
                          "SpecId ",
                          c.id, ")");
    bool found = false;
    for (spirv::Instruction& inst : module.types_values) {
      if (inst.result_id() != target) continue;
      found = true;
      const auto op = static_cast<spv::Op>(inst.opcode());
      if (op == spv::Op::OpSpecConstantTrue ||
          op == spv::Op::OpSpecConstantFalse) {
        uint8_t v = 0;
        std::memcpy(&v, c.value, 1);
        inst.set_opcode(static_cast<uint32_t>(
            v ? spv::Op::OpSpecConstantTrue : spv::Op::OpSpecConstantFalse));
      } else if (op == spv::Op::OpSpecConstant && inst.NumOperands() >= 1) {
        const spirv::TypeInfo* t = types.Get(inst.type_id());
        const uint32_t width = t ? t->width : 0;
        if (width != 8 && width != 16 && width != 32 && width != 64)
          return absl::StrCat("specialization constant id ", c.id,
                              ": unsupported type width ", width);
        uint64_t bits = 0;
        std::memcpy(&bits, c.value, width / 8);
        // SPIR-V literals narrower than 32 bits: sign-extended for signed
        // integers, zero-extended otherwise.
        if (width < 32 && t->op == spv::Op::OpTypeInt && t->signedness &&
            (bits >> (width - 1)) & 1)
          bits |= ~uint64_t{0} << width;
        auto& words = inst.mutable_operands()[0].words;
        words.clear();
        words.push_back(static_cast<uint32_t>(bits));
        if (width == 64) words.push_back(static_cast<uint32_t>(bits >> 32));
      } else {
        return absl::StrCat("specialization constant id ", c.id, " decorates %",
                            target, ", which is not an OpSpecConstant");
      }
    }
    if (!found)
      return absl::StrCat("specialization constant id ", c.id, " decorates %",
                          target, ", which is not a constant");
  }
  return "";
}

// Whether type `id` contains a pointer (struct members, array and vector
// elements), with a visited set so hostile type graphs terminate.
bool HoldsPointer(const spirv::TypeTable& types, uint32_t id,
                  absl::flat_hash_set<uint32_t>& seen) {
  if (!seen.insert(id).second) return false;
  const spirv::TypeInfo* t = types.Get(id);
  if (t == nullptr) return false;
  switch (t->op) {
    case spv::Op::OpTypePointer:
      return true;
    case spv::Op::OpTypeArray:
    case spv::Op::OpTypeRuntimeArray:
    case spv::Op::OpTypeVector:
      return HoldsPointer(types, t->element, seen);
    case spv::Op::OpTypeStruct:
      for (uint32_t m : t->members)
        if (HoldsPointer(types, m, seen)) return true;
      return false;
    default:
      return false;
  }
}

}  // namespace

const KernelInfo* BuiltModule::FindKernel(std::string_view name) const {
  for (const KernelInfo& k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

BuildResult BuildModule(std::span<const uint32_t> words,
                        std::string_view build_flags,
                        std::span<const SpecConstantValue> constants) {
  auto out = std::make_shared<BuiltModule>();
  std::string log;
  ApplyBuildFlags(build_flags, *out, log);

  auto module = spirv::ReadModuleWords(words);
  if (!module.ok())
    return Failure(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE,
                   absl::StrCat(log, "error: not a SPIR-V module: ",
                                module.status().message(), "\n"));
  if (std::string err = Specialize(*module, constants); !err.empty())
    return Failure(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE,
                   absl::StrCat(log, "error: ", err, "\n"));

  auto profile = oracles::FindDeviceProfile("full");
  if (!profile.ok())
    return Failure(
        ZE_RESULT_ERROR_UNKNOWN,
        absl::StrCat("internal error: ", profile.status().message(), "\n"));
  const oracles::LintReport lint = oracles::LintModule(*module, *profile);
  if (!lint.ok())
    return Failure(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE,
                   absl::StrCat(log,
                                "error: the module is not valid for a Level "
                                "Zero device (profile full):\n",
                                lint.ToText()));

  const spirv::TypeTable types(*module);
  for (const spirv::Instruction& a : module->annotations) {
    if (a.opcode() == static_cast<uint32_t>(spv::Op::OpDecorate) &&
        a.NumOperands() >= 2 &&
        a.word(1) ==
            static_cast<uint32_t>(spv::Decoration::LinkageAttributes) &&
        a.operands().back().AsLiteral() ==
            static_cast<uint32_t>(spv::LinkageType::Import))
      out->has_imports = true;
  }
  for (const spirv::Instruction& ep : module->entry_points) {
    if (ep.NumOperands() < 3 ||
        ep.word(0) != static_cast<uint32_t>(spv::ExecutionModel::Kernel))
      continue;
    KernelInfo k;
    k.name = ep.operand(2).AsString();
    const uint32_t fn_id = ep.word(1);
    auto prog = oracles::reference::Decode(*module, k.name);
    if (!prog.ok()) {
      // A valid module the interpreter cannot run is a feature this device
      // lacks, not a broken module: ZE_RESULT_ERROR_UNSUPPORTED_FEATURE lets
      // the gpu target say `unsupported` like `ref` does.
      return Failure(
          prog.status().code() == absl::StatusCode::kUnimplemented
              ? ZE_RESULT_ERROR_UNSUPPORTED_FEATURE
              : ZE_RESULT_ERROR_MODULE_BUILD_FAILURE,
          absl::StrCat(log, "error: kernel ", k.name, ": ",
                       prog.status().code() == absl::StatusCode::kUnimplemented
                           ? "unsupported by the l0spv reference device: "
                           : "",
                       prog.status().message(), "\n"));
    }
    for (const std::string& m : prog->messages)
      absl::StrAppend(&log, "warning: kernel ", k.name, ": ", m,
                      " (a launch that reaches it stops as unsupported)\n");
    for (int d = 0; d < 3; ++d)
      k.required_group_size[d] = prog->reqd_local_size[d];
    if (k.required_group_size[0] != 0)
      for (int d = 1; d < 3; ++d)
        k.required_group_size[d] = std::max(1u, k.required_group_size[d]);
    for (const auto& a : prog->static_allocs)
      if (a.kind == oracles::reference::AllocKind::kWorkgroupVariable)
        k.local_memory_bytes += static_cast<uint32_t>(a.bytes);
    for (const spirv::Instruction& em : module->execution_modes) {
      if (em.NumOperands() >= 3 && em.word(0) == fn_id &&
          em.word(1) == static_cast<uint32_t>(spv::ExecutionMode::SubgroupSize))
        k.required_subgroup_size = em.word(2);
    }
    const spirv::Function* fn = module->FindFunction(fn_id);
    for (size_t i = 0; i < prog->params.size(); ++i) {
      const auto& p = prog->params[i];
      KernelArgInfo arg;
      using PK = oracles::reference::KernelParam::Kind;
      switch (p.kind) {
        case PK::kBuffer: {
          arg.kind = KernelArgInfo::Kind::kBuffer;
          const spirv::TypeInfo* t =
              fn && i < fn->parameters.size()
                  ? types.Get(fn->parameters[i].type_id())
                  : nullptr;
          absl::flat_hash_set<uint32_t> seen;
          arg.pointee_holds_pointer = t && t->op == spv::Op::OpTypePointer &&
                                      HoldsPointer(types, t->element, seen);
          break;
        }
        case PK::kLocal:
          arg.kind = KernelArgInfo::Kind::kLocal;
          break;
        case PK::kValue:
        case PK::kByValuePointer:
          arg.kind = KernelArgInfo::Kind::kValue;
          arg.value_bytes = p.bytes;
          break;
        case PK::kImage: {
          arg.kind = KernelArgInfo::Kind::kImage;
          // The decoder keeps the OpTypeImage's Dim, Arrayed and access
          // qualifier; the bound image must have that dimensionality.
          switch (static_cast<spv::Dim>(p.image_dim)) {
            case spv::Dim::Dim1D:
              arg.image_dim = p.image_arrayed ? spirv::ImageDim::k1DArray
                                              : spirv::ImageDim::k1D;
              break;
            case spv::Dim::Dim3D:
              arg.image_dim = spirv::ImageDim::k3D;
              break;
            case spv::Dim::Buffer:
              arg.image_dim = spirv::ImageDim::k1DBuffer;
              break;
            default:
              arg.image_dim = p.image_arrayed ? spirv::ImageDim::k2DArray
                                              : spirv::ImageDim::k2D;
              break;
          }
          if (p.image_access <= 2)
            arg.image_access = static_cast<spirv::ImageAccess>(p.image_access);
          break;
        }
        case PK::kSampler:
          arg.kind = KernelArgInfo::Kind::kSampler;
          break;
      }
      k.args.push_back(arg);
    }
    out->kernels.push_back(std::move(k));
  }
  out->words = spirv::EncodeModule(*module);
  BuildResult r;
  r.module = std::move(out);
  r.log = std::move(log);
  return r;
}

BuildResult LinkBuiltModules(std::span<const BuiltModule* const> modules) {
  std::vector<spirv::Module> parsed;
  parsed.reserve(modules.size());
  std::vector<spirv::LinkInput> inputs;
  for (size_t i = 0; i < modules.size(); ++i) {
    auto m = spirv::ReadModuleWords(modules[i]->words);
    if (!m.ok())
      return Failure(
          ZE_RESULT_ERROR_MODULE_LINK_FAILURE,
          absl::StrCat("error: module ", i, ": ", m.status().message(), "\n"));
    parsed.push_back(*std::move(m));
    inputs.push_back({absl::StrCat("module ", i), &parsed.back()});
  }
  auto linked = spirv::LinkModules(inputs);
  if (!linked.ok())
    return Failure(ZE_RESULT_ERROR_MODULE_LINK_FAILURE,
                   absl::StrCat("error: ", linked.status().message(), "\n"));
  const std::vector<uint32_t> words = spirv::EncodeModule(*linked);
  BuildResult built = BuildModule(
      words,
      !modules.empty() && modules[0]->flush_denormals ? "-cl-denorms-are-zero"
                                                      : "",
      {});
  if (built.result != ZE_RESULT_SUCCESS) {
    built.result = ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
    built.log =
        absl::StrCat("error: the linked program does not build:\n", built.log);
  }
  return built;
}

}  // namespace l0spv::zeref
