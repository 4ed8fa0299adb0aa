// oracles/validity/profiles_data.h — the embedded profiles.json (internal).
//
// Contract: kProfilesJson is the text of oracles/validity/profiles.json as it
// was at configure time; the build regenerates it whenever the file changes.
#pragma once

#include <string_view>

namespace l0spv::oracles::validity_internal {

extern const std::string_view kProfilesJson;

}  // namespace l0spv::oracles::validity_internal
