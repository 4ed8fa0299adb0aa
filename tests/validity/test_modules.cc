#include "tests/validity/test_modules.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "spirv/binary.h"
#include "spirv/spirv_tools.h"

namespace l0spv::oracles::validity_testing {
namespace {

spv_target_env UniversalEnv(uint32_t minor) {
  switch (minor) {
    case 0:
      return SPV_ENV_UNIVERSAL_1_0;
    case 1:
      return SPV_ENV_UNIVERSAL_1_1;
    case 2:
      return SPV_ENV_UNIVERSAL_1_2;
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

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Reads "; key: value" directives from the leading comment lines.
void ParseDirectives(const std::string& text, TestModule& m) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::string s(line);
    if (s.empty() || s[0] != ';') break;
    s.erase(0, 1);
    while (!s.empty() && s[0] == ' ') s.erase(0, 1);
    if (absl::StartsWith(s, "profile:")) {
      m.profile = std::string(absl::StripAsciiWhitespace(s.substr(8)));
    } else if (absl::StartsWith(s, "env:")) {
      std::string v(absl::StripAsciiWhitespace(s.substr(4)));
      uint32_t minor = 2;
      if (absl::StartsWith(v, "1.") && absl::SimpleAtoi(v.substr(2), &minor)) {
        m.minor_version = minor;
      }
    }
  }
}

}  // namespace

std::string TestModulesDir() {
  return std::string(L0SPV_SOURCE_DIR) + "/tests/validity/modules";
}

std::vector<TestModule> AllTestModules() {
  namespace fs = std::filesystem;
  std::vector<TestModule> out;
  std::error_code ec;
  for (const auto& rule_dir : fs::directory_iterator(TestModulesDir(), ec)) {
    if (!rule_dir.is_directory()) continue;
    for (const auto& file : fs::directory_iterator(rule_dir.path(), ec)) {
      if (file.path().extension() != ".spvasm") continue;
      TestModule m;
      m.rule_id = rule_dir.path().filename().string();
      m.name = file.path().stem().string();
      m.path = file.path().string();
      m.expect_fail = absl::StartsWith(m.name, "fail");
      ParseDirectives(ReadText(m.path), m);
      out.push_back(std::move(m));
    }
  }
  std::sort(out.begin(), out.end(),
            [](const TestModule& a, const TestModule& b) {
              return std::tie(a.rule_id, a.name) < std::tie(b.rule_id, b.name);
            });
  return out;
}

absl::StatusOr<std::vector<uint32_t>> AssembleTestModule(const TestModule& m) {
  auto words = spirv::Assemble(ReadText(m.path), UniversalEnv(m.minor_version));
  if (!words.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(m.path, ": ", words.status().message()));
  }
  return words;
}

absl::StatusOr<spirv::Module> AssembleText(const std::string& text,
                                           uint32_t minor_version) {
  auto words = spirv::Assemble(text, UniversalEnv(minor_version));
  if (!words.ok()) return words.status();
  return spirv::ReadModuleWords(*words);
}

}  // namespace l0spv::oracles::validity_testing
