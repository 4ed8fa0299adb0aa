// x = OpLoad p → OpCopyMemorySized %t %p sizeof(T); x = OpLoad %t, with %t
// a fresh Function variable of p's pointee type T. Sized, as llvm-spirv
// emits it: the typed OpCopyMemory breaks llvm-spirv -r and IGC
// (corpora/known-consumer-bugs/copy_memory_typed.spvasm). 3-component
// vectors are left out (their size includes a padding lane the load does
// not read). The copy reads exactly the memory
// the load read, once, at the same point (no new race, no new uninitialised
// read: the original load read the same bytes), and %t is private and fully
// written before it is read. Loads with memory operands other than Aligned
// (Volatile, Nontemporal, memory-model ones) are left alone; Aligned is
// dropped (less information, same meaning). Pointee types: int/float
// scalars and vectors.
//
// Record: {"load": descriptor}.
#include "absl/strings/str_cat.h"
#include "generators/transform/kinds/data_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

bool IsPlainLoad(TransformContext& ctx, const spirv::Instruction& inst) {
  if (OpOf(inst) != Op::OpLoad) return false;
  // Only an Aligned memory operand (Volatile/Nontemporal loads stay loads).
  const auto aligned = static_cast<uint32_t>(spv::MemoryAccessMask::Aligned);
  if (inst.NumOperands() > 1 && (inst.word(1) & ~aligned) != 0) return false;
  const spirv::TypeInfo* p = ctx.types().Get(ctx.TypeOf(inst.word(0)));
  const spirv::TypeInfo* t = ctx.types().Get(inst.type_id());
  // Not from built-in (Input) variables: they are values the device
  // materialises, not memory, and IGC aborts on a copy from one.
  return p != nullptr && p->op == Op::OpTypePointer &&
         p->storage_class != spv::StorageClass::Input &&
         p->element == inst.type_id() && IsPlainDataType(ctx, inst.type_id()) &&
         t != nullptr && !(t->op == Op::OpTypeVector && t->count == 3) &&
         ctx.types().SizeOf(inst.type_id()).has_value();
}

class LoadViaCopyMemoryKind : public Transformation {
 public:
  std::string_view kind() const override { return "load_via_copy_memory"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    auto pos = PickPosition(
        FindPositions(ctx,
                      [&](const spirv::Instruction& inst, const InstPos&) {
                        return IsPlainLoad(ctx, inst);
                      }),
        rng);
    if (!pos) return std::nullopt;
    return Record{{"load", ToJson(ctx.Describe(*pos))}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto pos = ResolveField(ctx, r, "load");
    if (!pos.ok()) return pos.status();
    if (!IsPlainLoad(ctx, ctx.At(*pos)))
      return absl::FailedPreconditionError(
          "not a plain load of an int or float scalar/vector");
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const InstPos pos = *ResolveField(ctx, r, "load");
    const uint32_t type = ctx.At(pos).type_id();
    spirv::ModuleBuilder& mb = ctx.builder();
    const uint32_t ptr = mb.PointerType(spv::StorageClass::Function, type);
    // A 32-bit size: any integer width is valid, and this one needs no Int64.
    const uint32_t size =
        mb.IntConstant(mb.IntType(32), *ctx.types().SizeOf(type));
    const uint32_t var = ctx.NewId();
    spirv::Instruction& load = ctx.At(pos);
    // No memory operands on the copy: one mask would apply to the fresh
    // variable too, which may be less aligned than the load promised.
    std::vector<spirv::Operand> copy_ops{spirv::IdOperand(var), load.operand(0),
                                         spirv::IdOperand(size)};
    load.mutable_operands() = {spirv::IdOperand(var)};
    InsertBefore(ctx, pos,
                 spirv::Instruction(U(Op::OpCopyMemorySized), 0, 0,
                                    std::move(copy_ops)));
    spirv::Function& fn = ctx.module().functions[pos.function];
    auto& entry = fn.blocks.front().instructions;
    entry.insert(
        entry.begin() + static_cast<ptrdiff_t>(VariableInsertionIndex(fn)),
        spirv::Instruction(
            U(Op::OpVariable), ptr, var,
            {spirv::EnumOperand(
                spirv::OperandKind::kStorageClass,
                static_cast<uint32_t>(spv::StorageClass::Function))}));
  }
};

}  // namespace

const Transformation* LoadViaCopyMemory() {
  static const LoadViaCopyMemoryKind* t = new LoadViaCopyMemoryKind;
  return t;
}

}  // namespace l0spv::generators::transform
