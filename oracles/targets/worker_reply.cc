#include "oracles/targets/worker_reply.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "oracles/execution_json.h"

namespace l0spv::oracles {
namespace {

// The last `lines` lines of `text`, keeping the final line's newline (the
// worker messages have always been cut this way; signatures depend on it).
std::string TailLines(const std::string& text, size_t lines) {
  size_t pos = text.size();
  while (pos > 0 && text[pos - 1] == '\n') --pos;
  for (size_t n = 0; n < lines && pos != std::string::npos && pos > 0; ++n)
    pos = text.rfind('\n', pos - 1);
  return pos == std::string::npos ? text : text.substr(pos + (pos > 0));
}

}  // namespace

Execution FailedExecution(ExecutionStatus status, std::string message,
                          std::string log) {
  Execution e;
  e.status = status;
  e.message = std::move(message);
  e.log = std::move(log);
  return e;
}

std::vector<Execution> ForEveryLaunch(const Execution& e, size_t launches) {
  return std::vector<Execution>(launches, e);
}

nlohmann::json ErrorReply(const std::string& code, const std::string& text) {
  return {{"error", {{"code", code}, {"message", text}}}};
}

nlohmann::json ExecutionReply(const Execution& e) {
  return {{"execution", ExecutionToJson(e)}};
}

absl::StatusOr<std::vector<Execution>> ExecutionsFromWorkerReply(
    const ChildResult& child, const std::string& who, const std::string& marker,
    size_t launches) {
  const std::string stderr_tail = TailLines(child.stderr_text, 40);
  const std::string last =
      stderr_tail.empty() ? "" : absl::StrCat(": ", TailLines(stderr_tail, 1));
  const auto every_launch = [&](const Execution& e) {
    return ForEveryLaunch(e, launches);
  };
  if (child.ending == ChildResult::Ending::kTimedOut) {
    return every_launch(
        FailedExecution(ExecutionStatus::kTimedOut,
                        absl::StrCat(who, " ", child.Describe()), stderr_tail));
  }
  if (child.ending == ChildResult::Ending::kSignaled) {
    return every_launch(FailedExecution(
        ExecutionStatus::kCrashed,
        absl::StrCat(who, " crashed: ", child.Describe(), last), stderr_tail));
  }
  const size_t at = child.stdout_text.rfind(marker);
  if (child.exit_code != 0 || at == std::string::npos) {
    return every_launch(
        FailedExecution(ExecutionStatus::kCrashed,
                        absl::StrCat(who, " ended without a result (",
                                     child.Describe(), ")", last),
                        stderr_tail));
  }
  // The reply is one line: JSON escapes the newlines inside strings.
  const size_t json_at = at + marker.size();
  const size_t json_end = child.stdout_text.find('\n', json_at);
  const auto reply = nlohmann::json::parse(
      child.stdout_text.substr(json_at, json_end == std::string::npos
                                            ? std::string::npos
                                            : json_end - json_at),
      nullptr, /*allow_exceptions=*/false);
  if (reply.is_discarded() || !reply.is_object()) {
    return every_launch(FailedExecution(
        ExecutionStatus::kCrashed,
        absl::StrCat(who, " returned an unreadable result"), stderr_tail));
  }
  if (reply.contains("error")) {
    const std::string text = reply["error"].value("message", "");
    if (reply["error"].value("code", "") == "not_found")
      return absl::NotFoundError(text);
    return absl::InternalError(text);
  }
  nlohmann::json list = reply.value("executions", nlohmann::json::array());
  if (reply.contains("execution")) {
    // Not `list = {reply["execution"]}`: clang reads that braced list as a
    // copy of the element, g++ as a one-element array.
    list = nlohmann::json::array();
    list.push_back(reply["execution"]);
  }
  if (!list.is_array() || list.size() != launches) {
    return every_launch(FailedExecution(
        ExecutionStatus::kCrashed,
        absl::StrCat(who, " returned ", list.is_array() ? list.size() : 0,
                     " results for ", launches, " launches"),
        stderr_tail));
  }
  std::vector<Execution> results;
  for (const nlohmann::json& one : list) {
    auto execution = ExecutionFromJson(one);
    if (!execution.ok()) return execution.status();
    // What the driver printed on stdout before the result: kernel printf on
    // drivers that cannot hand it back otherwise (one launch only).
    if (reply.value("stdout_is_printf", false) && at > 0)
      execution->printf_output = child.stdout_text.substr(0, at);
    if (!child.stderr_text.empty()) {
      absl::StrAppend(&execution->log, execution->log.empty() ? "" : "\n",
                      "[worker stderr]\n", stderr_tail);
    }
    results.push_back(*std::move(execution));
  }
  return results;
}

absl::StatusOr<Execution> ExecutionFromWorkerReply(const ChildResult& child,
                                                   const std::string& who,
                                                   const std::string& marker) {
  auto results = ExecutionsFromWorkerReply(child, who, marker, 1);
  if (!results.ok()) return results.status();
  return std::move(results->front());
}

nlohmann::json ExecutionsReply(const std::vector<Execution>& executions) {
  nlohmann::json list = nlohmann::json::array();
  for (const Execution& e : executions) list.push_back(ExecutionToJson(e));
  return {{"executions", std::move(list)}};
}

}  // namespace l0spv::oracles
