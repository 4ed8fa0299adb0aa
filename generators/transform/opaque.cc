#include "generators/transform/opaque.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"

namespace l0spv::generators::transform {
namespace {

const InputBuffer* FindBuffer(TransformContext& ctx, uint32_t param) {
  for (const InputBuffer& b : ctx.facts().input_buffers())
    if (b.param_id == param) return &b;
  return nullptr;
}

const KnownScalar* FindScalar(TransformContext& ctx, uint32_t param) {
  for (const KnownScalar& s : ctx.facts().known_scalars())
    if (s.param_id == param) return &s;
  return nullptr;
}

uint32_t WordOf(const InputBuffer& b, uint32_t k) {
  uint32_t w = 0;
  for (int i = 0; i < 4; ++i) w |= uint32_t{(*b.bytes)[4 * k + i]} << (8 * i);
  return w;
}

// The input buffers with at least one whole word to read.
std::vector<const InputBuffer*> ReadableBuffers(TransformContext& ctx) {
  std::vector<const InputBuffer*> out;
  for (const InputBuffer& b : ctx.facts().input_buffers())
    if (b.bytes->size() >= 4) out.push_back(&b);
  return out;
}

// Whether `function` can read a kernel-argument source: only the kernel
// function sees its arguments.
bool HasArgumentSource(TransformContext& ctx, size_t function) {
  return static_cast<int32_t>(function) == ctx.entry_function() &&
         (!ctx.facts().known_scalars().empty() ||
          !ReadableBuffers(ctx).empty());
}

}  // namespace

Record ProposeOpaqueSource(TransformContext& ctx, Rng& rng, size_t function) {
  // A literal is only the fallback: it used to be drawn 1 time in 8 even
  // with buffers at hand, 2 in 3 with only scalar arguments, and whenever
  // the drawn buffer was shorter than a word.
  if (!HasArgumentSource(ctx, function)) return {{"source", "constant"}};
  const auto& scalars = ctx.facts().known_scalars();
  const std::vector<const InputBuffer*> buffers = ReadableBuffers(ctx);
  if (!scalars.empty() && (buffers.empty() || rng.OneIn(3))) {
    const KnownScalar& s =
        scalars[rng.Below(static_cast<uint32_t>(scalars.size()))];
    return {{"source", "scalar"}, {"param", s.param_id}};
  }
  const InputBuffer& b =
      *buffers[rng.Below(static_cast<uint32_t>(buffers.size()))];
  return {{"source", "buffer"},
          {"param", b.param_id},
          {"word", rng.Below(static_cast<uint32_t>(
                       std::min<size_t>(b.bytes->size() / 4, 1u << 20)))}};
}

absl::Status CheckOpaqueSource(TransformContext& ctx, const Record& source,
                               size_t function) {
  const std::string kind = Field<std::string>(source, "source");
  if (kind == "constant") {
    if (HasArgumentSource(ctx, function))
      return absl::FailedPreconditionError(
          "a literal constant condition in the kernel function, which has a "
          "known argument or input-buffer word to hide it behind: every "
          "compiler folds a literal");
    return absl::OkStatus();
  }
  if (static_cast<int32_t>(function) != ctx.entry_function())
    return absl::FailedPreconditionError(
        "a kernel-argument source outside the kernel function");
  const uint32_t param = Field<uint32_t>(source, "param");
  if (kind == "scalar") {
    if (FindScalar(ctx, param) == nullptr)
      return absl::FailedPreconditionError(
          absl::StrCat("%", param, " is not a known scalar argument"));
    return absl::OkStatus();
  }
  if (kind == "buffer") {
    const InputBuffer* b = FindBuffer(ctx, param);
    if (b == nullptr)
      return absl::FailedPreconditionError(
          absl::StrCat("%", param, " is not a read-only input buffer"));
    const uint64_t word = Field<uint64_t>(source, "word");
    if ((word + 1) * 4 > b->bytes->size())
      return absl::FailedPreconditionError(
          absl::StrCat("word ", word, " is past the end of buffer %", param));
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown opaque source '", kind, "'"));
}

std::optional<uint64_t> KnownValueOf(TransformContext& ctx,
                                     const Record& source) {
  const std::string kind = Field<std::string>(source, "source");
  if (kind == "scalar") {
    const KnownScalar* s = FindScalar(ctx, Field<uint32_t>(source, "param"));
    if (s != nullptr) return s->value;
  } else if (kind == "buffer") {
    const InputBuffer* b = FindBuffer(ctx, Field<uint32_t>(source, "param"));
    if (b != nullptr) return WordOf(*b, Field<uint32_t>(source, "word"));
  }
  return std::nullopt;
}

uint32_t EmitKnownValue(TransformContext& ctx, const Record& source,
                        InstPos& pos) {
  const uint32_t param = Field<uint32_t>(source, "param");
  if (Field<std::string>(source, "source") == "scalar") return param;
  const InputBuffer* b = FindBuffer(ctx, param);
  spirv::ModuleBuilder& mb = ctx.builder();
  const uint32_t u32 = mb.IntType(32);
  const uint32_t ptr =
      mb.PointerType(static_cast<spv::StorageClass>(b->storage_class), u32);
  const uint32_t index =
      mb.IntConstant(mb.IntType(64), Field<uint32_t>(source, "word"));
  uint32_t base = param;
  if (ctx.TypeOf(param) != ptr) {
    base = ctx.NewId();
    InsertBefore(ctx, pos,
                 spirv::Instruction(U(spv::Op::OpBitcast), ptr, base,
                                    {spirv::IdOperand(param)}));
    ++pos.index;
  }
  const uint32_t element = ctx.NewId();
  InsertBefore(
      ctx, pos,
      spirv::Instruction(U(spv::Op::OpInBoundsPtrAccessChain), ptr, element,
                         {spirv::IdOperand(base), spirv::IdOperand(index)}));
  ++pos.index;
  const uint32_t value = ctx.NewId();
  InsertBefore(ctx, pos,
               spirv::Instruction(
                   U(spv::Op::OpLoad), u32, value,
                   {spirv::IdOperand(element),
                    spirv::EnumOperand(
                        spirv::OperandKind::kMemoryAccess,
                        static_cast<uint32_t>(spv::MemoryAccessMask::Aligned)),
                    spirv::LiteralOperand(4)}));
  ++pos.index;
  return value;
}

uint32_t EmitOpaqueBool(TransformContext& ctx, const Record& source,
                        InstPos& pos, bool value) {
  spirv::ModuleBuilder& mb = ctx.builder();
  if (Field<std::string>(source, "source") == "constant")
    return mb.BoolConstant(value);
  const uint64_t known = *KnownValueOf(ctx, source);
  const uint32_t v = EmitKnownValue(ctx, source, pos);
  const uint32_t type = ctx.TypeOf(v) != 0 ? ctx.TypeOf(v) : mb.IntType(32);
  // The operand's type: the scalar parameter's, or u32 for buffer words.
  const uint32_t operand_type =
      Field<std::string>(source, "source") == "scalar" ? type : mb.IntType(32);
  const uint32_t constant = mb.IntConstant(operand_type, known);
  const uint32_t result = ctx.NewId();
  InsertBefore(
      ctx, pos,
      spirv::Instruction(U(value ? spv::Op::OpIEqual : spv::Op::OpINotEqual),
                         mb.BoolType(), result,
                         {spirv::IdOperand(v), spirv::IdOperand(constant)}));
  ++pos.index;
  return result;
}

std::optional<Record> ProposeKnownWord(TransformContext& ctx, Rng& rng,
                                       size_t function, uint32_t value) {
  if (static_cast<int32_t>(function) != ctx.entry_function())
    return std::nullopt;
  std::vector<Record> options;
  for (const InputBuffer& b : ctx.facts().input_buffers()) {
    const size_t words = std::min<size_t>(b.bytes->size() / 4, 4096);
    for (size_t k = 0; k < words; ++k)
      if (WordOf(b, static_cast<uint32_t>(k)) == value)
        options.push_back(
            {{"source", "buffer"}, {"param", b.param_id}, {"word", k}});
  }
  if (options.empty()) return std::nullopt;
  return options[rng.Below(static_cast<uint32_t>(options.size()))];
}

}  // namespace l0spv::generators::transform
