#include "bench/large_kernel.h"

#include <utility>
#include <vector>

#include "spirv/builder.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::bench {
namespace {

using spirv::BasicBlock;
using spirv::EnumOperand;
using spirv::IdOperand;
using spirv::Instruction;
using spirv::LiteralOperand;
using spirv::Operand;
using spirv::OperandKind;
using spv::Op;

// Arithmetic instructions per segment; each segment adds 7 more (the
// compare, two branches, the increment, two labels and the OpPhi).
constexpr size_t kOpsPerSegment = 200;

uint32_t U(auto e) { return static_cast<uint32_t>(e); }

class KernelWriter {
 public:
  explicit KernelWriter(spirv::Module& m) : m_(m), b_(m) {}

  spirv::Module& Build(size_t min_instructions) {
    Declare();
    spirv::Function fn;
    const uint32_t fn_id = b_.TakeNextId();
    fn.def = Instruction(
        U(Op::OpFunction), void_, fn_id,
        {EnumOperand(OperandKind::kFunctionControl, 0), IdOperand(fn_type_)});
    uint32_t params[3];
    for (uint32_t& p : params) {
      p = b_.TakeNextId();
      fn.parameters.emplace_back(U(Op::OpFunctionParameter), buf_ptr_, p,
                                 std::vector<Operand>{});
    }
    fn.end = Instruction(U(Op::OpFunctionEnd), 0, 0, {});

    // Entry: gid, the two loads and the output address.
    StartBlock(fn, b_.TakeNextId());
    const uint32_t ids = Emit(Op::OpLoad, v3ulong_, {IdOperand(gid_var_)});
    const uint32_t gid = Emit(Op::OpCompositeExtract, ulong_,
                              {IdOperand(ids), LiteralOperand(0)});
    auto element = [&](uint32_t base) {
      return Emit(Op::OpInBoundsPtrAccessChain, buf_ptr_,
                  {IdOperand(base), IdOperand(gid)});
    };
    const uint32_t a =
        Emit(Op::OpLoad, uint_, WithAligned({IdOperand(element(params[0]))}));
    const uint32_t bv =
        Emit(Op::OpLoad, uint_, WithAligned({IdOperand(element(params[1]))}));
    const uint32_t out = element(params[2]);

    uint32_t acc = a, other = bv;
    const size_t base = m_.InstructionCount() + 10;  // + the exit block
    size_t segments = 0;
    while (base + fn.blocks.size() + Count(fn) < min_instructions ||
           segments == 0) {
      std::tie(acc, other) = Segment(fn, acc, other);
      ++segments;
    }
    // Exit: store and return.
    const uint32_t result =
        Emit(Op::OpBitwiseXor, uint_, {IdOperand(acc), IdOperand(other)});
    Emit(Op::OpStore, 0, WithAligned({IdOperand(out), IdOperand(result)}));
    Emit(Op::OpReturn, 0, {});
    m_.functions.push_back(std::move(fn));

    m_.entry_points.emplace_back(
        U(Op::OpEntryPoint), 0, 0,
        std::vector<Operand>{EnumOperand(OperandKind::kExecutionModel,
                                         U(spv::ExecutionModel::Kernel)),
                             IdOperand(fn_id), spirv::StringOperand("large"),
                             IdOperand(gid_var_)});
    return m_;
  }

 private:
  void Declare() {
    b_.AddCapability(spv::Capability::Addresses);
    b_.AddCapability(spv::Capability::Kernel);
    b_.AddCapability(spv::Capability::Int64);
    m_.memory_model.emplace_back(
        U(Op::OpMemoryModel), 0, 0,
        std::vector<Operand>{EnumOperand(OperandKind::kAddressingModel,
                                         U(spv::AddressingModel::Physical64)),
                             EnumOperand(OperandKind::kMemoryModel,
                                         U(spv::MemoryModel::OpenCL))});
    void_ = b_.VoidType();
    bool_ = b_.BoolType();
    uint_ = b_.IntType(32);
    ulong_ = b_.IntType(64);
    v3ulong_ = b_.VectorType(ulong_, 3);
    buf_ptr_ = b_.PointerType(spv::StorageClass::CrossWorkgroup, uint_);
    fn_type_ = b_.FunctionType(void_, {buf_ptr_, buf_ptr_, buf_ptr_});
    for (uint32_t v : {1u, 3u, 5u, 7u, 0x9E3779B9u, 1000u})
      constants_.push_back(b_.IntConstant(uint_, v));
    gid_var_ = b_.TakeNextId();
    m_.types_values.emplace_back(
        U(Op::OpVariable), b_.PointerType(spv::StorageClass::Input, v3ulong_),
        gid_var_,
        std::vector<Operand>{EnumOperand(OperandKind::kStorageClass,
                                         U(spv::StorageClass::Input))});
    m_.annotations.emplace_back(
        U(Op::OpDecorate), 0, 0,
        std::vector<Operand>{
            IdOperand(gid_var_),
            EnumOperand(OperandKind::kDecoration, U(spv::Decoration::BuiltIn)),
            EnumOperand(OperandKind::kBuiltIn,
                        U(spv::BuiltIn::GlobalInvocationId))});
  }

  // One block of arithmetic on (acc, other), then
  //   if (acc < 1000) acc += 1;   as a diamond with an OpPhi.
  std::pair<uint32_t, uint32_t> Segment(spirv::Function& fn, uint32_t acc,
                                        uint32_t other) {
    static constexpr Op kOps[] = {Op::OpIAdd,
                                  Op::OpIMul,
                                  Op::OpISub,
                                  Op::OpBitwiseXor,
                                  Op::OpBitwiseAnd,
                                  Op::OpBitwiseOr,
                                  Op::OpShiftLeftLogical,
                                  Op::OpShiftRightLogical};
    for (size_t i = 0; i < kOpsPerSegment; ++i) {
      const Op op = kOps[(counter_ + i) % std::size(kOps)];
      // Shifts take a constant amount below the width (1..7).
      const bool shift =
          op == Op::OpShiftLeftLogical || op == Op::OpShiftRightLogical;
      const uint32_t rhs =
          shift ? constants_[i % 4] : (i % 3 == 0 ? constants_[4] : other);
      const uint32_t next = Emit(op, uint_, {IdOperand(acc), IdOperand(rhs)});
      other = acc;
      acc = next;
    }
    counter_ += 3;
    const uint32_t head = current_->id();
    const uint32_t then_label = b_.TakeNextId();
    const uint32_t merge_label = b_.TakeNextId();
    const uint32_t cond = Emit(Op::OpULessThan, bool_,
                               {IdOperand(acc), IdOperand(constants_[5])});
    Emit(Op::OpBranchConditional, 0,
         {IdOperand(cond), IdOperand(then_label), IdOperand(merge_label)});
    StartBlock(fn, then_label);
    const uint32_t inc =
        Emit(Op::OpIAdd, uint_, {IdOperand(acc), IdOperand(constants_[0])});
    Emit(Op::OpBranch, 0, {IdOperand(merge_label)});
    StartBlock(fn, merge_label);
    const uint32_t joined = Emit(Op::OpPhi, uint_,
                                 {IdOperand(inc), IdOperand(then_label),
                                  IdOperand(acc), IdOperand(head)});
    return {joined, other};
  }

  void StartBlock(spirv::Function& fn, uint32_t label) {
    fn.blocks.push_back(
        BasicBlock{Instruction(U(Op::OpLabel), 0, label, {}), {}});
    current_ = &fn.blocks.back();
  }

  uint32_t Emit(Op op, uint32_t type, std::vector<Operand> operands) {
    const uint32_t id = type != 0 ? b_.TakeNextId() : 0;
    current_->instructions.emplace_back(U(op), type, id, std::move(operands));
    return id;
  }

  static std::vector<Operand> WithAligned(std::vector<Operand> operands) {
    operands.push_back(EnumOperand(OperandKind::kMemoryAccess,
                                   U(spv::MemoryAccessMask::Aligned)));
    operands.push_back(LiteralOperand(4));
    return operands;
  }

  static size_t Count(const spirv::Function& fn) {
    size_t n = 0;
    for (const BasicBlock& bb : fn.blocks) n += bb.instructions.size();
    return n;
  }

  spirv::Module& m_;
  spirv::ModuleBuilder b_;
  BasicBlock* current_ = nullptr;
  size_t counter_ = 0;
  uint32_t void_ = 0, bool_ = 0, uint_ = 0, ulong_ = 0, v3ulong_ = 0;
  uint32_t buf_ptr_ = 0, fn_type_ = 0, gid_var_ = 0;
  std::vector<uint32_t> constants_;
};

}  // namespace

spirv::Module BuildLargeKernel(size_t min_instructions) {
  spirv::Module m;
  KernelWriter(m).Build(min_instructions);
  return m;
}

}  // namespace l0spv::bench
