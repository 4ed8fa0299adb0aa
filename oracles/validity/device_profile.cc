#include "oracles/validity/device_profile.h"

#include <algorithm>
#include <optional>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"
#include "oracles/validity/profiles_data.h"
#include "spirv/grammar.h"

namespace l0spv::oracles {
namespace {

using json = nlohmann::json;

absl::Status FieldError(const std::string& profile, const std::string& field,
                        const std::string& problem) {
  return absl::InvalidArgumentError(absl::StrCat("device profiles: profile '",
                                                 profile, "', field '", field,
                                                 "': ", problem));
}

absl::StatusOr<std::string> GetString(const json& object,
                                      const std::string& profile,
                                      const char* field) {
  auto it = object.find(field);
  if (it == object.end() || !it->is_string()) {
    return FieldError(profile, field, "missing or not a string");
  }
  return it->get<std::string>();
}

absl::StatusOr<bool> GetBool(const json& object, const std::string& profile,
                             const char* field) {
  auto it = object.find(field);
  if (it == object.end() || !it->is_boolean()) {
    return FieldError(profile, field, "missing or not a boolean");
  }
  return it->get<bool>();
}

// "1.4" -> 0x00010400.
std::optional<uint32_t> ParseVersion(const std::string& text) {
  std::vector<std::string> parts = absl::StrSplit(text, '.');
  uint32_t major = 0, minor = 0;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &major) ||
      !absl::SimpleAtoi(parts[1], &minor) || major != 1 || minor > 255) {
    return std::nullopt;
  }
  return (major << 16) | (minor << 8);
}

absl::StatusOr<std::vector<spv::Capability>> GetCapabilities(
    const json& object, const std::string& profile, const std::string& field) {
  auto it = object.find(field);
  if (it == object.end() || !it->is_array()) {
    return FieldError(profile, field, "missing or not an array");
  }
  std::vector<spv::Capability> out;
  for (const json& item : *it) {
    if (!item.is_string()) {
      return FieldError(profile, field, "capability names must be strings");
    }
    const std::string name = item.get<std::string>();
    const spirv::EnumerantInfo* e =
        spirv::FindEnumerantByName(spirv::OperandKind::kCapability, name);
    if (e == nullptr) {
      return FieldError(profile, field,
                        absl::StrCat("unknown capability '", name,
                                     "' (names are SPIR-V grammar names, "
                                     "e.g. 'Float64')"));
    }
    out.push_back(static_cast<spv::Capability>(e->value));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string CapabilityName(spv::Capability c) {
  return std::string(spirv::EnumerantName(spirv::OperandKind::kCapability,
                                          static_cast<uint32_t>(c)));
}

// Flags and capability lists must tell the same story, and the lists must be
// closed under "implicitly declares": a module declaring Int64Atomics also
// declares Int64, so a device accepting one must accept the other.
absl::Status CheckConsistency(const DeviceProfile& p) {
  struct FlagRule {
    const char* flag;
    bool value;
    spv::Capability capability;
  };
  const FlagRule flags[] = {
      {"fp16", p.fp16, spv::Capability::Float16},
      {"fp64", p.fp64, spv::Capability::Float64},
      {"int64_atomics", p.int64_atomics, spv::Capability::Int64Atomics},
      {"images", p.images, spv::Capability::ImageBasic},
  };
  for (const FlagRule& f : flags) {
    if (f.value != p.HasCapability(f.capability)) {
      return FieldError(
          p.name, f.flag,
          absl::StrCat("is ", f.value ? "true" : "false", " but capability ",
                       CapabilityName(f.capability), " is ",
                       f.value ? "missing from" : "in", " 'capabilities'"));
    }
  }
  if (p.images) {
    // Environment spec, "Required Capabilities": ImageBasic brings these.
    for (spv::Capability c :
         {spv::Capability::LiteralSampler, spv::Capability::Sampled1D,
          spv::Capability::Image1D, spv::Capability::SampledBuffer,
          spv::Capability::ImageBuffer, spv::Capability::ImageReadWrite}) {
      if (!p.HasCapability(c)) {
        return FieldError(p.name, "capabilities",
                          absl::StrCat("ImageBasic requires ",
                                       CapabilityName(c), " as well"));
      }
    }
  }
  auto check_closed = [&p](const std::vector<spv::Capability>& caps,
                           const std::string& field) -> absl::Status {
    for (spv::Capability c : caps) {
      const spirv::EnumerantInfo* e = spirv::FindEnumerant(
          spirv::OperandKind::kCapability, static_cast<uint32_t>(c));
      if (e == nullptr) continue;
      for (uint32_t implied : e->capabilities) {
        if (!p.HasCapability(static_cast<spv::Capability>(implied)) &&
            !std::binary_search(caps.begin(), caps.end(),
                                static_cast<spv::Capability>(implied))) {
          return FieldError(
              p.name, field,
              absl::StrCat(
                  CapabilityName(c), " implicitly declares ",
                  CapabilityName(static_cast<spv::Capability>(implied)),
                  ", which the profile does not list"));
        }
      }
    }
    return absl::OkStatus();
  };
  if (auto s = check_closed(p.capabilities, "capabilities"); !s.ok()) return s;
  for (const ProfileExtension& ext : p.extensions) {
    if (auto s = check_closed(ext.capabilities, ext.name); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::StatusOr<DeviceProfile> ParseProfile(const json& object, size_t index) {
  if (!object.is_object()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "device profiles: entry ", index, " of 'profiles' is not an object"));
  }
  DeviceProfile p;
  auto name = GetString(object, absl::StrCat("#", index), "name");
  if (!name.ok()) return name.status();
  p.name = *name;
  if (p.name.empty())
    return FieldError("#" + std::to_string(index), "name", "must not be empty");
  auto description = GetString(object, p.name, "description");
  if (!description.ok()) return description.status();
  p.description = *description;
  if (auto it = object.find("notes"); it != object.end()) {
    if (!it->is_array()) return FieldError(p.name, "notes", "not an array");
    for (const json& note : *it) {
      if (!note.is_string()) {
        return FieldError(p.name, "notes", "notes must be strings");
      }
      p.notes.push_back(note.get<std::string>());
    }
  }
  auto version = GetString(object, p.name, "max_spirv_version");
  if (!version.ok()) return version.status();
  std::optional<uint32_t> word = ParseVersion(*version);
  if (!word) {
    return FieldError(
        p.name, "max_spirv_version",
        absl::StrCat("'", *version, "' is not a SPIR-V version like '1.2'"));
  }
  p.max_spirv_version = *word;
  auto caps = GetCapabilities(object, p.name, "capabilities");
  if (!caps.ok()) return caps.status();
  p.capabilities = *std::move(caps);
  for (auto [field, flag] : {std::pair<const char*, bool*>{"fp16", &p.fp16},
                             {"fp64", &p.fp64},
                             {"int64_atomics", &p.int64_atomics},
                             {"images", &p.images}}) {
    auto value = GetBool(object, p.name, field);
    if (!value.ok()) return value.status();
    *flag = *value;
  }
  auto exts = object.find("extensions");
  if (exts == object.end() || !exts->is_array()) {
    return FieldError(p.name, "extensions", "missing or not an array");
  }
  for (const json& ext : *exts) {
    if (!ext.is_object()) {
      return FieldError(p.name, "extensions", "entries must be objects");
    }
    ProfileExtension pe;
    auto ext_name = GetString(ext, p.name, "name");
    if (!ext_name.ok()) return ext_name.status();
    pe.name = *ext_name;
    auto ext_caps = GetCapabilities(ext, p.name, "capabilities");
    if (!ext_caps.ok()) return ext_caps.status();
    pe.capabilities = *std::move(ext_caps);
    if (p.FindExtension(pe.name) != nullptr) {
      return FieldError(p.name, "extensions",
                        absl::StrCat("'", pe.name, "' is listed twice"));
    }
    p.extensions.push_back(std::move(pe));
  }
  if (auto s = CheckConsistency(p); !s.ok()) return s;
  return p;
}

struct Registry {
  absl::Status status;
  std::vector<DeviceProfile> profiles;
};

const Registry& EmbeddedProfiles() {
  static const Registry* registry = [] {
    auto* r = new Registry;
    auto parsed = ParseDeviceProfiles(validity_internal::kProfilesJson);
    if (parsed.ok()) {
      r->profiles = *std::move(parsed);
    } else {
      r->status = absl::InternalError(absl::StrCat(
          "embedded profiles.json does not load: ", parsed.status().message()));
    }
    return r;
  }();
  return *registry;
}

}  // namespace

bool DeviceProfile::HasCapability(spv::Capability capability) const {
  return std::binary_search(capabilities.begin(), capabilities.end(),
                            capability);
}

const ProfileExtension* DeviceProfile::FindExtension(
    std::string_view extension) const {
  for (const ProfileExtension& e : extensions) {
    if (e.name == extension) return &e;
  }
  return nullptr;
}

std::string DeviceProfile::MaxSpirvVersionString() const {
  return SpirvVersionString(max_spirv_version);
}

std::string SpirvVersionString(uint32_t version_word) {
  return absl::StrCat((version_word >> 16) & 0xFF, ".",
                      (version_word >> 8) & 0xFF);
}

absl::StatusOr<std::vector<DeviceProfile>> ParseDeviceProfiles(
    std::string_view json_text) {
  const json doc = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    return absl::InvalidArgumentError(
        "device profiles: not a JSON object (syntax error?)");
  }
  auto list = doc.find("profiles");
  if (list == doc.end() || !list->is_array()) {
    return absl::InvalidArgumentError(
        "device profiles: missing array 'profiles'");
  }
  std::vector<DeviceProfile> out;
  absl::flat_hash_set<std::string> names;
  for (size_t i = 0; i < list->size(); ++i) {
    auto p = ParseProfile((*list)[i], i);
    if (!p.ok()) return p.status();
    if (!names.insert(p->name).second) {
      return absl::InvalidArgumentError(absl::StrCat(
          "device profiles: profile name '", p->name, "' is used twice"));
    }
    out.push_back(*std::move(p));
  }
  return out;
}

absl::StatusOr<DeviceProfile> FindDeviceProfile(std::string_view name) {
  const Registry& registry = EmbeddedProfiles();
  if (!registry.status.ok()) return registry.status;
  for (const DeviceProfile& p : registry.profiles) {
    if (p.name == name) return p;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown device profile '", std::string(name),
      "'; valid profiles: ", absl::StrJoin(DeviceProfileNames(), ", ")));
}

std::vector<std::string> DeviceProfileNames() {
  std::vector<std::string> names;
  for (const DeviceProfile& p : EmbeddedProfiles().profiles) {
    names.push_back(p.name);
  }
  return names;
}

}  // namespace l0spv::oracles
