// Replaces a use of a scalar integer constant c in the kernel function with
// a value read at run time that is known to equal c on the test case's
// inputs: a word of a read-only input buffer or a by-value argument
// (opaque.h), widened or narrowed with OpUConvert/OpSConvert when the
// constant is not 32 bits wide. A compiler cannot fold it (equivalence
// modulo inputs). The loaded value becomes a synonym of c.
//
// Record: {"use": descriptor, "operand": i, "source": opaque source}.
#include "absl/strings/str_cat.h"
#include "generators/transform/kinds/data_util.h"
#include "generators/transform/kinds/kinds.h"
#include "generators/transform/opaque.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

// How a source value of `source_width` bits known to be `known` becomes the
// `width`-bit constant `c`: OpNop (as it is), OpUConvert or OpSConvert;
// nullopt when it cannot.
std::optional<Op> Conversion(uint64_t known, uint32_t source_width, uint64_t c,
                             uint32_t width) {
  known = Truncate(known, source_width);
  if (source_width == width)
    return known == c ? std::optional(Op::OpNop) : std::nullopt;
  if (source_width > width)
    return Truncate(known, width) == c ? std::optional(Op::OpUConvert)
                                       : std::nullopt;
  if (known == c) return Op::OpUConvert;
  const uint64_t sign = uint64_t{1} << (source_width - 1);
  const uint64_t extended = Truncate((known ^ sign) - sign, width);
  if (extended == c) return Op::OpSConvert;
  return std::nullopt;
}

// Width of the value a source yields (32 for buffer words).
uint32_t SourceWidth(TransformContext& ctx, const Record& source) {
  if (Field<std::string>(source, "source") == "buffer") return 32;
  return ctx.types().ScalarWidth(ctx.TypeOf(Field<uint32_t>(source, "param")));
}

class ObfuscateConstantLoadKind : public Transformation {
 public:
  std::string_view kind() const override { return "obfuscate_constant_load"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<ConstantUse> uses = FindIntConstantUses(ctx, true);
    for (int attempt = 0; attempt < 8 && !uses.empty(); ++attempt) {
      const ConstantUse& use =
          uses[rng.Below(static_cast<uint32_t>(uses.size()))];
      const uint64_t c = *ctx.types().IntConstant(use.constant);
      const uint32_t width = ctx.types().ScalarWidth(ctx.TypeOf(use.constant));
      std::vector<Record> sources;
      // By-value arguments of known value.
      for (const KnownScalar& s : ctx.facts().known_scalars())
        if (Conversion(s.value, s.width, c, width))
          sources.push_back({{"source", "scalar"}, {"param", s.param_id}});
      // Buffer words: the value itself or, for 64-bit constants, a word
      // that sign-extends to it.
      std::optional<Record> word;
      if (width <= 32 || c <= 0xffffffffu || c >= 0xffffffff80000000u)
        word = ProposeKnownWord(ctx, rng, use.pos.function,
                                static_cast<uint32_t>(c));
      if (word) sources.push_back(*word);
      if (sources.empty()) continue;
      return Record{
          {"use", ToJson(ctx.Describe(use.pos))},
          {"operand", use.operand},
          {"source",
           sources[rng.Below(static_cast<uint32_t>(sources.size()))]}};
    }
    return std::nullopt;
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto pos = ResolveField(ctx, r, "use");
    if (!pos.ok()) return pos.status();
    uint32_t constant = 0;
    auto c =
        CheckIntConstantUse(ctx, *pos, Field<size_t>(r, "operand"), &constant);
    if (!c.ok()) return c.status();
    const Record& source = ObjectField(r, "source");
    if (Field<std::string>(source, "source") == "constant")
      return absl::InvalidArgumentError(
          "the source of a loaded constant must be a buffer word or an "
          "argument");
    if (absl::Status s = CheckOpaqueSource(ctx, source, pos->function); !s.ok())
      return s;
    const uint32_t width = ctx.types().ScalarWidth(ctx.TypeOf(constant));
    const std::optional<Op> conversion = Conversion(
        *KnownValueOf(ctx, source), SourceWidth(ctx, source), *c, width);
    if (conversion == Op::OpNop &&
        Field<std::string>(source, "source") == "scalar" &&
        ctx.TypeOf(Field<uint32_t>(source, "param")) != ctx.TypeOf(constant))
      return absl::FailedPreconditionError(
          "the argument's type differs from the constant's");
    if (!conversion)
      return absl::FailedPreconditionError(absl::StrCat(
          "the source's known value does not give the constant ", *c));
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const InstPos use = *ResolveField(ctx, r, "use");
    const size_t operand = Field<size_t>(r, "operand");
    const uint32_t constant = ctx.At(use).operand(operand).AsId();
    const uint32_t type = ctx.TypeOf(constant);
    const uint64_t c = *ctx.types().IntConstant(constant);
    const Record& source = ObjectField(r, "source");
    const Op conversion =
        *Conversion(*KnownValueOf(ctx, source), SourceWidth(ctx, source), c,
                    ctx.types().ScalarWidth(type));
    InstPos pos = use;
    pos.index = InsertionIndexForUse(ctx.BlockAt(use), use.index);
    const size_t start = pos.index;
    uint32_t value = EmitKnownValue(ctx, source, pos);
    if (conversion != Op::OpNop)
      value = EmitBefore(ctx, pos, conversion, type, {spirv::IdOperand(value)});
    InstPos moved = use;
    moved.index += pos.index - start;
    ctx.At(moved).mutable_operands()[operand].words[0] = value;
    ctx.facts().AddSynonym(constant, value);
  }
};

}  // namespace

const Transformation* ObfuscateConstantLoad() {
  static const ObfuscateConstantLoadKind* t = new ObfuscateConstantLoadKind;
  return t;
}

}  // namespace l0spv::generators::transform
