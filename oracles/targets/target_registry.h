// oracles/targets/target_registry.h — every target name the command knows,
// whether it can run on this machine, and why not.
//
// Contract: `ListTargets` probes the machine (see consumer_probe.h) and
// returns one entry per concrete target (`opencl:<platform>` per platform,
// `ocloc:<device>` per known device), available or not. An unavailable
// target always carries a reason a user can act on. `ParseTargetList`
// validates a comma-separated --target value against the known kinds.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace l0spv::oracles {

struct TargetInfo {
  std::string name;  // "ocloc:tgllp"
  bool available = false;
  std::string consumer;  // what was found on this machine, "" if nothing
  std::string reason;    // why it is unavailable ("" when available)
};

std::vector<TargetInfo> ListTargets();

// The Intel devices `ocloc:` is probed for by default.
const std::vector<std::string>& DefaultOclocDevices();

// Splits "ref,ocloc:tgllp,dg2,opencl" into target names; a bare word after an
// `ocloc:` entry that is not a target kind is another ocloc device
// ("ocloc:tgllp,dg2,pvc"). Unknown kinds are an InvalidArgument naming them.
absl::StatusOr<std::vector<std::string>> ParseTargetList(
    const std::string& list);

}  // namespace l0spv::oracles
