// tests/validity/test_modules.h — the per-rule test modules on disk.
//
// Contract: modules live in
// tests/validity/modules/<RULE-ID>/{pass,fail}*.spvasm. A module's leading
// comment block may carry directives:
//   ; profile: NAME   device profile to lint against (default "full")
//   ; env: 1.N        SPIR-V version to assemble for (default 1.2)
// LoadTestModule assembles the text and reads it into a Module.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "spirv/module.h"

namespace l0spv::oracles::validity_testing {

struct TestModule {
  std::string rule_id;  // directory name
  std::string name;     // file name without extension
  std::string path;
  bool expect_fail = false;  // fail*.spvasm
  std::string profile = "full";
  uint32_t minor_version = 2;
};

// Every module under tests/validity/modules, sorted by rule then name.
std::vector<TestModule> AllTestModules();

// The modules root directory.
std::string TestModulesDir();

// Assembled words of the module.
absl::StatusOr<std::vector<uint32_t>> AssembleTestModule(const TestModule& m);

// Assembles an inline .spvasm text for SPIR-V 1.`minor_version`.
absl::StatusOr<spirv::Module> AssembleText(const std::string& text,
                                           uint32_t minor_version = 2);

}  // namespace l0spv::oracles::validity_testing
