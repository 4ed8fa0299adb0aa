#include "oracles/execution_json.h"

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "spirv/text_bytes.h"

namespace l0spv::oracles {

namespace {
constexpr ExecutionStatus kAllStatuses[] = {
    ExecutionStatus::kOk,         ExecutionStatus::kBuildFailed,
    ExecutionStatus::kCrashed,    ExecutionStatus::kTimedOut,
    ExecutionStatus::kUbDetected, ExecutionStatus::kUnsupported};

// A consumer's text is bytes: a field that is not UTF-8 is written shown
// readably (\xNN) and, beside it as KEY_base64, exactly.
void PutText(nlohmann::json& j, const char* key, const std::string& text) {
  if (spirv::IsValidUtf8(text)) {
    j[key] = text;
    return;
  }
  j[key] = spirv::EscapeInvalidUtf8(text);
  j[std::string(key) + "_base64"] = absl::Base64Escape(text);
}

bool TakeText(const nlohmann::json& j, const char* key, std::string* text) {
  const std::string exact = std::string(key) + "_base64";
  if (j.contains(exact)) {
    return j[exact].is_string() &&
           absl::Base64Unescape(j[exact].get<std::string>(), text);
  }
  if (!j.contains(key)) return true;
  if (!j[key].is_string()) return false;
  *text = j[key].get<std::string>();
  return true;
}
}  // namespace

nlohmann::json ExecutionToJson(const Execution& e) {
  nlohmann::json buffers = nlohmann::json::array();
  for (const auto& b : e.buffers) {
    buffers.push_back(absl::Base64Escape(
        absl::string_view(reinterpret_cast<const char*>(b.data()), b.size())));
  }
  nlohmann::json j{{"status", ExecutionStatusName(e.status)},
                   {"buffers", std::move(buffers)},
                   {"instructions", e.instructions_executed},
                   {"wall_time_ns", e.wall_time.count()}};
  PutText(j, "message", e.message);
  PutText(j, "printf", e.printf_output);
  PutText(j, "log", e.log);
  if (e.launch_own) j["launch_own"] = true;
  return j;
}

absl::StatusOr<Execution> ExecutionFromJson(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("status") || !j["status"].is_string()) {
    return absl::InvalidArgumentError("execution JSON: missing \"status\"");
  }
  Execution e;
  const std::string status = j["status"].get<std::string>();
  bool known = false;
  for (ExecutionStatus s : kAllStatuses) {
    if (status == ExecutionStatusName(s)) {
      e.status = s;
      known = true;
    }
  }
  if (!known) {
    return absl::InvalidArgumentError("execution JSON: unknown status \"" +
                                      status + "\"");
  }
  if (j.contains("launch_own")) {
    if (!j["launch_own"].is_boolean()) {
      return absl::InvalidArgumentError(
          "execution JSON: \"launch_own\" must be true or false");
    }
    e.launch_own = j["launch_own"].get<bool>();
  }
  if (!TakeText(j, "message", &e.message) ||
      !TakeText(j, "printf", &e.printf_output) || !TakeText(j, "log", &e.log)) {
    return absl::InvalidArgumentError(
        "execution JSON: \"message\", \"printf\" and \"log\" must be "
        "strings (their _base64 twins base64)");
  }
  e.instructions_executed = j.value("instructions", uint64_t{0});
  e.wall_time = std::chrono::nanoseconds(j.value("wall_time_ns", int64_t{0}));
  for (const auto& b : j.value("buffers", nlohmann::json::array())) {
    std::string raw;
    if (!b.is_string() || !absl::Base64Unescape(b.get<std::string>(), &raw)) {
      return absl::InvalidArgumentError("execution JSON: bad buffer encoding");
    }
    e.buffers.emplace_back(raw.begin(), raw.end());
  }
  return e;
}

}  // namespace l0spv::oracles
