// fuzzers/cli/commands.h — constructors of every subcommand (one file each).
#pragma once

#include "absl/status/statusor.h"
#include "fuzzers/cli/command.h"
#include "generators/kernel/generator.h"

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
}  // namespace l0spv::fuzzers::cli
