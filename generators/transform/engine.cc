#include "generators/transform/engine.h"

#include <algorithm>
#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "generators/kernel/random.h"
#include "generators/transform/context.h"
#include "generators/transform/duplicate_linkonce.h"
#include "generators/transform/registry.h"
#include "generators/transform/split_module.h"
#include "oracles/known_bugs/registry.h"
#include "spirv/binary.h"
#include "spirv/hash.h"
#include "spirv/spirv_tools.h"

namespace l0spv::generators::transform {
namespace {

// Ids stay below this (the analyses index by id; logs cannot make a
// replay allocate without bound).
constexpr uint32_t kMaxIdBound = 0x400000;

// Reads and validates the module of a case, and finds its entry point.
absl::StatusOr<spirv::Module> ReadCaseModule(const spirv::TestCase& tc) {
  auto module = spirv::ReadModuleWords(tc.module_words);
  if (!module.ok())
    return absl::InvalidArgumentError(
        absl::StrCat("cannot transform: ", module.status().message()));
  if (module->header.bound > kMaxIdBound)
    return absl::InvalidArgumentError(
        absl::StrCat("cannot transform: the module's id bound ",
                     module->header.bound, " is above ", kMaxIdBound,
                     " (compact its ids, e.g. spirv-opt "
                     "--compact-ids)"));
  return module;
}

absl::Status CheckFreshIds(TransformContext& ctx, const Record& r) {
  if (!r.contains("fresh_ids")) return absl::OkStatus();
  const nlohmann::json& ids = r["fresh_ids"];
  if (!ids.is_array())
    return absl::InvalidArgumentError("\"fresh_ids\" must be an array");
  std::vector<uint32_t> seen;
  for (const nlohmann::json& id : ids) {
    if (!id.is_number_integer() || id.get<int64_t>() <= 0 ||
        id.get<int64_t>() >= kMaxIdBound)
      return absl::InvalidArgumentError(
          absl::StrCat("fresh id ", id.dump(), " is not a usable id"));
    const uint32_t v = id.get<uint32_t>();
    if (ctx.Def(v) != nullptr)
      return absl::FailedPreconditionError(
          absl::StrCat("fresh id ", v, " is already defined in the module"));
    if (std::find(seen.begin(), seen.end(), v) != seen.end())
      return absl::InvalidArgumentError(
          absl::StrCat("fresh id ", v, " is listed twice"));
    seen.push_back(v);
  }
  return absl::OkStatus();
}

// Every number a record holds is an id, an index or a count (32 bits), or a
// constant's bits ("left.value": 64 bits). nlohmann's get<uint32_t> would
// silently truncate 4294967296 + x to x, and get<size_t> wrap -1; so every
// number is checked here, before any kind reads it.
absl::Status CheckRecordNumbers(const nlohmann::json& j,
                                const std::string& path) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (auto s =
              CheckRecordNumbers(it.value(), absl::StrCat(path, ".", it.key()));
          !s.ok())
        return s;
    }
    return absl::OkStatus();
  }
  if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) {
      if (auto s = CheckRecordNumbers(j[i], absl::StrCat(path, "[", i, "]"));
          !s.ok())
        return s;
    }
    return absl::OkStatus();
  }
  if (!j.is_number()) return absl::OkStatus();
  // Only obfuscate_constant_compute's constant operand is 64 bits wide.
  const bool wide = absl::EndsWith(path, ".left.value");
  const uint64_t max = wide ? ~uint64_t{0} : 0xffffffffu;
  if (!j.is_number_unsigned() &&
      !(j.is_number_integer() && j.get<int64_t>() >= 0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "field '", path, "': expected a non-negative integer, got ", j.dump()));
  }
  if (j.get<uint64_t>() > max) {
    return absl::InvalidArgumentError(
        absl::StrCat("field '", path, "': ", j.dump(), " does not fit in ",
                     wide ? 64 : 32, " bits"));
  }
  return absl::OkStatus();
}

// Runs Check, turning malformed-field exceptions into InvalidArgument.
absl::Status CheckRecord(const Transformation& t, TransformContext& ctx,
                         const Record& r) {
  try {
    if (absl::Status s = CheckRecordNumbers(r, "record"); !s.ok()) return s;
    if (absl::Status s = CheckFreshIds(ctx, r); !s.ok()) return s;
    return t.Check(ctx, r);
  } catch (const RecordFieldError& e) {
    return absl::InvalidArgumentError(
        absl::StrCat("malformed record: ", e.what()));
  } catch (const nlohmann::json::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat(
        "malformed record: a field has the wrong shape (", e.what(), ")"));
  }
}

// Whether kind `t` may be used on a case these options describe.
bool KindAllowed(const Transformation& t, const TransformOptions& o) {
  return oracles::KnownBugsAllowed(t.known_bugs(), o.avoid_known_bugs,
                                   o.allowed_bugs);
}

std::vector<const Transformation*> EnabledKinds(const TransformOptions& o,
                                                Rng& rng,
                                                absl::Status* status) {
  std::vector<const Transformation*> out;
  if (o.kinds.empty()) {
    std::vector<const Transformation*> usable;
    for (const Transformation* t : AllTransformations())
      if (KindAllowed(*t, o)) usable.push_back(t);
    for (const Transformation* t : usable)
      if (rng.OneIn(2)) out.push_back(t);
    if (out.empty() && !usable.empty())
      out.push_back(usable[rng.Below(static_cast<uint32_t>(usable.size()))]);
    return out;
  }
  for (const std::string& k : o.kinds) {
    const Transformation* t = FindTransformation(k);
    if (t == nullptr) {
      std::vector<std::string> names;
      for (const Transformation* x : AllTransformations())
        names.emplace_back(x->kind());
      *status = absl::InvalidArgumentError(
          absl::StrCat("unknown transformation kind '", k,
                       "'; kinds: ", absl::StrJoin(names, ", ")));
      return {};
    }
    if (!KindAllowed(*t, o)) {
      *status = absl::InvalidArgumentError(
          absl::StrCat("transformation kind '", k,
                       "' triggers a known bug of a chosen target (see "
                       "corpora/known-consumer-bugs/)"));
      return {};
    }
    out.push_back(t);
  }
  return out;
}

bool IsCaseLevelKind(const std::string& kind) {
  return kind == kSplitModuleKind || kind == kDuplicateLinkOnceKind;
}

// A case-level record, applied to the case its predecessors made: what the
// record names (the gates were decided when it was recorded).
absl::StatusOr<spirv::TestCase> ApplyCaseRecord(const spirv::TestCase& tc,
                                                const Record& r) {
  try {
    if (absl::Status s = CheckRecordNumbers(r, "record"); !s.ok()) return s;
    if (Field<std::string>(r, "kind") == kSplitModuleKind) {
      SplitOptions options;
      options.seed = Field<uint64_t>(r, "seed");
      options.modules = Field<uint32_t>(r, "modules");
      auto split = SplitModule(tc, options);
      if (!split.ok()) return split.status();
      return std::move(split->test_case);
    }
    DuplicateOptions options;
    options.seed = Field<uint64_t>(r, "seed");
    options.avoid_known_bugs = Field<uint32_t>(r, "avoid_known_bugs");
    return DuplicateLinkOnce(tc, options);
  } catch (const RecordFieldError& e) {
    return absl::InvalidArgumentError(
        absl::StrCat("malformed record: ", e.what()));
  }
}

// `test_case`'s log (a new one over its module when it has none) with `r`
// appended.
nlohmann::json LogWith(const spirv::TestCase& test_case, Record r) {
  nlohmann::json log = test_case.transformation_log
                           ? *test_case.transformation_log
                           : MakeLog(test_case.module_words, {});
  log["records"].push_back(std::move(r));
  return log;
}

}  // namespace

std::string ModuleHash(std::span<const uint32_t> words) {
  return absl::StrFormat("%016x", spirv::Fnv1a64Words(words));
}

nlohmann::json MakeLog(std::span<const uint32_t> original_words,
                       std::vector<nlohmann::json> records) {
  return {{"format", kLogFormat},
          {"module_hash", ModuleHash(original_words)},
          {"records", std::move(records)}};
}

absl::StatusOr<std::vector<nlohmann::json>> LogRecords(
    const nlohmann::json& log) {
  constexpr size_t kMaxRecords = 1 << 20;
  if (!log.is_object() || !log.contains("format") ||
      !log["format"].is_string() || log["format"] != kLogFormat ||
      !log.contains("records") || !log["records"].is_array() ||
      log["records"].size() > kMaxRecords) {
    return absl::InvalidArgumentError(absl::StrCat(
        "not a transformation log: expected an object with "
        "\"format\": \"",
        kLogFormat, "\" and a \"records\" array (at most ", kMaxRecords, ")"));
  }
  if (log.contains("seed") && !log["seed"].is_number_unsigned()) {
    return absl::InvalidArgumentError(
        absl::StrCat("field 'seed': expected an unsigned integer, got ",
                     log["seed"].dump()));
  }
  std::vector<nlohmann::json> out;
  for (size_t i = 0; i < log["records"].size(); ++i) {
    const nlohmann::json& r = log["records"][i];
    if (!r.is_object() || !r.contains("kind") || !r["kind"].is_string())
      return absl::InvalidArgumentError(absl::StrCat(
          "record ", i, " of the log is not an object with a \"kind\""));
    out.push_back(r);
  }
  return out;
}

absl::StatusOr<TransformResult> Transform(const spirv::TestCase& original,
                                          const TransformOptions& options) {
  if (!original.linked_modules.empty())
    return absl::InvalidArgumentError(
        "cannot transform a case of several modules: transform the whole "
        "case, then split it (split_module is the last record of a log)");
  auto module = ReadCaseModule(original);
  if (!module.ok()) return module.status();
  if (absl::Status s = !options.validate_input
                           ? absl::OkStatus()
                           : spirv::Validate(original.module_words,
                                             spirv::UniversalEnvForVersion(
                                                 module->header.version));
      !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot transform an invalid module (transformations preserve "
        "semantics, an invalid module has none): ",
        s.message()));
  }
  TransformContext ctx(*module, original);
  if (ctx.entry_function() < 0)
    return absl::InvalidArgumentError(
        absl::StrCat("the module has no kernel named '", original.entry_point,
                     "' (the test case's entry point)"));
  Rng rng(options.seed ^ 0x7472616e73666f72ULL);
  absl::Status kinds_status;
  TransformResult result;
  std::vector<const Transformation*> enabled =
      EnabledKinds(options, rng, &kinds_status);
  if (!kinds_status.ok()) return kinds_status;
  if (enabled.empty())
    return absl::InvalidArgumentError("no transformation kind is usable");
  for (const Transformation* t : enabled)
    result.enabled_kinds.emplace_back(t->kind());
  const uint32_t count = options.count != 0 ? options.count : rng.Range(1, 200);
  std::vector<nlohmann::json> records;
  for (uint32_t attempts = 0;
       records.size() < count && attempts < count * 10 + 20; ++attempts) {
    const Transformation& t =
        *enabled[rng.Below(static_cast<uint32_t>(enabled.size()))];
    std::optional<Record> r = t.Propose(ctx, rng);
    if (!r) continue;
    (*r)["kind"] = std::string(t.kind());
    if (!CheckRecord(t, ctx, *r).ok()) continue;
    std::vector<uint32_t> ids;
    ctx.BeginRecording(&ids);
    t.Apply(ctx, *r);
    ctx.EndIds();
    ctx.Invalidate();
    (*r)["fresh_ids"] = ids;
    ++result.applied[std::string(t.kind())];
    records.push_back(std::move(*r));
  }
  result.log = MakeLog(original.module_words, std::move(records));
  result.log["seed"] = options.seed;
  result.test_case = original;
  result.test_case.module_words = spirv::EncodeModule(*module);
  result.test_case.transformation_log = result.log;
  return result;
}

absl::StatusOr<ReplayResult> Replay(const spirv::TestCase& original,
                                    const nlohmann::json& log,
                                    const ReplayOptions& options) {
  auto records = LogRecords(log);
  if (!records.ok()) return records.status();
  if (options.check_module_hash && log.contains("module_hash") &&
      log["module_hash"] != ModuleHash(original.module_words)) {
    return absl::InvalidArgumentError(
        absl::StrCat("the log was recorded on another module (module hash ",
                     log["module_hash"].dump(), ", this module ",
                     ModuleHash(original.module_words),
                     "): replay it on the original case it came from"));
  }
  auto module = ReadCaseModule(original);
  if (!module.ok()) return module.status();
  TransformContext ctx(*module, original);
  if (ctx.entry_function() < 0)
    return absl::InvalidArgumentError(
        absl::StrCat("the module has no kernel named '", original.entry_point,
                     "' (the test case's entry point)"));
  // Overflow ids sit above every id any record names, so a record whose
  // predecessors were dropped never collides with a later record's ids.
  uint32_t overflow = module->header.bound;
  for (const nlohmann::json& r : *records) {
    if (!r.contains("fresh_ids") || !r["fresh_ids"].is_array()) continue;
    for (const nlohmann::json& id : r["fresh_ids"])
      if (id.is_number_integer() && id.get<int64_t>() > 0 &&
          id.get<int64_t>() < kMaxIdBound)
        overflow = std::max(overflow, id.get<uint32_t>() + 1);
  }
  ReplayResult result;
  std::vector<size_t> case_records;
  for (size_t i = 0; i < records->size(); ++i) {
    const Record& r = (*records)[i];
    const std::string kind = r["kind"].get<std::string>();
    if (IsCaseLevelKind(kind)) {
      case_records.push_back(i);
      continue;
    }
    if (!case_records.empty())
      return absl::InvalidArgumentError(absl::StrCat(
          "record ", i, " (", kind, ") follows a ",
          (*records)[case_records[0]]["kind"].get<std::string>(),
          " record: the case-level kinds (split_module, "
          "duplicate_linkonce) come last (the kinds before them edit one "
          "module)"));
    const Transformation* t = FindTransformation(kind);
    if (t == nullptr)
      return absl::InvalidArgumentError(absl::StrCat(
          "record ", i, ": unknown transformation kind '", kind, "'"));
    if (absl::Status s = CheckRecord(*t, ctx, r); !s.ok()) {
      if (options.skip_inapplicable) {
        result.skipped.push_back(i);
        continue;
      }
      return absl::FailedPreconditionError(absl::StrCat(
          "record ", i, " (", kind, ") does not apply: ", s.message()));
    }
    std::vector<uint32_t> ids;
    if (r.contains("fresh_ids"))
      ids = r["fresh_ids"].get<std::vector<uint32_t>>();
    ctx.BeginReplaying(ids, &overflow);
    try {
      t->Apply(ctx, r);
    } catch (const std::exception& e) {
      ctx.EndIds();
      return absl::InternalError(
          absl::StrCat("record ", i, " (", kind,
                       ") passed its check but its apply "
                       "failed: ",
                       e.what()));
    }
    ctx.EndIds();
    ctx.Invalidate();
  }
  result.test_case = original;
  result.test_case.module_words = spirv::EncodeModule(*module);
  for (size_t i : case_records) {
    auto next = ApplyCaseRecord(result.test_case, (*records)[i]);
    if (next.ok()) {
      result.test_case = *std::move(next);
    } else if (options.skip_inapplicable) {
      result.skipped.push_back(i);
    } else {
      return absl::FailedPreconditionError(absl::StrCat(
          "record ", i, " (", (*records)[i]["kind"].get<std::string>(),
          ") does not apply: ", next.status().message()));
    }
  }
  result.test_case.transformation_log = log;
  return result;
}

absl::StatusOr<spirv::TestCase> SplitAndLog(const spirv::TestCase& test_case,
                                            const SplitOptions& options) {
  auto split = SplitModule(test_case, options);
  if (!split.ok()) return split.status();
  split->test_case.transformation_log =
      LogWith(test_case, {{"kind", kSplitModuleKind},
                          {"seed", options.seed},
                          {"modules", options.modules}});
  return std::move(split->test_case);
}

absl::StatusOr<spirv::TestCase> DuplicateLinkOnceAndLog(
    const spirv::TestCase& test_case, const DuplicateOptions& options) {
  auto copied = DuplicateLinkOnce(test_case, options);
  if (!copied.ok()) return copied.status();
  copied->transformation_log =
      LogWith(test_case, {{"kind", kDuplicateLinkOnceKind},
                          {"seed", options.seed},
                          {"avoid_known_bugs", options.avoid_known_bugs}});
  return copied;
}

absl::StatusOr<spirv::TestCase> SplitCase(const spirv::TestCase& test_case,
                                          const SplitOptions& options,
                                          bool linkonce) {
  auto split = SplitAndLog(test_case, options);
  if (!split.ok() || !linkonce) return split;
  kernel::Rng rng(options.seed ^ 0x6475706c69636174ULL);
  if (!rng.OneIn(2)) return split;
  auto copied = DuplicateLinkOnceAndLog(
      *split,
      {.seed = options.seed, .avoid_known_bugs = options.avoid_known_bugs});
  if (absl::IsFailedPrecondition(copied.status())) return split;
  return copied;
}

bool LinkonceAllowed(uint32_t avoid_known_bugs,
                     std::span<const oracles::KnownBugId> allowed) {
  constexpr oracles::KnownBugId kLinkonceBugs[] = {
      oracles::KnownBugId::kSpirvLinkLinkonceOdrImport,
      oracles::KnownBugId::kSpirvLinkLinkonceOdrDecoration};
  return oracles::KnownBugsAllowed(kLinkonceBugs, avoid_known_bugs, allowed);
}

}  // namespace l0spv::generators::transform
