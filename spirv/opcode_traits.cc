#include "spirv/opcode_traits.h"

#include "spirv/grammar.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::spirv {
namespace {

using spv::Op;

bool ClassIs(const OpcodeInfo* info, std::string_view c) {
  return info != nullptr && info->instr_class == c;
}

// Core (vendor-neutral) instructions: the semantics the project models.
bool IsVendorNeutral(const OpcodeInfo& info) {
  const std::string_view name = info.name;
  for (std::string_view tag : {"INTEL", "KHR", "EXT", "NV", "AMD"})
    if (name.find(tag) != std::string_view::npos) return false;
  return name.find("Cooperative") == std::string_view::npos;
}

// Classes whose instructions compute a result from their operands alone.
bool IsValueClass(const OpcodeInfo* info) {
  return ClassIs(info, "Arithmetic") || ClassIs(info, "Bit") ||
         ClassIs(info, "Relational_and_Logical") ||
         ClassIs(info, "Conversion") || ClassIs(info, "Composite");
}

}  // namespace

bool HasResult(uint32_t opcode) {
  const OpcodeInfo* info = FindOpcode(opcode);
  return info != nullptr && info->has_result;
}

bool HasResultType(uint32_t opcode) {
  const OpcodeInfo* info = FindOpcode(opcode);
  return info != nullptr && info->has_result_type;
}

std::string_view OpcodeClass(uint32_t opcode) {
  const OpcodeInfo* info = FindOpcode(opcode);
  return info == nullptr ? std::string_view() : info->instr_class;
}

bool IsAtomic(uint32_t opcode) { return ClassIs(FindOpcode(opcode), "Atomic"); }

bool IsBranch(uint32_t opcode) {
  switch (static_cast<Op>(opcode)) {
    case Op::OpBranch:
    case Op::OpBranchConditional:
    case Op::OpSwitch:
      return true;
    default:
      return false;
  }
}

bool IsReturnOrAbort(uint32_t opcode) {
  switch (static_cast<Op>(opcode)) {
    case Op::OpReturn:
    case Op::OpReturnValue:
    case Op::OpKill:
    case Op::OpUnreachable:
    case Op::OpTerminateInvocation:
    case Op::OpIgnoreIntersectionKHR:
    case Op::OpTerminateRayKHR:
    case Op::OpEmitMeshTasksEXT:
      return true;
    default:
      return false;
  }
}

bool IsTerminator(uint32_t opcode) {
  return IsBranch(opcode) || IsReturnOrAbort(opcode);
}

bool IsMerge(uint32_t opcode) {
  return opcode == static_cast<uint32_t>(Op::OpSelectionMerge) ||
         opcode == static_cast<uint32_t>(Op::OpLoopMerge);
}

bool IsBlockEnding(uint32_t opcode) {
  return IsTerminator(opcode) || IsMerge(opcode);
}

bool IsSideEffectFree(uint32_t opcode) {
  const OpcodeInfo* info = FindOpcode(opcode);
  return info != nullptr && info->has_result && IsValueClass(info) &&
         IsVendorNeutral(*info);
}

bool IsSpeculatable(uint32_t opcode) {
  if (!IsSideEffectFree(opcode)) return false;
  // The grammar does not say which operations trap or are undefined on
  // some operands; these are the value-class ones that are (SPIR-V spec
  // §3.52: division by zero, out-of-range shifts, float→int overflow,
  // dynamic indices past the end, failing pointer casts).
  switch (static_cast<Op>(opcode)) {
    case Op::OpSDiv:
    case Op::OpUDiv:
    case Op::OpSRem:
    case Op::OpSMod:
    case Op::OpUMod:
    case Op::OpConvertFToS:
    case Op::OpConvertFToU:
    case Op::OpShiftLeftLogical:
    case Op::OpShiftRightLogical:
    case Op::OpShiftRightArithmetic:
    case Op::OpGenericCastToPtr:
    case Op::OpGenericCastToPtrExplicit:
    case Op::OpConvertUToPtr:
    case Op::OpVectorExtractDynamic:
    case Op::OpVectorInsertDynamic:
      return false;
    default:
      return true;
  }
}

bool IsSafeToDeleteWhenUnused(uint32_t opcode) {
  const OpcodeInfo* info = FindOpcode(opcode);
  if (info == nullptr || !info->has_result) return false;
  if (ClassIs(info, "Atomic") || ClassIs(info, "Pipe") ||
      ClassIs(info, "Device-Side_Enqueue"))
    return false;
  // Results with an effect beyond the value: a call may do anything, an
  // asynchronous copy writes memory, a label holds a block.
  switch (static_cast<Op>(opcode)) {
    case Op::OpFunctionCall:
    case Op::OpGroupAsyncCopy:
    case Op::OpLabel:
    case Op::OpExtInst:
      return false;
    default:
      return true;
  }
}

bool IsComponentWise(uint32_t opcode) {
  const OpcodeInfo* info = FindOpcode(opcode);
  if (info == nullptr || !info->has_result || !IsVendorNeutral(*info) ||
      !(ClassIs(info, "Arithmetic") || ClassIs(info, "Bit") ||
        ClassIs(info, "Relational_and_Logical") || ClassIs(info, "Conversion")))
    return false;
  switch (static_cast<Op>(opcode)) {
    // Reductions and matrix products: a lane reads every lane.
    case Op::OpAll:
    case Op::OpAny:
    case Op::OpDot:
    case Op::OpSDot:
    case Op::OpUDot:
    case Op::OpSUDot:
    case Op::OpSDotAccSat:
    case Op::OpUDotAccSat:
    case Op::OpSUDotAccSat:
    case Op::OpMatrixTimesMatrix:
    case Op::OpMatrixTimesScalar:
    case Op::OpMatrixTimesVector:
    case Op::OpVectorTimesMatrix:
    case Op::OpOuterProduct:
    // Struct results: two values per lane.
    case Op::OpIAddCarry:
    case Op::OpISubBorrow:
    case Op::OpUMulExtended:
    case Op::OpSMulExtended:
    // May change the number of lanes (a 64-bit scalar to a 2 x 32 vector).
    case Op::OpBitcast:
    // Offset and count are scalars shared by every lane, but the bits
    // they select differ per lane width; not split by any pass.
    case Op::OpBitFieldInsert:
    case Op::OpBitFieldSExtract:
    case Op::OpBitFieldUExtract:
    // Pointers are never vectors in Kernel modules.
    case Op::OpConvertPtrToU:
    case Op::OpConvertUToPtr:
    case Op::OpGenericCastToPtr:
    case Op::OpGenericCastToPtrExplicit:
    case Op::OpPtrCastToGeneric:
      return false;
    default:
      return true;
  }
}

bool IsCommutative(uint32_t opcode) {
  // The grammar says nothing about operand order. Integer and logical
  // operations and (boolean-valued) equality comparisons commute exactly;
  // the carry/extended multiplies return the same struct either way. Float
  // add and multiply are left out (NaN payloads), as are ordered
  // comparisons (they swap into their mirror, not themselves).
  switch (static_cast<Op>(opcode)) {
    case Op::OpIAdd:
    case Op::OpIMul:
    case Op::OpBitwiseAnd:
    case Op::OpBitwiseOr:
    case Op::OpBitwiseXor:
    case Op::OpLogicalAnd:
    case Op::OpLogicalOr:
    case Op::OpLogicalEqual:
    case Op::OpLogicalNotEqual:
    case Op::OpIEqual:
    case Op::OpINotEqual:
    case Op::OpFOrdEqual:
    case Op::OpFUnordEqual:
    case Op::OpFOrdNotEqual:
    case Op::OpFUnordNotEqual:
    case Op::OpIAddCarry:
    case Op::OpUMulExtended:
    case Op::OpSMulExtended:
      return true;
    default:
      return false;
  }
}

}  // namespace l0spv::spirv
