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
//    Kinds read fields through Field<T>(record, "name"), which throws
//    RecordFieldError naming the field when it is missing or of another
//    JSON type (a bool is not a number); other malformed shapes may throw
//    nlohmann::json exceptions. The engine turns both into InvalidArgument.
//  - Apply runs only after Check passed. It draws every new id from
//    ctx.NewId() (or the builder) in a deterministic order, may add facts,
//    and must keep the module valid and every result of the test case
//    unchanged.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "generators/kernel/random.h"
#include "generators/transform/context.h"
#include "nlohmann/json.hpp"
#include "oracles/known_bugs/registry.h"

namespace l0spv::generators::transform {

using Record = nlohmann::json;
using Rng = generators::kernel::Rng;

// A record field that is missing or of the wrong JSON type.
class RecordFieldError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The field `name` of record (or sub-object) `r` as a T, checked: unsigned
// integers and sizes must be JSON integers (the engine already checked their
// range), strings strings, bools bools, id lists arrays of integers.
// The member `name` of `r`, which must be an object holding it.
inline const Record& Member(const Record& r, const char* name) {
  if (!r.is_object())
    throw RecordFieldError(std::string("expected an object holding '") + name +
                           "', got " + r.type_name());
  auto it = r.find(name);
  if (it == r.end())
    throw RecordFieldError(std::string("field '") + name + "' is missing");
  return *it;
}

template <typename T>
T Field(const Record& r, const char* name) {
  const Record& v = Member(r, name);
  bool ok = false;
  const char* want = "";
  if constexpr (std::is_same_v<T, bool>) {
    ok = v.is_boolean();
    want = "true or false";
  } else if constexpr (std::is_integral_v<T>) {
    ok = v.is_number_integer();
    want = "an integer";
  } else if constexpr (std::is_same_v<T, std::string>) {
    ok = v.is_string();
    want = "a string";
  } else {
    static_assert(std::is_same_v<T, std::vector<uint32_t>>);
    ok = v.is_array();
    for (const Record& e : v) ok = ok && e.is_number_integer();
    want = "an array of integers";
  }
  if (!ok)
    throw RecordFieldError(std::string("field '") + name + "': expected " +
                           want + ", got " + v.dump());
  return v.get<T>();
}

// The sub-object `name` of record `r`, checked.
inline const Record& ObjectField(const Record& r, const char* name) {
  const Record& v = Member(r, name);
  if (!v.is_object())
    throw RecordFieldError(std::string("field '") + name +
                           "': expected an object, got " + v.dump());
  return v;
}

class Transformation {
 public:
  virtual ~Transformation() = default;
  // Stable name used in records and logs, e.g. "swap_commutative_operands".
  virtual std::string_view kind() const = 0;
  virtual std::optional<Record> Propose(TransformContext& ctx,
                                        Rng& rng) const = 0;
  virtual absl::Status Check(TransformContext& ctx, const Record& r) const = 0;
  virtual void Apply(TransformContext& ctx, const Record& r) const = 0;
  // The kinds (their kind() names) whose application creates the
  // opportunities this kind needs on typical kernels, e.g. add_dead_store
  // stores only into locals that add_local_variable added. A run restricted
  // to this kind should enable them too (the tests do; `transform --list`
  // shows them). Every name is a registered kind (tests/transform checks).
  virtual std::vector<std::string_view> enablers() const { return {}; }
  // The registry entries (corpora/known-consumer-bugs/registry.json) whose
  // construct this kind's output can contain; campaigns against their
  // consumers leave the kind out.
  virtual std::vector<oracles::KnownBugId> known_bugs() const { return {}; }
};

}  // namespace l0spv::generators::transform
