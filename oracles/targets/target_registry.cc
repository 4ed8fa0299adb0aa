#include "oracles/targets/target_registry.h"

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "oracles/targets/target_kinds.h"
#include "oracles/targets/target_name.h"

namespace l0spv::oracles {

bool IsTargetKind(const std::string& kind) {
  return FindTargetKind(kind) != nullptr;
}

const std::vector<std::string>& DefaultOclocDevices() {
  static const auto* devices =
      new std::vector<std::string>{"tgllp", "dg2", "pvc"};
  return *devices;
}

std::vector<TargetInfo> ListTargets() {
  std::vector<TargetInfo> out;
  for (const TargetKindSpec& k : TargetKinds()) {
    std::vector<TargetInfo> rows = k.list();
    for (TargetInfo& t : rows) {
      if (!k.in_default_campaign) t.in_default = false;
      out.push_back(std::move(t));
    }
  }
  return out;
}

absl::StatusOr<TargetInfo> DescribeTarget(const std::string& name) {
  const TargetName parsed = ParseTargetName(name);
  auto spec = CheckTargetName(parsed);
  if (!spec.ok()) return spec.status();
  auto info = (*spec)->describe(parsed);
  if (info.ok() && !(*spec)->in_default_campaign) info->in_default = false;
  return info;
}

absl::Status UnavailableStatus(const TargetInfo& info) {
  const std::string text = absl::StrCat(info.name, ": ", info.reason);
  return info.unknown_name ? absl::NotFoundError(text)
                           : absl::FailedPreconditionError(text);
}

absl::StatusOr<std::vector<std::string>> ParseTargetList(
    const std::string& list) {
  std::vector<std::string> out;
  std::string open_kind;  // "ocloc" / "spirv-opt" while bare words extend it
  for (absl::string_view item : absl::StrSplit(list, ',', absl::SkipEmpty())) {
    const std::string entry(absl::StripAsciiWhitespace(item));
    if (entry.empty()) continue;
    const TargetName parsed = ParseTargetName(entry);
    if (IsTargetKind(parsed.kind)) {
      open_kind = parsed.has_param && !parsed.has_release ? parsed.kind : "";
      if (auto spec = CheckTargetName(parsed); !spec.ok()) return spec.status();
      out.push_back(entry);
    } else if (open_kind == "ocloc" && !parsed.has_param) {
      out.push_back(absl::StrCat("ocloc:", entry));
    } else if (open_kind == "spirv-opt" && !parsed.has_param) {
      absl::StrAppend(&out.back(), ",", entry);
      // "spirv-opt:ccp,vector-dce@2025.5": the release ends the list.
      if (parsed.has_release) open_kind.clear();
    } else {
      return CheckTargetName(parsed).status();
    }
  }
  if (out.empty()) {
    return absl::InvalidArgumentError("empty --target list");
  }
  return out;
}

}  // namespace l0spv::oracles
