// oracles/targets/target_name.h — the parts of a target name: its kind and
// its parameter ("ocloc:tgllp" → "ocloc", "tgllp"; "spirv-opt" → "spirv-opt",
// none). Every room that reads target names (the registry and MakeTarget,
// known_bugs' consumers of a target, the `report` command) splits them here.
//
// Contract: the kind is everything before the first ':' (the whole name
// without one); the parameter everything after it, which may itself contain
// ':' ("opencl:Portable Computing Language"). Header-only and free of
// dependencies, so rooms that do not link the targets can include it.
#pragma once

#include <string>

namespace l0spv::oracles {

struct TargetName {
  std::string kind;        // "ocloc"
  std::string param;       // "tgllp"; "" when there is none
  bool has_param = false;  // a ':' was present (even with nothing after it)
};

inline TargetName ParseTargetName(const std::string& name) {
  const size_t colon = name.find(':');
  if (colon == std::string::npos) return {name, "", false};
  return {name.substr(0, colon), name.substr(colon + 1), true};
}

inline std::string TargetKind(const std::string& name) {
  return name.substr(0, name.find(':'));
}

}  // namespace l0spv::oracles
