// fuzzers/cli/commands.h — constructors of every subcommand (one file each).
#pragma once

#include "absl/status/statusor.h"
#include "fuzzers/cli/command.h"
#include "generators/kernel/generator.h"
#include "oracles/known_bugs/known_bug_ids.h"
#include "oracles/validity/device_profile.h"

namespace l0spv::fuzzers::cli {
Command LintCommand();
Command TargetsCommand();
Command RunCommand();
Command GenerateCommand();
Command CampaignCommand();
Command CheckCommand();
Command MergeCommand();
Command TransformCommand();
Command ReplayCommand();
Command ReduceCommand();
Command KnownBugsCommand();
Command ReportCommand();

// The generator's image mode from --images (generate and campaign).
absl::StatusOr<generators::kernel::ImageMode> ImageModeFromFlag();
// The generator's printf mode from --printf (generate and campaign).
absl::StatusOr<generators::kernel::PrintfMode> PrintfModeFromFlag();
// --allow_bug: the registry entries named (InvalidArgument for a name the
// registry does not hold).
absl::StatusOr<std::vector<oracles::KnownBugId>> AllowedBugsFromFlag();
// --split: 0 = off, 1 = on (2-4 modules drawn per case), else the count.
absl::StatusOr<uint32_t> SplitModulesFromFlag();
// The generator's SPIR-V version range from --spirv_version (generate and
// campaign); InvalidArgument for a malformed value or one the profile
// cannot take.
absl::Status SpirvVersionsFromFlag(const oracles::DeviceProfile& profile,
                                   generators::kernel::GeneratorOptions& o);
}  // namespace l0spv::fuzzers::cli
