#include "oracles/targets/adapter_util.h"

#include <signal.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <regex>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"
#include "oracles/execution_json.h"
#include "oracles/targets/warm_reference.h"
#include "spirv/binary.h"
#include "spirv/file_io.h"
#include "spirv/spirv_tools.h"
#include "spirv/text_bytes.h"

namespace l0spv::oracles {

std::string LastLines(const std::string& text, size_t lines) {
  size_t end = text.size();
  while (end > 0 && text[end - 1] == '\n') --end;
  size_t pos = end;
  for (size_t n = 0; n < lines && pos > 0; ++n) {
    const size_t nl = text.rfind('\n', pos - 1);
    if (nl == std::string::npos) {
      pos = 0;
      break;
    }
    pos = nl;
  }
  const size_t start = (pos > 0 || (end > 0 && text[0] == '\n')) ? pos + 1 : 0;
  return start >= end ? "" : text.substr(start, end - start);
}

std::string NormalizedFirstError(const std::string& log,
                                 const std::string& scratch) {
  std::vector<std::string> lines;
  for (absl::string_view line : absl::StrSplit(log, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (!line.empty()) lines.emplace_back(line);
  }
  std::string first;
  for (size_t i = 0; i < lines.size() && first.empty(); ++i) {
    if (!absl::StrContains(absl::AsciiStrToLower(lines[i]), "error")) continue;
    first = lines[i];
    if (absl::EndsWith(first, ":") && i + 1 < lines.size())
      absl::StrAppend(&first, " ", lines[i + 1]);
  }
  if (first.empty() && !lines.empty()) first = lines[0];
  if (!scratch.empty())
    first = absl::StrReplaceAll(first, {{scratch, "<dir>"}});
  // Addresses differ from run to run; the rest of the line is the signature.
  static const std::regex kHex("0x[0-9a-fA-F]+");
  first = std::regex_replace(first, kHex, "0x?");
  absl::RemoveExtraAsciiWhitespace(&first);
  return first;
}

RunClock::RunClock(std::chrono::milliseconds budget)
    : deadline_(std::chrono::steady_clock::now() + budget) {}

std::chrono::milliseconds RunClock::Remaining() const {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline_ - std::chrono::steady_clock::now());
  return std::max(left, std::chrono::milliseconds(1));
}

ChildLimits RunClock::Limits(const TargetRunLimits& limits,
                             size_t max_output_bytes) const {
  ChildLimits out;
  out.wall_time = Remaining();
  out.memory_bytes = limits.memory_bytes;
  out.max_output_bytes = max_output_bytes;
  return out;
}

Execution AbnormalEnding(const ChildResult& child, const std::string& who) {
  const std::string tail = LastLines(child.stderr_text, 40);
  const std::string last = LastLines(tail, 1);
  switch (child.ending) {
    case ChildResult::Ending::kTimedOut:
      return FailedExecution(ExecutionStatus::kTimedOut,
                             absl::StrCat(who, " ", child.Describe()), tail);
    case ChildResult::Ending::kSignaled:
      return FailedExecution(ExecutionStatus::kCrashed,
                             absl::StrCat(who, " crashed: ", child.Describe(),
                                          last.empty() ? "" : ": ", last),
                             tail);
    case ChildResult::Ending::kExited:
      break;
  }
  return Execution{};
}

Execution ExecutionFromWorker(const absl::StatusOr<ChildResult>& child,
                              const std::string& who) {
  if (!child.ok()) {
    return FailedExecution(ExecutionStatus::kUnsupported,
                           absl::StrCat("harness: cannot start the ", who,
                                        " worker: ", child.status().message()));
  }
  if (child->ending != ChildResult::Ending::kExited)
    return AbnormalEnding(*child, who);
  const std::string tail = LastLines(child->stderr_text, 40);
  if (child->exit_code != 0) {
    return FailedExecution(
        ExecutionStatus::kCrashed,
        absl::StrCat(who, " worker ended without a result (", child->Describe(),
                     ")", tail.empty() ? "" : ": ", LastLines(tail, 1)),
        tail);
  }
  const auto reply =
      nlohmann::json::parse(child->stdout_text, nullptr, /*allow_exceptions=*/
                            false);
  auto parsed = ExecutionFromJson(reply);
  if (reply.is_discarded() || !parsed.ok()) {
    return FailedExecution(
        ExecutionStatus::kCrashed,
        absl::StrCat(who, " worker returned an unreadable result",
                     parsed.ok() ? "" : ": ",
                     parsed.ok() ? "" : parsed.status().message()),
        tail);
  }
  if (!tail.empty()) {
    absl::StrAppend(&parsed->log, parsed->log.empty() ? "" : "\n",
                    "[worker stderr]\n", tail);
  }
  return *std::move(parsed);
}

Execution RunReferenceInWorker(const spirv::TestCase& test_case,
                               const reference::ReferenceOptions& options,
                               const ChildLimits& limits) {
  // The warm worker first; what it cannot answer (a crash, an unreadable
  // reply) runs again in a worker of its own, which names the crash. A
  // launch that ran out of time there would only run out of it again.
  auto warm = RunReferenceBatchWarm({&test_case, 1}, options, limits);
  if (warm.ok()) return std::move(warm->front());
  if (absl::IsDeadlineExceeded(warm.status())) {
    ChildResult timed_out;
    timed_out.ending = ChildResult::Ending::kTimedOut;
    timed_out.signal = SIGKILL;
    timed_out.wall_time = limits.wall_time;
    return AbnormalEnding(timed_out, "reference interpreter");
  }
  ChildLimits worker_limits = limits;
  // Buffers travel back as base64 JSON: allow their size several times over.
  size_t bytes = 0;
  for (const spirv::KernelArg& a : test_case.args) bytes += a.bytes.size();
  worker_limits.max_output_bytes =
      std::max(worker_limits.max_output_bytes, 2 * bytes + (size_t{16} << 20));
  auto child = RunInChild(
      [&] {
        return spirv::DumpJson(
            ExecutionToJson(reference::RunReference(test_case, options)));
      },
      worker_limits);
  return ExecutionFromWorker(child, "reference interpreter");
}

std::vector<Execution> RunReferenceBatchInWorker(
    std::span<const spirv::TestCase> launches,
    const reference::ReferenceOptions& options, const RunClock& clock,
    const TargetRunLimits& limits) {
  std::vector<Execution> results;
  // The warm worker runs the batch; when it cannot answer, a launch crashed
  // or hung it, and a cold worker for the whole batch would only do it
  // again: each launch then runs on its own.
  if (launches.size() > 1 && WarmReferenceEnabled()) {
    auto warm = RunReferenceBatchWarm(launches, options, clock.Limits(limits));
    if (warm.ok()) return *std::move(warm);
  } else if (launches.size() > 1) {
    ChildLimits worker_limits = clock.Limits(limits);
    size_t bytes = 0;
    for (const spirv::TestCase& l : launches)
      for (const spirv::KernelArg& a : l.args) bytes += a.bytes.size();
    worker_limits.max_output_bytes = std::max(worker_limits.max_output_bytes,
                                              2 * bytes + (size_t{16} << 20));
    auto child = RunInChild(
        [&] {
          nlohmann::json list = nlohmann::json::array();
          for (const Execution& e :
               reference::RunReferenceBatch(launches, options))
            list.push_back(ExecutionToJson(e));
          return spirv::DumpJson(list);
        },
        worker_limits);
    if (child.ok() && child->ending == ChildResult::Ending::kExited &&
        child->exit_code == 0) {
      const auto reply = nlohmann::json::parse(child->stdout_text, nullptr,
                                               /*allow_exceptions=*/false);
      if (reply.is_array() && reply.size() == launches.size()) {
        for (const nlohmann::json& one : reply) {
          auto e = ExecutionFromJson(one);
          if (!e.ok()) break;
          results.push_back(*std::move(e));
        }
        if (results.size() == launches.size()) return results;
      }
    }
    results.clear();
  }
  // One launch, or the shared worker did not come back whole (a crash or
  // hang of one launch): each launch in its own worker, so each result is
  // its own.
  for (const spirv::TestCase& l : launches)
    results.push_back(RunReferenceInWorker(l, options, clock.Limits(limits)));
  return results;
}

absl::Status ValidateLikeReference(const std::vector<uint32_t>& words) {
  return spirv::Validate(
      words, spirv::UniversalEnvForVersion(words.size() > 1 ? words[1] : 0));
}

namespace {

// The body-less functions `produced` declares and `input` does not, joined
// with ", " (empty when none): a translator that leaves a call to a function
// nothing defines has lost an instruction it did not know how to map back.
std::string AddedDeclarations(const std::vector<uint32_t>& input,
                              const std::vector<uint32_t>& produced) {
  // The common case, without reading two modules (a batch's are large).
  if (!spirv::DeclaresFunctions(produced)) return "";
  auto in = spirv::ReadModuleWords(input);
  auto out = spirv::ReadModuleWords(produced);
  if (!in.ok() || !out.ok()) return "";
  const std::vector<std::string> had = in->DeclaredFunctionNames();
  std::vector<std::string> added;
  for (const std::string& name : out->DeclaredFunctionNames()) {
    if (std::find(had.begin(), had.end(), name) == had.end())
      added.push_back(name);
  }
  return absl::StrJoin(added, ", ");
}

}  // namespace

std::vector<Execution> RunOutputOnReference(
    std::span<const spirv::TestCase> launches,
    std::vector<std::vector<uint32_t>> outputs, const std::string& who,
    const std::string& producer_log, const reference::ReferenceOptions& options,
    const RunClock& clock, const TargetRunLimits& limits) {
  const spirv::TestCase& original = launches.front();
  const auto every_launch = [&](const Execution& e) {
    return ForEveryLaunch(e, launches.size());
  };
  // One output per module of the case: the producer transformed each, and
  // the reference links them; one output for several modules: the producer
  // linked them, and its output is the whole program.
  const bool per_module = outputs.size() > 1 &&
                          outputs.size() == original.linked_modules.size() + 1;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const std::string which =
        outputs.size() == 1
            ? "a module"
            : absl::StrCat(
                  i == 0 ? "module.spv" : spirv::LinkedModuleFile(i - 1),
                  " as a module");
    if (auto s = ValidateLikeReference(outputs[i]); !s.ok()) {
      return every_launch(FailedExecution(
          ExecutionStatus::kBuildFailed,
          absl::StrCat(who, " produced ", which, " that fails validation: ",
                       NormalizedFirstError(std::string(s.message()))),
          absl::StrCat(producer_log, producer_log.empty() ? "" : "\n",
                       "[spirv-val]\n", s.message())));
    }
    const std::vector<uint32_t>& input = per_module && i > 0
                                             ? original.linked_modules[i - 1]
                                             : original.module_words;
    if (std::string added = AddedDeclarations(input, outputs[i]);
        !added.empty()) {
      return every_launch(FailedExecution(
          ExecutionStatus::kBuildFailed,
          absl::StrCat(who, " produced ", which,
                       " that calls functions without a body the input did "
                       "not declare: ",
                       added),
          producer_log));
    }
  }
  std::vector<std::vector<uint32_t>> linked;
  if (per_module) {
    for (size_t i = 1; i < outputs.size(); ++i)
      linked.push_back(std::move(outputs[i]));
  }
  reference::ReferenceOptions ref_options = options;
  ref_options.skip_validation = true;  // validated just above, same rules
  std::vector<spirv::TestCase> transformed(launches.begin(), launches.end());
  for (spirv::TestCase& t : transformed) {
    t.module_words = outputs[0];
    t.linked_modules = linked;
  }
  std::vector<Execution> results =
      RunReferenceBatchInWorker(transformed, ref_options, clock, limits);
  for (Execution& e : results) {
    if (!producer_log.empty()) {
      e.log = absl::StrCat("[", who, "]\n", producer_log,
                           e.log.empty() ? "" : "\n", e.log);
    }
  }
  return results;
}

std::optional<Execution> RunToolStage(const std::vector<std::string>& argv,
                                      const std::string& dir,
                                      const RunClock& clock,
                                      const TargetRunLimits& limits,
                                      const std::string& who,
                                      const std::vector<uint32_t>& input,
                                      std::string* log) {
  auto child = RunCommand(argv, clock.Limits(limits), dir);
  if (!child.ok()) {
    return FailedExecution(ExecutionStatus::kUnsupported,
                           absl::StrCat("harness: cannot run ", who, ": ",
                                        child.status().message()));
  }
  const std::string output =
      absl::StrCat(child->stderr_text, child->stdout_text);
  if (!output.empty()) {
    absl::StrAppend(log, log->empty() ? "" : "\n", "[", who, "]\n",
                    LastLines(output, 100));
  }
  if (child->ending != ChildResult::Ending::kExited) {
    Execution e = AbnormalEnding(*child, who);
    e.log = *log;
    return e;
  }
  if (child->exit_code == 0) return std::nullopt;
  if (child->exit_code == 127 &&
      absl::StrContains(child->stderr_text, "cannot execute")) {
    return FailedExecution(
        ExecutionStatus::kUnsupported,
        absl::StrCat("harness: ", LastLines(child->stderr_text, 1)), *log);
  }
  if (auto s = ValidateLikeReference(input); !s.ok()) {
    return FailedExecution(
        ExecutionStatus::kBuildFailed,
        absl::StrCat("the module fails validation (", who,
                     " rejected it too): ",
                     NormalizedFirstError(std::string(s.message()))),
        *log);
  }
  const std::string first = NormalizedFirstError(output, dir);
  return FailedExecution(
      ExecutionStatus::kBuildFailed,
      absl::StrCat(who, " rejected a valid module (", child->Describe(), ")",
                   first.empty() ? "" : ": ", first),
      *log);
}

absl::StatusOr<std::vector<uint32_t>> ReadModule(const std::string& path) {
  auto read = spirv::ReadOutputFile(path);
  if (!read.ok()) return read.status();
  const std::string& bytes = *read;
  if (bytes.size() % 4 != 0 || bytes.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": ", bytes.size(), " bytes, not a whole number of words"));
  }
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

std::string SpirvVersionString(const std::vector<uint32_t>& words) {
  const uint32_t minor = words.size() > 1 ? (words[1] >> 8) & 0xFF : 0;
  return absl::StrCat("1.", minor > 6 ? 0 : minor);
}

}  // namespace l0spv::oracles
