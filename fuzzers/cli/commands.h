// fuzzers/cli/commands.h — constructors of every subcommand (one file each).
#pragma once

#include "fuzzers/cli/command.h"

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
}  // namespace l0spv::fuzzers::cli
