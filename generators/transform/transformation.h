// generators/transform/transformation.h — one kind of semantics-preserving
// transformation: find an opportunity, re-check it, apply it.
//
// Contract:
//  - A record is a JSON object {"kind": ..., kind-specific fields...,
//    "fresh_ids": [...]}; the engine owns "kind" and "fresh_ids".
//  - Propose looks for an opportunity (using `rng` for every choice) and
//    returns a record for it, or nullopt; it does not edit the module.
//  - Check re-validates everything Apply relies on, from the record and the
//    module alone (plus facts), without editing the module: a record taken
//    out of its log, or replayed on another module, fails Check cleanly.
//    Malformed fields may throw nlohmann::json exceptions; the engine turns
//    them into InvalidArgument.
//  - Apply runs only after Check passed. It draws every new id from
//    ctx.NewId() (or the builder) in a deterministic order, may add facts,
//    and must keep the module valid and every result of the test case
//    unchanged.
#pragma once

#include <optional>
#include <string_view>

#include "absl/status/status.h"
#include "generators/kernel/random.h"
#include "generators/transform/context.h"
#include "nlohmann/json.hpp"

namespace l0spv::transform {

using Record = nlohmann::json;
using Rng = generators::Rng;

class Transformation {
 public:
  virtual ~Transformation() = default;
  // Stable name used in records and logs, e.g. "swap_commutative_operands".
  virtual std::string_view kind() const = 0;
  virtual std::optional<Record> Propose(TransformContext& ctx,
                                        Rng& rng) const = 0;
  virtual absl::Status Check(TransformContext& ctx, const Record& r) const = 0;
  virtual void Apply(TransformContext& ctx, const Record& r) const = 0;
  // Consumers (generators::KnownBugs bits) with a filed bug this kind's
  // output triggers (corpora/known-consumer-bugs/); campaigns against them
  // leave the kind out.
  virtual uint32_t known_bugs() const { return 0; }
};

}  // namespace l0spv::transform
