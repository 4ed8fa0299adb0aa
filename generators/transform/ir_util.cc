#include "generators/transform/ir_util.h"

#include <cstring>

#include "absl/strings/str_cat.h"

namespace l0spv::transform {
namespace {

bool IsPureClass(const spirv::OpcodeInfo* info) {
  if (info == nullptr || !info->has_result) return false;
  const char* c = info->instr_class;
  return std::strcmp(c, "Arithmetic") == 0 || std::strcmp(c, "Bit") == 0 ||
         std::strcmp(c, "Relational_and_Logical") == 0 ||
         std::strcmp(c, "Conversion") == 0 || std::strcmp(c, "Composite") == 0;
}

}  // namespace

bool IsSideEffectFree(uint32_t opcode) {
  const spirv::OpcodeInfo* info = spirv::FindOpcode(opcode);
  if (!IsPureClass(info)) return false;
  // Opcodes of these classes that read memory-like state or are
  // extension-specific are left out.
  switch (static_cast<spv::Op>(opcode)) {
    case spv::Op::OpSatConvertSToU:
    case spv::Op::OpSatConvertUToS:
    case spv::Op::OpConvertUToPtr:
    case spv::Op::OpConvertPtrToU:
    case spv::Op::OpGenericCastToPtr:
    case spv::Op::OpGenericCastToPtrExplicit:
    case spv::Op::OpPtrCastToGeneric:
    case spv::Op::OpCopyObject:
    case spv::Op::OpTranspose:
      return true;
    default:
      break;
  }
  const std::string_view name = info->name;
  // Keep to the core instructions kernels use.
  return name.find("INTEL") == std::string_view::npos &&
         name.find("KHR") == std::string_view::npos &&
         name.find("EXT") == std::string_view::npos &&
         name.find("NV") == std::string_view::npos &&
         name.find("AMD") == std::string_view::npos &&
         name.find("Cooperative") == std::string_view::npos;
}

bool IsPureAnywhere(uint32_t opcode) {
  if (!IsSideEffectFree(opcode)) return false;
  switch (static_cast<spv::Op>(opcode)) {
    case spv::Op::OpSDiv:
    case spv::Op::OpUDiv:
    case spv::Op::OpSRem:
    case spv::Op::OpSMod:
    case spv::Op::OpUMod:
    case spv::Op::OpConvertFToS:
    case spv::Op::OpConvertFToU:
    case spv::Op::OpShiftLeftLogical:
    case spv::Op::OpShiftRightLogical:
    case spv::Op::OpShiftRightArithmetic:
    case spv::Op::OpGenericCastToPtr:
    case spv::Op::OpGenericCastToPtrExplicit:
    case spv::Op::OpConvertUToPtr:
    case spv::Op::OpVectorExtractDynamic:
    case spv::Op::OpVectorInsertDynamic:
      return false;
    default:
      return true;
  }
}

std::optional<InstPos> PickPosition(const std::vector<InstPos>& positions,
                                    Rng& rng) {
  if (positions.empty()) return std::nullopt;
  return positions[rng.Below(static_cast<uint32_t>(positions.size()))];
}

std::vector<std::pair<size_t, size_t>> ReachableBlocks(TransformContext& ctx) {
  std::vector<std::pair<size_t, size_t>> out;
  spirv::Module& m = ctx.module();
  for (size_t f = 0; f < m.functions.size(); ++f) {
    const spirv::Function& fn = m.functions[f];
    if (fn.blocks.empty()) continue;
    const Dominators& dom = ctx.dominators(f);
    for (size_t b = 0; b < fn.blocks.size(); ++b)
      if (dom.IsReachable(fn.blocks[b].id())) out.emplace_back(f, b);
  }
  return out;
}

InstPos InsertBefore(TransformContext& ctx, const InstPos& pos,
                     spirv::Instruction inst) {
  auto& insts = ctx.BlockAt(pos).instructions;
  insts.insert(insts.begin() + static_cast<ptrdiff_t>(pos.index),
               std::move(inst));
  return pos;
}

void RetargetPhiPredecessor(spirv::BasicBlock& block, uint32_t from,
                            uint32_t to) {
  for (spirv::Instruction& inst : block.instructions) {
    if (OpOf(inst) != spv::Op::OpPhi) continue;
    for (size_t i = 1; i < inst.NumOperands(); i += 2)
      if (inst.word(i) == from) inst.mutable_operands()[i].words[0] = to;
  }
}

absl::StatusOr<InstPos> ResolveField(TransformContext& ctx, const Record& r,
                                     const char* field) {
  if (!r.contains(field))
    return absl::InvalidArgumentError(
        absl::StrCat("the record has no \"", field, "\""));
  auto d = InstDescriptorFromJson(r[field]);
  if (!d.ok()) return d.status();
  std::optional<InstPos> pos = ctx.Find(*d);
  if (!pos)
    return absl::FailedPreconditionError(absl::StrCat(
        "\"", field, "\" names no instruction: ", r[field].dump()));
  return *pos;
}

}  // namespace l0spv::transform
