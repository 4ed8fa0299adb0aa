// oracles/reference/decode.cc — Decode: the module-level driver (header,
// decorations, types and values in declaration order, functions, kernel
// parameters) and the dispatch of function-body instructions to their
// class's translator.
#include "oracles/reference/decode.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "oracles/reference/decode_state.h"
#include "spirv/grammar.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::oracles::reference {
namespace decoder {

using spv::Op;

absl::Status DecodeState::DecodeHeader() {
  if (m_.memory_model.empty() || m_.memory_model[0].NumOperands() < 2)
    return Bad("no OpMemoryModel");
  const uint32_t addressing = m_.memory_model[0].word(0);
  const uint32_t model = m_.memory_model[0].word(1);
  if (addressing != static_cast<uint32_t>(spv::AddressingModel::Physical64))
    return Unimpl(
        "reference interpreter: only the Physical64 addressing model "
        "is supported");
  if (model != static_cast<uint32_t>(spv::MemoryModel::OpenCL))
    return Unimpl(
        "reference interpreter: only the OpenCL memory model is "
        "supported");
  for (const Instruction& inst : m_.ext_inst_imports) {
    if (inst.NumOperands() >= 1 && inst.operand(0).AsString() == "OpenCL.std")
      opencl_std_ = inst.result_id();
  }
  for (const Instruction& inst : m_.debug_names) {
    if (static_cast<Op>(inst.opcode()) == Op::OpName && inst.NumOperands() >= 2)
      names_[inst.word(0)] = inst.operand(1).AsString();
  }
  return absl::OkStatus();
}

absl::Status DecodeState::FindEntry(absl::string_view entry) {
  entry_id_ = 0;
  prog_.reqd_local_size[0] = prog_.reqd_local_size[1] =
      prog_.reqd_local_size[2] = 0;
  for (const Instruction& inst : m_.entry_points) {
    if (inst.NumOperands() < 3) continue;
    if (inst.word(0) == static_cast<uint32_t>(spv::ExecutionModel::Kernel) &&
        inst.operand(2).AsString() == entry) {
      entry_id_ = inst.word(1);
      break;
    }
  }
  if (entry_id_ == 0)
    return Bad(absl::StrCat("no Kernel entry point named \"", entry, "\""));
  for (const Instruction& inst : m_.execution_modes) {
    if (inst.NumOperands() >= 5 && inst.word(0) == entry_id_ &&
        inst.word(1) == static_cast<uint32_t>(spv::ExecutionMode::LocalSize)) {
      for (int i = 0; i < 3; ++i) prog_.reqd_local_size[i] = inst.word(2 + i);
    }
  }
  return absl::OkStatus();
}

absl::Status DecodeState::DecodeDecorations() {
  absl::flat_hash_map<uint32_t, std::vector<const Instruction*>> groups;
  auto apply = [this](uint32_t target, const Instruction& d) {
    if (d.NumOperands() < 2) return;
    Decorations& out = decorations_[target];
    const auto deco = static_cast<spv::Decoration>(d.word(1));
    const uint32_t arg = d.NumOperands() >= 3 ? d.word(2) : 0;
    switch (deco) {
      case spv::Decoration::SaturatedConversion:
        out.saturated = true;
        break;
      case spv::Decoration::FPRoundingMode:
        out.rounding = static_cast<int>(arg);
        break;
      case spv::Decoration::BuiltIn:
        out.builtin = static_cast<int>(arg);
        break;
      case spv::Decoration::ArrayStride:
        out.array_stride = arg;
        break;
      case spv::Decoration::FuncParamAttr:
        if (arg ==
            static_cast<uint32_t>(spv::FunctionParameterAttribute::ByVal))
          out.byval = true;
        break;
      case spv::Decoration::Alignment:
        out.alignment = arg;
        break;
      case spv::Decoration::NoSignedWrap:
        out.no_signed_wrap = true;
        break;
      case spv::Decoration::NoUnsignedWrap:
        out.no_unsigned_wrap = true;
        break;
      default:
        break;
    }
  };
  for (const Instruction& inst : m_.annotations) {
    const auto op = static_cast<Op>(inst.opcode());
    if (op == Op::OpDecorate && inst.NumOperands() >= 2) {
      apply(inst.word(0), inst);
      groups[inst.word(0)].push_back(&inst);
    }
  }
  for (const Instruction& inst : m_.annotations) {
    if (static_cast<Op>(inst.opcode()) != Op::OpGroupDecorate ||
        inst.NumOperands() < 1)
      continue;
    auto it = groups.find(inst.word(0));
    if (it == groups.end()) continue;
    for (size_t i = 1; i < inst.NumOperands(); ++i) {
      for (const Instruction* d : it->second) apply(inst.word(i), *d);
    }
  }
  return absl::OkStatus();
}

// One translator per instruction class of the SPIR-V grammar (the class
// each opcode has in spirv.core.grammar.json), so a new instruction is added
// in the one file its class lives in; see decode_state.h.
absl::Status DecodeState::Translate(const Instruction& inst) {
  using Translator = absl::Status (DecodeState::*)(const Instruction&);
  static constexpr std::pair<absl::string_view, Translator> kByClass[] = {
      {"Arithmetic", &DecodeState::TranslateArith},
      {"Bit", &DecodeState::TranslateArith},
      {"Relational_and_Logical", &DecodeState::TranslateLogic},
      {"Conversion", &DecodeState::TranslateConversion},
      {"Composite", &DecodeState::TranslateComposite},
      {"Memory", &DecodeState::TranslateMemory},
      {"Control-Flow", &DecodeState::TranslateControl},
      {"Function", &DecodeState::TranslateControl},
      {"Miscellaneous", &DecodeState::TranslateMisc},
      {"Debug", &DecodeState::TranslateMisc},
      {"Barrier", &DecodeState::TranslateGroups},
      {"Atomic", &DecodeState::TranslateGroups},
      {"Group", &DecodeState::TranslateGroups},
      {"Non-Uniform", &DecodeState::TranslateGroups},
      {"Extension", &DecodeState::TranslateExtInst},
      {"Image", &DecodeState::TranslateImage},
  };
  if (const spirv::OpcodeInfo* info = inst.info()) {
    const absl::string_view cls = info->instr_class;
    for (const auto& [name, translate] : kByClass) {
      if (name == cls) return (this->*translate)(inst);
    }
  }
  return Unsupported(inst, kNotImplemented);
}

absl::StatusOr<Program> DecodeState::Run(absl::string_view entry) {
  // The entry point is looked up first: a missing one is the error to
  // report, whatever else the module holds.
  if (auto s = DecodeHeader(); !s.ok()) return s;
  if (auto s = FindEntry(entry); !s.ok()) return s;
  if (const spirv::Function* f = m_.FindFunction(entry_id_);
      f == nullptr || f->IsDeclaration())
    return Bad("the entry point has no function body");
  names_[entry_id_] = std::string(entry);
  if (auto s = DecodeModule(); !s.ok()) return s;
  if (auto s = DecodeEntry(); !s.ok()) return s;
  return std::move(prog_);
}

absl::Status DecodeState::DecodeShared() {
  if (auto s = DecodeHeader(); !s.ok()) return s;
  return DecodeModule();
}

absl::StatusOr<Program> DecodeState::ProgramFor(absl::string_view entry) {
  // The entry's part is appended to the shared program, copied out, then
  // taken back, so the next entry starts from the shared program again.
  const size_t allocs = prog_.static_allocs.size();
  const uint32_t images = prog_.image_params;
  const uint32_t samplers = sampler_params_;
  absl::Status s = FindEntry(entry);
  if (s.ok()) s = DecodeEntry();
  absl::StatusOr<Program> result =
      s.ok() ? absl::StatusOr<Program>(prog_) : absl::StatusOr<Program>(s);
  if (result.ok())
    result->functions[result->entry_function].name = std::string(entry);
  prog_.params.clear();
  prog_.static_allocs.resize(allocs);
  prog_.image_params = images;
  sampler_params_ = samplers;
  return result;
}

absl::Status DecodeState::DecodeModule() {
  if (auto s = DecodeDecorations(); !s.ok()) return s;
  for (const Instruction& inst : m_.types_values) {
    const spirv::OpcodeInfo* info = inst.info();
    if (info == nullptr) continue;
    const auto op = static_cast<Op>(inst.opcode());
    absl::Status s;
    if (absl::string_view(info->instr_class) == "Type-Declaration") {
      s = DecodeType(inst);
    } else if (op == Op::OpVariable) {
      s = DecodeGlobalVariable(inst);
    } else if (op == Op::OpConstantSampler) {
      s = DecodeConstantSampler(inst);
    } else if (inst.result_id() != 0 && inst.type_id() != 0) {
      s = DecodeConstant(inst);
    }
    if (!s.ok()) return s;
  }
  // Function indices first, so calls can be resolved in any order.
  for (const spirv::Function& f : m_.functions) {
    if (f.IsDeclaration()) continue;
    function_index_[f.id()] = static_cast<uint32_t>(prog_.functions.size());
    FunctionInfo info;
    info.id = f.id();
    auto n = names_.find(f.id());
    info.name = n != names_.end() ? n->second : absl::StrCat("%", f.id());
    prog_.functions.push_back(std::move(info));
  }
  // Parameter slots are needed by calls before the callee is decoded.
  for (const spirv::Function& f : m_.functions) {
    if (f.IsDeclaration()) continue;
    FunctionInfo& info = prog_.functions[function_index_[f.id()]];
    for (const Instruction& p : f.parameters) {
      auto s = ShapeOf(p.type_id());
      if (!s.ok()) return s.status();
      info.param_bytes.push_back(s->bytes);
    }
    const TypeDesc* rt = Type(f.def.type_id());
    if (rt != nullptr && rt->cls != TypeDesc::kVoid) {
      auto rs = ShapeOf(f.def.type_id());
      if (!rs.ok()) return rs.status();
      info.return_bytes = rs->bytes;
    }
  }
  for (const spirv::Function& f : m_.functions) {
    if (f.IsDeclaration()) continue;
    const uint32_t index = function_index_[f.id()];
    prog_.functions[index].param_bytes.clear();
    if (auto s = DecodeFunction(f, index); !s.ok()) return s;
  }
  prog_.max_call_depth =
      static_cast<uint32_t>(std::min<size_t>(prog_.functions.size() + 1, 256));
  return absl::OkStatus();
}

absl::Status DecodeState::DecodeEntry() {
  auto entry = function_index_.find(entry_id_);
  if (entry == function_index_.end())
    return Bad("the entry point has no function body");
  prog_.entry_function = entry->second;
  // Kernel parameters.
  const spirv::Function* kernel = m_.FindFunction(entry_id_);
  for (const Instruction& p : kernel->parameters) {
    KernelParam kp;
    const TypeDesc* t = Type(p.type_id());
    if (t == nullptr) return Bad("kernel parameter without a type");
    if (t->handle != TypeDesc::Handle::kNone) {
      ImageParam(*t, &kp);
    } else if (t->cls == TypeDesc::kPointer) {
      kp.storage_class = t->storage;
      const TypeDesc* e = Type(t->elem);
      const Decorations* d = Deco(p.result_id());
      if (t->storage == kScWorkgroup) {
        kp.kind = KernelParam::Kind::kLocal;
      } else if (t->storage == kScFunction || (d && d->byval)) {
        kp.kind = KernelParam::Kind::kByValuePointer;
        if (e == nullptr || !e->sized)
          return Unimpl("by-value kernel parameter of an unsized type");
        kp.bytes = static_cast<uint32_t>(e->size);
      } else if (t->storage == kScCrossWorkgroup ||
                 t->storage == kScUniformConstant || t->storage == kScGeneric) {
        kp.kind = KernelParam::Kind::kBuffer;
      } else {
        return Unimpl("kernel parameter in an unsupported storage class");
      }
      if (kp.kind != KernelParam::Kind::kByValuePointer) {
        StaticAlloc a;
        a.kind = kp.kind == KernelParam::Kind::kLocal ? AllocKind::kLocalArg
                                                      : AllocKind::kBufferArg;
        a.storage_class =
            kp.kind == KernelParam::Kind::kLocal
                ? kScWorkgroup
                : (t->storage == kScGeneric ? kScCrossWorkgroup : t->storage);
        a.read_only = t->storage == kScUniformConstant;
        prog_.static_allocs.push_back(a);
        kp.alloc_id = static_cast<uint32_t>(prog_.static_allocs.size());
      }
    } else {
      kp.kind = KernelParam::Kind::kValue;
      auto s = ShapeOf(p.type_id());
      if (!s.ok()) return s.status();
      kp.bytes = s->bytes;
    }
    prog_.params.push_back(kp);
  }
  return absl::OkStatus();
}

}  // namespace decoder

absl::StatusOr<Program> Decode(const spirv::Module& module,
                               absl::string_view entry_point) {
  decoder::DecodeState d(module);
  return d.Run(entry_point);
}

absl::StatusOr<DecodedModule> DecodedModule::Make(const spirv::Module& module) {
  auto state = std::make_unique<decoder::DecodeState>(module);
  if (auto s = state->DecodeShared(); !s.ok()) return s;
  return DecodedModule(std::move(state));
}

absl::StatusOr<Program> DecodedModule::ProgramFor(
    absl::string_view entry_point) {
  return state_->ProgramFor(entry_point);
}

DecodedModule::DecodedModule(std::unique_ptr<decoder::DecodeState> state)
    : state_(std::move(state)) {}
DecodedModule::DecodedModule(DecodedModule&&) noexcept = default;
DecodedModule& DecodedModule::operator=(DecodedModule&&) noexcept = default;
DecodedModule::~DecodedModule() = default;

}  // namespace l0spv::oracles::reference
