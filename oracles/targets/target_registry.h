// oracles/targets/target_registry.h — every target name the command knows,
// whether it can run on this machine, and why not.
//
// Contract: `ListTargets` probes the machine (see consumer_probe.h) and
// returns one entry per concrete target (`opencl:<platform>` per platform,
// `ocloc:<device>` per default device, `KIND@RELEASE` per installed release
// of a consumer with several, besides the bare name = the newest), available
// or not, in the order of the target kind table (target_kinds.h). An
// unavailable target always carries a reason a user can act on.
// `DescribeTarget` does the same for one name, probing only what that target
// needs (MakeTarget uses it, so `targets` and `run` give the same reasons).
// `ParseTargetList` validates a comma-separated --target value against the
// known kinds.
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
  // Unavailable because the consumer has nothing by that name (an OpenCL
  // platform, an ocloc device), rather than because it is missing.
  bool unknown_name = false;
  // What the probe found for TargetOptions::program to override: the
  // ocloc, spirv-opt or llvm-spirv executable, Oclgrind's ICD library;
  // the adapters use it rather than search again. Empty for other kinds.
  std::string program{};
  // "NAME=VALUE" the consumer needs set before it loads (an OpenCL runtime
  // from PyPI: OCL_ICD_VENDORS naming a directory with its .icd alone).
  std::vector<std::string> environment{};
  // The release the name picked ("2025.5"; releases.h), "" when the kind
  // has one release only.
  std::string release{};
  // Whether a campaign without --target runs it: a bare name (the newest
  // release) does, a name that spells a release out does not.
  bool in_default = true;
};

std::vector<TargetInfo> ListTargets();

// One target by name ("ocloc:dg2", "opencl:Portable", "spirv-opt:-O").
// InvalidArgument for a name of no known kind or a malformed one.
absl::StatusOr<TargetInfo> DescribeTarget(const std::string& name);

// The error for an unavailable target: NotFound when `unknown_name`, else
// FailedPrecondition; the message is "<name>: <reason>".
absl::Status UnavailableStatus(const TargetInfo& info);

// Whether `kind` ("ocloc", "opencl", ...: TargetKind of a name) is a target
// kind of this build. Test doubles (fault targets) are not.
bool IsTargetKind(const std::string& kind);

// The Intel devices `ocloc:` is probed for by default.
const std::vector<std::string>& DefaultOclocDevices();

// Splits "ref,ocloc:tgllp,dg2,opencl" into target names; a bare word after an
// `ocloc:` entry that is not a target kind is another ocloc device
// ("ocloc:tgllp,dg2,pvc"), one after a `spirv-opt:` entry another pass of
// its list ("spirv-opt:ccp,vector-dce" is one target, as is "spirv-opt:ccp
// vector-dce"). Unknown kinds are an InvalidArgument naming them.
absl::StatusOr<std::vector<std::string>> ParseTargetList(
    const std::string& list);

}  // namespace l0spv::oracles
