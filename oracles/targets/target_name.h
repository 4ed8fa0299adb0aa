// oracles/targets/target_name.h — the parts of a target name: its kind and
// its parameter ("ocloc:tgllp" → "ocloc", "tgllp"; "spirv-opt" → "spirv-opt",
// none). Every room that reads target names (the registry and MakeTarget,
// known_bugs' consumers of a target, the `report` command) splits them here.
//
// Contract: a name is KIND[:PARAM][@RELEASE]. The release is what follows
// the last '@' ("spirv-opt@2023.1", "opencl:Intel@2026.2",
// "llvm-spirv@dpcpp-2024.2"; oracles/targets/releases.h says which releases
// a tag picks; none = the newest installed). The kind is everything before
// the first ':' (the whole name without one); the parameter everything
// after it up to the release, which may itself contain ':' ("opencl:Portable
// Computing Language"). Header-only and free of dependencies, so rooms that
// do not link the targets can include it.
#pragma once

#include <string>

namespace l0spv::oracles {

struct TargetName {
  std::string kind;          // "ocloc"
  std::string param;         // "tgllp"; "" when there is none
  bool has_param = false;    // a ':' was present (even with nothing after it)
  std::string release;       // "2023.1"; "" when there is none
  bool has_release = false;  // an '@' was present (even with nothing after)
  std::string full;          // the whole name as given

  // The name without its release ("spirv-opt:-O@2023.1" -> "spirv-opt:-O").
  std::string WithoutRelease() const {
    return has_release ? full.substr(0, full.rfind('@')) : full;
  }
};

inline TargetName ParseTargetName(const std::string& name) {
  TargetName out;
  out.full = name;
  std::string rest = name;
  if (const size_t at = name.rfind('@'); at != std::string::npos) {
    out.release = name.substr(at + 1);
    out.has_release = true;
    rest = name.substr(0, at);
  }
  const size_t colon = rest.find(':');
  if (colon == std::string::npos) {
    out.kind = rest;
    return out;
  }
  out.kind = rest.substr(0, colon);
  out.param = rest.substr(colon + 1);
  out.has_param = true;
  return out;
}

inline std::string TargetKind(const std::string& name) {
  return name.substr(0, name.find_first_of(":@"));
}

}  // namespace l0spv::oracles
