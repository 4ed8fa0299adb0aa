// oracles/validity/device_profile.h — Level Zero device profiles.
//
// Contract: a DeviceProfile says which SPIR-V a Level Zero device is required
// to accept: the newest SPIR-V version, the capabilities it supports, the
// extensions it accepts (and the capabilities each one enables), and the
// optional-feature flags of ze_device_kernel_properties_t / image properties.
// Profiles are data: `oracles/validity/profiles.json`, embedded into the
// library at build time and parsed once, on first use (thread-safe).
// Capabilities are resolved from their grammar names when the JSON is loaded;
// an unknown name, a flag that contradicts the capability list, or a list that
// is not closed under the grammar's "implicitly declares" relation is a load
// error, reported by every lookup.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::oracles {

// An extension the device accepts, with the capabilities that become
// available when a module declares it (OpExtension).
struct ProfileExtension {
  std::string name;
  std::vector<spv::Capability> capabilities;  // sorted by value
};

struct DeviceProfile {
  std::string name;
  std::string description;
  std::vector<std::string> notes;
  // SPIR-V header version word (0x00MMmm00) of the newest accepted version.
  uint32_t max_spirv_version = 0x00010200;
  // Capabilities available without any extension; sorted by value, unique.
  std::vector<spv::Capability> capabilities;
  std::vector<ProfileExtension> extensions;
  bool fp16 = false;           // fp16Supported: Float16
  bool fp64 = false;           // fp64Supported: Float64
  bool int64_atomics = false;  // int64AtomicsSupported: Int64Atomics
  bool images = false;         // image support: ImageBasic and companions

  // Whether `capability` is available without any extension.
  bool HasCapability(spv::Capability capability) const;
  // The accepted extension of this name, or nullptr.
  const ProfileExtension* FindExtension(std::string_view extension) const;
  // "1.4".
  std::string MaxSpirvVersionString() const;
  // How much the profile accepts beyond the core: its optional features
  // and extensions, counted. The narrower of two targets' profiles is the
  // one a case for both is generated for.
  int Breadth() const {
    return fp16 + fp64 + int64_atomics + images +
           static_cast<int>(extensions.size());
  }
};

// The embedded profile of this name. Unknown name: InvalidArgument listing
// the valid names. A broken embedded profiles.json: Internal.
absl::StatusOr<DeviceProfile> FindDeviceProfile(std::string_view name);

// Names of the embedded profiles, in file order (empty if they fail to load).
std::vector<std::string> DeviceProfileNames();

// Parses a profiles document (the schema of profiles.json). Exposed so tools
// and tests can load profiles from elsewhere; errors are InvalidArgument and
// name the profile and field at fault.
absl::StatusOr<std::vector<DeviceProfile>> ParseDeviceProfiles(
    std::string_view json_text);

// "1.2" for 0x00010200.
std::string SpirvVersionString(uint32_t version_word);

}  // namespace l0spv::oracles
