#include "tests/consumers/sidecar_tolerance.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace l0spv::consumers_test {
namespace {

absl::Status Bad(const std::string& where, size_t i, const std::string& what) {
  return absl::InvalidArgumentError(
      absl::StrCat(where, ": tolerance[", i, "]: ", what,
                   " (see corpora/README.md, sidecar field \"tolerance\")"));
}

}  // namespace

absl::StatusOr<oracles::CompareOptions> ToleranceFromSidecar(
    const nlohmann::json& sidecar, const std::string& where) {
  oracles::CompareOptions options;
  // Older sidecars say "tolerance"; image sidecars use "tolerances", the name
  // case.json and spirv::LoadSidecarCase read. A sidecar carries one of them.
  const bool singular = sidecar.contains("tolerance");
  const bool plural = sidecar.contains("tolerances");
  if (singular && plural)
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": give either \"tolerance\" or \"tolerances\", not both"));
  if (!singular && !plural) return options;
  const char* key = singular ? "tolerance" : "tolerances";
  const nlohmann::json& list = sidecar[key];
  if (!list.is_array())
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": \"", key, "\" must be an array"));
  const size_t num_args = sidecar.contains("args") && sidecar["args"].is_array()
                              ? sidecar["args"].size()
                              : 0;
  for (size_t i = 0; i < list.size(); ++i) {
    const nlohmann::json& e = list[i];
    if (!e.is_object()) return Bad(where, i, "expected an object");
    oracles::FloatTolerance t;
    if (!e.contains("arg") || !e["arg"].is_number_unsigned())
      return Bad(where, i, "\"arg\" must be an argument index");
    t.arg = e["arg"].get<size_t>();
    if (t.arg >= num_args)
      return Bad(where, i, absl::StrCat("\"arg\" ", t.arg, " is out of range"));
    const std::string type = e.value("type", "");
    if (type == "f16") {
      t.type = oracles::FloatType::kF16;
    } else if (type == "f32") {
      t.type = oracles::FloatType::kF32;
    } else if (type == "f64") {
      t.type = oracles::FloatType::kF64;
    } else {
      return Bad(where, i, "\"type\" must be f16, f32 or f64");
    }
    for (const char* key : {"ulp", "relative", "absolute"}) {
      if (e.contains(key) && (!e[key].is_number() || e[key].get<double>() < 0))
        return Bad(where, i, absl::StrCat("\"", key, "\" must be >= 0"));
    }
    t.ulp = e.value("ulp", 0.0);
    t.relative = e.value("relative", 0.0);
    t.absolute = e.value("absolute", 0.0);
    t.skip = e.value("skip", false);
    t.reason = e.value("reason", "");
    if (e.contains("record")) {
      if (!e["record"].is_number_unsigned() || e["record"].get<uint64_t>() == 0)
        return Bad(where, i, "\"record\" must be a positive element count");
      t.record = e["record"].get<uint64_t>();
    }
    if (e.contains("fields")) {
      if (!e["fields"].is_array() || t.record == 0)
        return Bad(where, i,
                   "\"fields\" must be an array and needs \"record\"");
      for (const auto& f : e["fields"]) {
        if (!f.is_number_unsigned() || f.get<uint64_t>() >= t.record)
          return Bad(where, i, "every field must be an index below \"record\"");
        t.fields.push_back(f.get<uint64_t>());
      }
    }
    if (!t.skip && t.ulp == 0 && t.relative == 0 && t.absolute == 0)
      return Bad(where, i,
                 "give \"ulp\", \"relative\", \"absolute\" or "
                 "\"skip\": true");
    if (t.skip && t.reason.empty())
      return Bad(where, i, "\"skip\": true needs a \"reason\"");
    options.tolerances.push_back(std::move(t));
  }
  return options;
}

}  // namespace l0spv::consumers_test
