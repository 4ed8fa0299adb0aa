// generators/transform/kinds/single_instruction_kind.h — the shape shared by
// kinds that rewrite one instruction chosen by a predicate.
//
// Contract: the record is {"instruction": descriptor}. Propose picks a
// uniformly random reachable instruction for which Matches holds; Check
// resolves the descriptor and re-tests Matches (FailedPrecondition naming
// `requirement()` otherwise); Rewrite edits the module at that position.
#pragma once

#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"

namespace l0spv::generators::transform {

class SingleInstructionKind : public Transformation {
 public:
  std::optional<Record> Propose(TransformContext& ctx, Rng& rng) const final {
    auto pos = PickPosition(
        FindPositions(ctx, [&](const spirv::Instruction& inst,
                               const InstPos&) { return Matches(inst); }),
        rng);
    if (!pos) return std::nullopt;
    return Record{{"instruction", ToJson(ctx.Describe(*pos))}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const final {
    auto pos = ResolveField(ctx, r, "instruction");
    if (!pos.ok()) return pos.status();
    const spirv::Instruction& inst = ctx.At(*pos);
    if (!Matches(inst))
      return absl::FailedPreconditionError(
          absl::StrCat(std::string(inst.name()), " is not ", requirement()));
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const final {
    Rewrite(ctx, *ResolveField(ctx, r, "instruction"));
  }

 protected:
  virtual bool Matches(const spirv::Instruction& inst) const = 0;
  // What Matches requires, for error messages ("an integer comparison").
  virtual const char* requirement() const = 0;
  virtual void Rewrite(TransformContext& ctx, const InstPos& pos) const = 0;
};

}  // namespace l0spv::generators::transform
