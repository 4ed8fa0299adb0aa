#include "spirv/spirv_tools.h"

#include "absl/strings/str_cat.h"
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
  spvtools::SpirvTools tools(env);
  Diagnostics diag;
  tools.SetMessageConsumer(diag.Consumer());
  if (!tools.Validate(words.data(), words.size())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "spirv-val (--target-env ", TargetEnvName(env), "): ", diag.text()));
  }
  return absl::OkStatus();
}

}  // namespace l0spv::spirv
