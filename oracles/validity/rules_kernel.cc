// Kernel signature rules ("Kernels"): return type, argument types and
// argument widths of every function named by an OpEntryPoint.
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "oracles/validity/rule_context.h"
#include "spirv/grammar.h"

namespace l0spv::oracles::validity_internal {
namespace {

using spirv::Instruction;
using spirv::TypeInfo;
using spv::Op;

std::string OpName(Op op) {
  const spirv::OpcodeInfo* info = spirv::FindOpcode(static_cast<uint32_t>(op));
  return info ? info->name : "an unknown type";
}

std::string StorageClassName(spv::StorageClass sc) {
  return std::string(
      EnumName(spirv::OperandKind::kStorageClass, static_cast<uint32_t>(sc)));
}

void CheckReturnType(RuleContext& ctx, const spirv::Function& fn,
                     const std::string& kernel) {
  const TypeInfo* t = ctx.types().Get(fn.def.type_id());
  if (t != nullptr && t->op == Op::OpTypeVoid) return;
  ctx.Report(kRuleKernelReturnType, &fn.def,
             absl::StrCat("kernel \"", kernel, "\" (", ctx.Describe(fn.def),
                          ") returns ", ctx.TypeName(fn.def.type_id()),
                          "; a kernel's Result Type must be OpTypeVoid"));
}

// Width of an int/float argument, or of a vector argument's components.
void CheckScalarWidth(RuleContext& ctx, const Instruction& param,
                      const std::string& what, const TypeInfo& scalar) {
  if (scalar.op == Op::OpTypeInt) {
    if (scalar.width == 8 || scalar.width == 16 || scalar.width == 32 ||
        scalar.width == 64) {
      return;
    }
    ctx.Report(kRuleKernelArgWidth, &param,
               absl::StrCat(what, " is a ", scalar.width,
                            "-bit integer; kernel integer arguments must be "
                            "8, 16, 32 or 64 bits wide"));
  } else if (scalar.op == Op::OpTypeFloat) {
    // The environment lists 16 and 32 only, but lets environments with
    // optional features accept more: fp64 devices take double arguments.
    if (scalar.width == 16 || scalar.width == 32) return;
    if (scalar.width == 64 && ctx.profile().fp64) return;
    ctx.Report(kRuleKernelArgWidth, &param,
               absl::StrCat(what, " is a ", scalar.width,
                            "-bit float; kernel float arguments must be 16 or "
                            "32 bits wide",
                            ctx.profile().fp64 ? " (or 64)" : "",
                            " on profile '", ctx.profile().name, "'"));
  }
}

// Struct arguments (by value, or through a ByVal pointer) may contain only
// int, float, struct, vector and pointer members. Arrays are accepted too:
// OpenCL C allows them in kernel argument structs and drivers take them; the
// specification's list looks like an oversight. Iterative, so deep nesting
// in a hostile module cannot exhaust the stack.
void CheckStructMembers(RuleContext& ctx, const Instruction& param,
                        const std::string& what, uint32_t struct_id) {
  std::vector<uint32_t> work = {struct_id};
  absl::flat_hash_set<uint32_t> seen;
  while (!work.empty()) {
    const uint32_t id = work.back();
    work.pop_back();
    if (!seen.insert(id).second) continue;
    const TypeInfo* t = ctx.types().Get(id);
    if (t == nullptr) continue;  // undeclared: spirv-val's business
    switch (t->op) {
      case Op::OpTypeStruct:
        for (uint32_t m : t->members) {
          const TypeInfo* mt = ctx.types().Get(m);
          if (mt == nullptr) continue;
          switch (mt->op) {
            case Op::OpTypeInt:
            case Op::OpTypeFloat:
            case Op::OpTypeVector:
            case Op::OpTypePointer:
              break;
            case Op::OpTypeStruct:
            case Op::OpTypeArray:
              work.push_back(m);
              break;
            default:
              ctx.Report(kRuleKernelArgType, &param,
                         absl::StrCat(what, ": struct %", id,
                                      " has a member "
                                      "of type %",
                                      m, " (", OpName(mt->op),
                                      "); kernel argument structs may hold "
                                      "only int, float, struct, vector and "
                                      "pointer members (and arrays of "
                                      "them)"));
          }
        }
        break;
      case Op::OpTypeArray:
        work.push_back(t->element);
        break;
      case Op::OpTypeInt:
      case Op::OpTypeFloat:
      case Op::OpTypeVector:
      case Op::OpTypePointer:
        break;
      default:
        ctx.Report(kRuleKernelArgType, &param,
                   absl::StrCat(what, ": array element type %", id, " (",
                                OpName(t->op),
                                ") is not allowed in a kernel argument "
                                "struct"));
    }
  }
}

void CheckPointer(RuleContext& ctx, const Instruction& param,
                  const std::string& what, const TypeInfo& t) {
  switch (t.storage_class) {
    case spv::StorageClass::CrossWorkgroup:
    case spv::StorageClass::Workgroup:
    case spv::StorageClass::UniformConstant:
      return;
    case spv::StorageClass::Function:
      // Struct arguments passed by value arrive as Function pointers
      // decorated FuncParamAttr ByVal (llvm-spirv's form of SPIR byval).
      if (ctx.HasDecoration(
              param.result_id(), spv::Decoration::FuncParamAttr,
              static_cast<uint32_t>(spv::FunctionParameterAttribute::ByVal))) {
        const TypeInfo* pointee = ctx.types().Get(t.element);
        if (pointee != nullptr && pointee->op == Op::OpTypeStruct) {
          CheckStructMembers(ctx, param, what, t.element);
        }
        return;
      }
      break;
    default:
      break;
  }
  ctx.Report(
      kRuleKernelArgType, &param,
      absl::StrCat(what, " is a pointer to ", StorageClassName(t.storage_class),
                   " storage; kernel pointer arguments must point to "
                   "CrossWorkgroup, Workgroup or UniformConstant "
                   "storage (Function only for FuncParamAttr ByVal)"));
}

void CheckParameter(RuleContext& ctx, const Instruction& param,
                    const std::string& kernel, size_t index) {
  const std::string what =
      absl::StrCat("argument ", index, " (", ctx.Describe(param),
                   ") of kernel \"", kernel, "\"");
  const TypeInfo* t = ctx.types().Get(param.type_id());
  if (t == nullptr) return;  // undeclared type: spirv-val reports it
  switch (t->op) {
    case Op::OpTypeInt:
    case Op::OpTypeFloat:
      CheckScalarWidth(ctx, param, what, *t);
      return;
    case Op::OpTypeVector:
      if (const TypeInfo* e = ctx.types().Get(t->element)) {
        CheckScalarWidth(ctx, param, "the component type of " + what, *e);
      }
      return;
    case Op::OpTypeStruct:
      CheckStructMembers(ctx, param, what, t->id);
      return;
    case Op::OpTypePointer:
      CheckPointer(ctx, param, what, *t);
      return;
    case Op::OpTypeSampler:
    case Op::OpTypeImage:
      return;
    default:
      ctx.Report(kRuleKernelArgType, &param,
                 absl::StrCat(what, " has type ", ctx.TypeName(t->id),
                              "; kernel arguments must be OpTypeInt, "
                              "OpTypeFloat, OpTypeStruct, OpTypeVector, "
                              "OpTypePointer, OpTypeSampler or OpTypeImage"));
  }
}

}  // namespace

void CheckKernelRules(RuleContext& ctx) {
  absl::flat_hash_set<uint32_t> done;
  for (const Instruction& ep : ctx.module().entry_points) {
    auto fn_id = OperandWord(ep, 1);
    if (!fn_id || !done.insert(*fn_id).second) continue;
    const spirv::Function* fn = ctx.FunctionById(*fn_id);
    if (fn == nullptr) continue;
    const std::string kernel =
        ep.NumOperands() > 2 ? ep.operand(2).AsString() : "";
    CheckReturnType(ctx, *fn, kernel);
    for (size_t i = 0; i < fn->parameters.size(); ++i) {
      CheckParameter(ctx, fn->parameters[i], kernel, i);
    }
  }
}

}  // namespace l0spv::oracles::validity_internal
