// Replaces a use of a scalar integer constant c with a value computed at run
// time: c = a + k, a - k or a ^ k, where a is another constant or (in the
// kernel function) an opaque value known for the test case's inputs (a
// buffer word or by-value argument, opaque.h, converted to c's width with
// OpUConvert), and k is the constant that makes the result c. The
// operations wrap, so no value is undefined. The result becomes a synonym
// of c.
//
// Record: {"use": descriptor, "operand": i, "op": "add"|"sub"|"xor",
//          "left": {"source": "constant", "value": a} | opaque source}.
#include "absl/strings/str_cat.h"
#include "generators/transform/kinds/data_util.h"
#include "generators/transform/kinds/kinds.h"
#include "generators/transform/opaque.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

constexpr const char* kOps[] = {"add", "sub", "xor"};

// The operation and the right operand k with (a op k) == c (mod 2^width).
std::optional<std::pair<Op, uint64_t>> Solve(const std::string& op, uint64_t a,
                                             uint64_t c, uint32_t width) {
  if (op == "add") return std::pair(Op::OpIAdd, Truncate(c - a, width));
  if (op == "sub") return std::pair(Op::OpISub, Truncate(a - c, width));
  if (op == "xor") return std::pair(Op::OpBitwiseXor, Truncate(a ^ c, width));
  return std::nullopt;
}

class ObfuscateConstantComputeKind : public Transformation {
 public:
  std::string_view kind() const override {
    return "obfuscate_constant_compute";
  }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<ConstantUse> uses = FindIntConstantUses(ctx, false);
    if (uses.empty()) return std::nullopt;
    const ConstantUse& use =
        uses[rng.Below(static_cast<uint32_t>(uses.size()))];
    Record left;
    const bool in_kernel =
        static_cast<int32_t>(use.pos.function) == ctx.entry_function();
    if (in_kernel && !rng.OneIn(4)) {
      left = ProposeOpaqueSource(ctx, rng, use.pos.function);
    }
    if (left.is_null() || Field<std::string>(left, "source") == "constant") {
      const uint64_t a = rng.Next();
      left = {{"source", "constant"},
              {"value",
               Truncate(a, ctx.types().ScalarWidth(ctx.TypeOf(use.constant)))}};
    }
    return Record{{"use", ToJson(ctx.Describe(use.pos))},
                  {"operand", use.operand},
                  {"op", kOps[rng.Below(3)]},
                  {"left", left}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto pos = ResolveField(ctx, r, "use");
    if (!pos.ok()) return pos.status();
    uint32_t constant = 0;
    auto c =
        CheckIntConstantUse(ctx, *pos, Field<size_t>(r, "operand"), &constant);
    if (!c.ok()) return c.status();
    const std::string op = Field<std::string>(r, "op");
    if (!Solve(op, 0, 0, 32))
      return absl::InvalidArgumentError(
          absl::StrCat("unknown operation '", op, "' (add, sub or xor)"));
    const Record& left = ObjectField(r, "left");
    if (Field<std::string>(left, "source") == "constant") {
      const uint32_t width = ctx.types().ScalarWidth(ctx.TypeOf(constant));
      if (Truncate(Field<uint64_t>(left, "value"), width) !=
          Field<uint64_t>(left, "value"))
        return absl::FailedPreconditionError(
            "the left operand does not fit the constant's width");
      return absl::OkStatus();
    }
    return CheckOpaqueSource(ctx, left, pos->function);
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const InstPos use = *ResolveField(ctx, r, "use");
    const size_t operand = Field<size_t>(r, "operand");
    const uint32_t constant = ctx.At(use).operand(operand).AsId();
    const uint32_t type = ctx.TypeOf(constant);
    const uint32_t width = ctx.types().ScalarWidth(type);
    const uint64_t c = *ctx.types().IntConstant(constant);
    const Record& left = ObjectField(r, "left");
    InstPos pos = use;
    pos.index = InsertionIndexForUse(ctx.BlockAt(use), use.index);
    const size_t start = pos.index;
    spirv::ModuleBuilder& mb = ctx.builder();
    uint64_t a = 0;
    uint32_t a_id = 0;
    if (Field<std::string>(left, "source") == "constant") {
      a = Field<uint64_t>(left, "value");
      a_id = mb.IntConstant(type, a);
    } else {
      // Buffer words are 32 bits wide; arguments have their own width.
      const uint32_t from = Field<std::string>(left, "source") == "buffer"
                                ? 32
                                : ctx.types().ScalarWidth(ctx.TypeOf(
                                      Field<uint32_t>(left, "param")));
      a = Truncate(*KnownValueOf(ctx, left), width);  // = OpUConvert's result
      a_id = EmitKnownValue(ctx, left, pos);
      if (from != width)
        a_id = EmitBefore(ctx, pos, Op::OpUConvert, type,
                          {spirv::IdOperand(a_id)});
    }
    const auto [op, k] = *Solve(Field<std::string>(r, "op"), a, c, width);
    const uint32_t k_id = mb.IntConstant(type, k);
    const uint32_t value = EmitBefore(
        ctx, pos, op, type, {spirv::IdOperand(a_id), spirv::IdOperand(k_id)});
    InstPos moved = use;
    moved.index += pos.index - start;
    ctx.At(moved).mutable_operands()[operand].words[0] = value;
    ctx.facts().AddSynonym(constant, value);
  }
};

}  // namespace

const Transformation* ObfuscateConstantCompute() {
  static const ObfuscateConstantComputeKind* t =
      new ObfuscateConstantComputeKind;
  return t;
}

}  // namespace l0spv::generators::transform
