// Synonyms through identities: y = x + 0, x * 1, x ^ 0, x | 0, x & ~0,
// ~~x, -(-x), x && true, x || false, !!x, OpCopyObject x, a bitcast round
// trip, a composite construct then extract, an identity vector shuffle.
// Each adds the fact "y is a synonym of x", which replace_id_with_synonym
// then uses to rewrite uses of x.
#include <string>

#include "absl/strings/str_cat.h"
#include "generators/kernel/generator.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

enum class Identity {
  kIAddZero,
  kISubZero,
  kIMulOne,
  kXorZero,
  kOrZero,
  kAndOnes,
  kNotNot,
  kNegateNegate,
  kLogicalAndTrue,
  kLogicalOrFalse,
  kLogicalNotNot,
  kCopyObject,
  kBitcastRoundTrip,
  kCompositeRoundTrip,
  kShuffleIdentity,
};

struct IdentityKind {
  Identity identity;
  const char* name;
};

constexpr IdentityKind kIdentities[] = {
    {Identity::kIAddZero, "add_synonym_iadd_zero"},
    {Identity::kISubZero, "add_synonym_isub_zero"},
    {Identity::kIMulOne, "add_synonym_imul_one"},
    {Identity::kXorZero, "add_synonym_xor_zero"},
    {Identity::kOrZero, "add_synonym_or_zero"},
    {Identity::kAndOnes, "add_synonym_and_ones"},
    {Identity::kNotNot, "add_synonym_not_not"},
    {Identity::kNegateNegate, "add_synonym_negate_negate"},
    {Identity::kLogicalAndTrue, "add_synonym_logical_and_true"},
    {Identity::kLogicalOrFalse, "add_synonym_logical_or_false"},
    {Identity::kLogicalNotNot, "add_synonym_logical_not_not"},
    {Identity::kCopyObject, "add_synonym_copy_object"},
    {Identity::kBitcastRoundTrip, "add_synonym_bitcast_round_trip"},
    {Identity::kCompositeRoundTrip, "add_synonym_composite_round_trip"},
    {Identity::kShuffleIdentity, "add_synonym_vector_shuffle"},
};

bool HasCapability(const spirv::Module& m, spv::Capability c) {
  for (const spirv::Instruction& inst : m.capabilities)
    if (inst.word(0) == static_cast<uint32_t>(c)) return true;
  return false;
}

// The float type with the width of an int scalar/vector type's components
// (for the bitcast round trip), when the module may use it; 0 otherwise.
uint32_t FloatTwinWidth(TransformContext& ctx, const spirv::TypeInfo& scalar) {
  const spirv::Module& m = ctx.module();
  if (scalar.width == 32) return 32;
  if (scalar.width == 64 && HasCapability(m, spv::Capability::Float64))
    return 64;
  if (scalar.width == 16 && HasCapability(m, spv::Capability::Float16))
    return 16;
  return 0;
}

class IdentitySynonymKind : public Transformation {
 public:
  explicit IdentitySynonymKind(const IdentityKind& k) : k_(k) {}
  std::string_view kind() const override { return k_.name; }
  // llvm-spirv 14 -r turns OpCopyObject into an alloca in place
  // (known-consumer-bugs/llvm_spirv_copy_object_alloca); IGC cannot build
  // OpLogicalNot (known-consumer-bugs/logical_not).
  std::vector<oracles::KnownBugId> known_bugs() const override {
    switch (k_.identity) {
      case Identity::kCopyObject:
        return {oracles::KnownBugId::kLlvmSpirvCopyObjectAlloca};
      case Identity::kLogicalNotNot:
        return {oracles::KnownBugId::kLogicalNot};
      default:
        return {};
    }
  }

  // Whether values of `type` can take this identity.
  bool Fits(TransformContext& ctx, uint32_t type_id) const {
    const spirv::TypeTable& tt = ctx.types();
    const spirv::TypeInfo* t = tt.Get(type_id);
    if (t == nullptr) return false;
    const spirv::TypeInfo* s =
        t->op == Op::OpTypeVector ? tt.Get(t->element) : t;
    if (s == nullptr) return false;
    const bool is_int = s->op == Op::OpTypeInt;
    const bool is_bool = s->op == Op::OpTypeBool;
    const bool is_float = s->op == Op::OpTypeFloat;
    switch (k_.identity) {
      case Identity::kIAddZero:
      case Identity::kISubZero:
      case Identity::kIMulOne:
      case Identity::kXorZero:
      case Identity::kOrZero:
      case Identity::kAndOnes:
      case Identity::kNotNot:
      case Identity::kNegateNegate:
        return is_int;
      case Identity::kLogicalAndTrue:
      case Identity::kLogicalOrFalse:
      case Identity::kLogicalNotNot:
        return is_bool;
      case Identity::kCopyObject:
        return t->op != Op::OpTypeVoid && t->op != Op::OpTypeFunction;
      case Identity::kBitcastRoundTrip:
        return is_int && FloatTwinWidth(ctx, *s) != 0;
      case Identity::kCompositeRoundTrip:
        return (is_int || is_bool || is_float) && t->op != Op::OpTypeVector;
      case Identity::kShuffleIdentity:
        return t->op == Op::OpTypeVector && (is_int || is_bool || is_float);
    }
    return false;
  }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<InstPos> values =
        FindPositions(ctx, [&](const spirv::Instruction& inst, const InstPos&) {
          return inst.result_id() != 0 && inst.type_id() != 0 &&
                 Fits(ctx, inst.type_id());
        });
    std::optional<InstPos> def = PickPosition(values, rng);
    if (!def) return std::nullopt;
    const spirv::BasicBlock& bb = ctx.BlockAt(*def);
    const size_t lo =
        std::max(def->index + 1, TransformContext::FirstInsertionIndex(bb));
    const size_t hi = TransformContext::LastInsertionIndex(bb);
    if (lo > hi) return std::nullopt;
    InstPos at = *def;
    at.index = rng.Range(static_cast<uint32_t>(lo), static_cast<uint32_t>(hi));
    return Record{{"id", ctx.At(*def).result_id()},
                  {"before", ToJson(ctx.Describe(at))}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto pos = ResolveInsertionField(ctx, r, "before");
    if (!pos.ok()) return pos.status();
    const uint32_t id = Field<uint32_t>(r, "id");
    if (!ctx.IsAvailableAt(id, *pos))
      return absl::FailedPreconditionError(
          absl::StrCat("%", id, " is not available there"));
    const DefSite* d = ctx.Def(id);
    if (d == nullptr || d->function < 0 || !Fits(ctx, d->type_id))
      return absl::FailedPreconditionError(
          absl::StrCat("%", id, " is not a value of a fitting type"));
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    InstPos pos = *ResolveField(ctx, r, "before");
    const uint32_t x = Field<uint32_t>(r, "id");
    const uint32_t type = ctx.TypeOf(x);
    const spirv::TypeTable& tt = ctx.types();
    const spirv::TypeInfo* t = tt.Get(type);
    const bool vector = t->op == Op::OpTypeVector;
    const uint32_t scalar_type = vector ? t->element : type;
    const uint32_t lanes = vector ? t->count : 1;
    const spirv::TypeInfo scalar = *tt.Get(scalar_type);
    spirv::ModuleBuilder& mb = ctx.builder();
    auto splat = [&](uint32_t c) {
      if (!vector) return c;
      return mb.CompositeConstant(type, std::vector<uint32_t>(lanes, c));
    };
    auto int_const = [&](uint64_t v) {
      return splat(mb.IntConstant(scalar_type, v));
    };
    auto emit = [&](Op op, uint32_t result_type,
                    std::vector<spirv::Operand> operands) {
      const uint32_t id = ctx.NewId();
      InsertBefore(
          ctx, pos,
          spirv::Instruction(U(op), result_type, id, std::move(operands)));
      ++pos.index;
      return id;
    };
    auto binary = [&](Op op, uint32_t c) {
      return emit(op, type, {spirv::IdOperand(x), spirv::IdOperand(c)});
    };
    auto unary_twice = [&](Op op) {
      const uint32_t once = emit(op, type, {spirv::IdOperand(x)});
      return emit(op, type, {spirv::IdOperand(once)});
    };
    uint32_t y = 0;
    switch (k_.identity) {
      case Identity::kIAddZero:
        y = binary(Op::OpIAdd, int_const(0));
        break;
      case Identity::kISubZero:
        y = binary(Op::OpISub, int_const(0));
        break;
      case Identity::kIMulOne:
        y = binary(Op::OpIMul, int_const(1));
        break;
      case Identity::kXorZero:
        y = binary(Op::OpBitwiseXor, int_const(0));
        break;
      case Identity::kOrZero:
        y = binary(Op::OpBitwiseOr, int_const(0));
        break;
      case Identity::kAndOnes:
        y = binary(Op::OpBitwiseAnd, int_const(~uint64_t{0}));
        break;
      case Identity::kNotNot:
        y = unary_twice(Op::OpNot);
        break;
      case Identity::kNegateNegate:
        y = unary_twice(Op::OpSNegate);
        break;
      case Identity::kLogicalAndTrue:
        y = binary(Op::OpLogicalAnd, splat(mb.BoolConstant(true)));
        break;
      case Identity::kLogicalOrFalse:
        y = binary(Op::OpLogicalOr, splat(mb.BoolConstant(false)));
        break;
      case Identity::kLogicalNotNot:
        y = unary_twice(Op::OpLogicalNot);
        break;
      case Identity::kCopyObject:
        y = emit(Op::OpCopyObject, type, {spirv::IdOperand(x)});
        break;
      case Identity::kBitcastRoundTrip: {
        uint32_t ftype = mb.FloatType(FloatTwinWidth(ctx, scalar));
        if (vector) ftype = mb.VectorType(ftype, lanes);
        const uint32_t f = emit(Op::OpBitcast, ftype, {spirv::IdOperand(x)});
        y = emit(Op::OpBitcast, type, {spirv::IdOperand(f)});
        break;
      }
      case Identity::kCompositeRoundTrip: {
        // Built by insertion into a null vector: llvm-spirv 14 mishandles a
        // run-time OpCompositeConstruct (known-consumer-bugs/
        // composite_construct_runtime).
        const uint32_t vtype = mb.VectorType(type, 2);
        const uint32_t lane = static_cast<uint32_t>(pos.index % 2);
        const uint32_t null = mb.NullConstant(vtype);
        const uint32_t v = emit(Op::OpCompositeInsert, vtype,
                                {spirv::IdOperand(x), spirv::IdOperand(null),
                                 spirv::LiteralOperand(lane)});
        y = emit(Op::OpCompositeExtract, type,
                 {spirv::IdOperand(v), spirv::LiteralOperand(lane)});
        break;
      }
      case Identity::kShuffleIdentity: {
        std::vector<spirv::Operand> ops{spirv::IdOperand(x),
                                        spirv::IdOperand(x)};
        // Lanes from either copy of x: lane i comes from x or from the
        // second operand (also x) at i + lanes.
        for (uint32_t i = 0; i < lanes; ++i)
          ops.push_back(spirv::LiteralOperand(i % 2 == 0 ? i : i + lanes));
        y = emit(Op::OpVectorShuffle, type, std::move(ops));
        break;
      }
    }
    ctx.facts().AddSynonym(x, y);
  }

 private:
  IdentityKind k_;
};

}  // namespace

std::vector<const Transformation*> IdentitySynonymKinds() {
  static const std::vector<const Transformation*>* kinds = [] {
    auto* v = new std::vector<const Transformation*>;
    for (const IdentityKind& k : kIdentities)
      v->push_back(new IdentitySynonymKind(k));
    return v;
  }();
  return *kinds;
}

}  // namespace l0spv::generators::transform
