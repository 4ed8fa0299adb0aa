// `l0spv-fuzz targets [--json]`: every target, whether it can run here, why.
#include <iostream>
#include <map>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "fuzzers/cli/commands.h"
#include "nlohmann/json.hpp"
#include "oracles/known_bugs/consumers.h"
#include "oracles/targets/target_kinds.h"
#include "oracles/targets/target_registry.h"
#include "spirv/text_bytes.h"

ABSL_DECLARE_FLAG(bool, json);

namespace l0spv::fuzzers::cli {
namespace {

int RunTargets(const std::vector<std::string>& positional) {
  if (!positional.empty()) {
    return UsageError("targets", "takes no arguments");
  }
  const std::vector<oracles::TargetInfo> targets = oracles::ListTargets();
  // The installed version of every consumer a target exercises (the
  // release it picks, or the Debian package's version, as the known-bug
  // registry records them).
  auto versions = [](const std::string& name) {
    std::map<std::string, std::string> out =
        oracles::ConsumerVersionsOfTarget(name);
    for (auto& [family, v] : out)
      if (v.empty()) v = "not installed";
    return out;
  };
  if (absl::GetFlag(FLAGS_json)) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& t : targets) {
      out.push_back({{"name", t.name},
                     {"available", t.available},
                     {"consumer", t.consumer},
                     {"versions", versions(t.name)},
                     {"reason", t.reason}});
    }
    std::cout << spirv::DumpJson(out, 2) << "\n";
    return kExitOk;
  }
  size_t width = 6;
  for (const auto& t : targets) width = std::max(width, t.name.size());
  int available = 0;
  for (const auto& t : targets) {
    available += t.available;
    std::cout << absl::StrFormat("%-*s  %-11s  %s\n", static_cast<int>(width),
                                 t.name,
                                 t.available ? "available" : "unsupported",
                                 t.available ? t.consumer : t.reason);
    std::vector<std::string> vs;
    for (const auto& [c, v] : versions(t.name)) vs.push_back(c + " " + v);
    if (t.available && !vs.empty()) {
      std::cout << absl::StrFormat("%-*s  %-11s  versions: %s\n",
                                   static_cast<int>(width), "", "",
                                   absl::StrJoin(vs, ", "));
    }
    if (!t.available && !t.consumer.empty()) {
      std::cout << absl::StrFormat("%-*s  %-11s  found: %s\n",
                                   static_cast<int>(width), "", "", t.consumer);
    }
  }
  std::cout << available << " of " << targets.size()
            << " targets available on this machine\n";
  return kExitOk;
}

}  // namespace

Command TargetsCommand() {
  return {"targets",
          "every target, whether it is available here, and why not",
          "targets [--json]\n\n"
          "Probes this machine for every consumer l0spv-fuzz can drive (Level "
          "Zero devices, OpenCL platforms, ocloc devices, Oclgrind, "
          "spirv-opt, llvm-spirv) and lists each target with its availability "
          "and, when unavailable, the reason. Drivers are probed in child "
          "processes, so a broken driver cannot crash this command.",
          {"json"},
          RunTargets};
}

}  // namespace l0spv::fuzzers::cli
