// fuzzers/cli/command.h — the `l0spv-fuzz` subcommand table and the shared
// command-line conventions.
//
// Contract: each subcommand lives in its own file and registers a Command.
// Flags are abseil flags, but parsing is ours (ParseArgs) so that a bad flag
// or value is a usage error with exit code 2, and `--help` documents only the
// flags the subcommand takes. Exit codes follow DESIGN.md: 0 success / nothing
// found, 1 a finding, 2 usage or input error.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace l0spv::fuzzers::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFinding = 1;
inline constexpr int kExitUsage = 2;

struct Command {
  std::string name;                // "lint"
  std::string summary;             // one line for the overview
  std::string usage;               // synopsis + description for `--help`
  std::vector<std::string> flags;  // abseil flag names this command accepts
  int (*run)(const std::vector<std::string>& positional);
};

const std::vector<Command>& AllCommands();
const Command* FindCommand(const std::string& name);

// Parses `args` (everything after the subcommand) against `command.flags`.
// Returns the positional arguments, or InvalidArgument naming the bad flag.
// Sets *wants_help when --help/-h is present.
absl::StatusOr<std::vector<std::string>> ParseArgs(
    const Command& command, const std::vector<std::string>& args,
    bool* wants_help);

std::string HelpText(const Command& command);

// Prints "l0spv-fuzz <cmd>: <message>" to stderr and returns kExitUsage.
int UsageError(const std::string& command, const std::string& message);

}  // namespace l0spv::fuzzers::cli
