#include "spirv/spirv_tools.h"

#include <array>
#include <mutex>

#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "spirv-tools/libspirv.hpp"

namespace l0spv::spirv {
namespace {

// Collects SPIRV-Tools messages into one string.
class Diagnostics {
 public:
  spvtools::MessageConsumer Consumer() {
    return [this](spv_message_level_t level, const char*,
                  const spv_position_t& position, const char* message) {
      if (level > SPV_MSG_WARNING) return;
      if (!text_.empty()) text_ += "\n";
      absl::StrAppend(&text_, message);
      if (position.index != 0)
        absl::StrAppend(&text_, " (word ", position.index, ")");
    };
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// The last modules that passed validation, with their environment. A
// campaign validates each case in the reference and again before a consumer
// that skips its own copy of the check (spirv-opt --skip-validation), and
// validation is a pure function of words and environment, so a repeat is
// answered from here. Entries hold the words: a hit is an exact match, not
// a hash match. Thread-safe; a small ring, since repeats come close together.
class PassedModules {
 public:
  // The key of `words` in `env`: hashed once per Validate, looked up and
  // (after a pass) added under the same key.
  struct Key {
    std::span<const uint32_t> words;
    spv_target_env env;
    size_t hash;
  };
  static Key KeyOf(std::span<const uint32_t> words, spv_target_env env) {
    return {words, env,
            absl::HashOf(absl::MakeConstSpan(words.data(), words.size()))};
  }
  bool Contains(const Key& key) {
    std::lock_guard<std::mutex> lock(mu_);
    for (const Entry& e : ring_) {
      if (e.hash == key.hash && e.env == key.env &&
          std::equal(e.words.begin(), e.words.end(), key.words.begin(),
                     key.words.end()))
        return true;
    }
    return false;
  }
  void Add(const Key& key) {
    if (key.words.size() > kMaxWords) return;
    std::lock_guard<std::mutex> lock(mu_);
    Entry& e = ring_[next_];
    next_ = (next_ + 1) % ring_.size();
    e.hash = key.hash;
    e.env = key.env;
    e.words.assign(key.words.begin(), key.words.end());
  }

 private:
  // Larger modules (generated stress kernels) are rare and not repeated.
  static constexpr size_t kMaxWords = size_t{1} << 20;
  struct Entry {
    size_t hash = 0;
    spv_target_env env = SPV_ENV_UNIVERSAL_1_0;
    std::vector<uint32_t> words;
  };
  std::mutex mu_;
  std::array<Entry, 32> ring_;
  size_t next_ = 0;
};

PassedModules& Passed() {
  static PassedModules* passed = new PassedModules();  // never destroyed
  return *passed;
}

}  // namespace

spv_target_env TargetEnvForVersion(uint32_t version_word) {
  const uint32_t minor = (version_word >> 8) & 0xFF;
  const uint32_t major = (version_word >> 16) & 0xFF;
  if (major != 1 || minor <= 2) return SPV_ENV_OPENCL_2_2;
  switch (minor) {
    case 3:
      return SPV_ENV_UNIVERSAL_1_3;
    case 4:
      return SPV_ENV_UNIVERSAL_1_4;
    case 5:
      return SPV_ENV_UNIVERSAL_1_5;
    default:
      return SPV_ENV_UNIVERSAL_1_6;
  }
}

spv_target_env UniversalEnvForVersion(uint32_t version_word) {
  switch ((version_word >> 8) & 0xFF) {
    case 0:
      return SPV_ENV_UNIVERSAL_1_0;
    case 1:
      return SPV_ENV_UNIVERSAL_1_1;
    case 3:
      return SPV_ENV_UNIVERSAL_1_3;
    case 4:
      return SPV_ENV_UNIVERSAL_1_4;
    case 5:
      return SPV_ENV_UNIVERSAL_1_5;
    case 6:
      return SPV_ENV_UNIVERSAL_1_6;
    default:
      return SPV_ENV_UNIVERSAL_1_2;
  }
}

const char* TargetEnvName(spv_target_env env) {
  switch (env) {
    case SPV_ENV_OPENCL_2_2:
      return "opencl2.2";
    case SPV_ENV_UNIVERSAL_1_0:
      return "spv1.0";
    case SPV_ENV_UNIVERSAL_1_1:
      return "spv1.1";
    case SPV_ENV_UNIVERSAL_1_2:
      return "spv1.2";
    case SPV_ENV_UNIVERSAL_1_3:
      return "spv1.3";
    case SPV_ENV_UNIVERSAL_1_4:
      return "spv1.4";
    case SPV_ENV_UNIVERSAL_1_5:
      return "spv1.5";
    case SPV_ENV_UNIVERSAL_1_6:
      return "spv1.6";
    default:
      return "other";
  }
}

absl::StatusOr<std::string> Disassemble(std::span<const uint32_t> words,
                                        bool friendly_names) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  Diagnostics diag;
  tools.SetMessageConsumer(diag.Consumer());
  std::string text;
  uint32_t options = SPV_BINARY_TO_TEXT_OPTION_INDENT;
  if (friendly_names) options |= SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES;
  if (!tools.Disassemble(words.data(), words.size(), &text, options)) {
    return absl::InvalidArgumentError(
        absl::StrCat("spirv-dis failed: ", diag.text()));
  }
  return text;
}

absl::StatusOr<std::vector<uint32_t>> Assemble(std::string_view text,
                                               spv_target_env env) {
  spvtools::SpirvTools tools(env);
  Diagnostics diag;
  tools.SetMessageConsumer(diag.Consumer());
  std::vector<uint32_t> words;
  if (!tools.Assemble(text.data(), text.size(), &words,
                      SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS)) {
    return absl::InvalidArgumentError(
        absl::StrCat("spirv-as failed: ", diag.text()));
  }
  return words;
}

absl::Status Validate(std::span<const uint32_t> words) {
  const uint32_t version = words.size() > 1 ? words[1] : 0;
  return Validate(words, TargetEnvForVersion(version));
}

absl::Status Validate(std::span<const uint32_t> words, spv_target_env env) {
  const PassedModules::Key key = PassedModules::KeyOf(words, env);
  if (Passed().Contains(key)) return absl::OkStatus();
  spvtools::SpirvTools tools(env);
  Diagnostics diag;
  tools.SetMessageConsumer(diag.Consumer());
  // Friendly names cost a whole extra pass over the module (SPIRV-Tools
  // builds its FriendlyNameMapper before validating): about a third of a
  // passing validation, and most modules pass. They only matter for the
  // message, so a module that fails is validated again with them on.
  spvtools::ValidatorOptions quick;
  quick.SetFriendlyNames(false);
  if (tools.Validate(words.data(), words.size(), quick)) {
    Passed().Add(key);
    return absl::OkStatus();
  }
  diag = Diagnostics();  // the consumer holds &diag: still this object
  spvtools::ValidatorOptions named;
  if (tools.Validate(words.data(), words.size(), named))
    return absl::OkStatus();  // cannot happen: the options differ in names
  return absl::InvalidArgumentError(absl::StrCat(
      "spirv-val (--target-env ", TargetEnvName(env), "): ", diag.text()));
}

}  // namespace l0spv::spirv
