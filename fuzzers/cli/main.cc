// l0spv-fuzz: the command. Subcommands in the manner of git (see DESIGN.md).
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "fuzzers/cli/commands.h"

namespace l0spv::cli {
namespace {

// Subcommands of the design that later issues deliver; named here so a user
// gets a precise answer instead of "unknown command".
struct Planned {
  const char* name;
  const char* issue;
};
constexpr Planned kPlanned[] = {
    {"transform", "issue 6 (transformations)"},
    {"replay", "issue 6 (transformations)"},
    {"check", "issue 5 (oracle and verdicts)"},
    {"reduce", "issue 7 (reduction)"},
    {"merge", "issue 5 (campaign sharding)"},
};

void PrintOverview(std::ostream& out) {
  out << "usage: l0spv-fuzz <command> [flags] [args]\n\n"
         "Fuzzing and differential testing for Level Zero SPIR-V consumers.\n\n"
         "commands:\n";
  for (const Command& c : AllCommands())
    out << absl::StrFormat("  %-10s %s\n", c.name, c.summary);
  out << "\n`l0spv-fuzz <command> --help` describes a command and its flags.\n"
         "Not in this build yet: the campaign (issue 5)";
  for (const Planned& p : kPlanned) out << ", " << p.name;
  out << ".\n";
}

}  // namespace
}  // namespace l0spv::cli

int main(int argc, char** argv) {
  using namespace l0spv::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" ||
      args[0] == "help") {
    PrintOverview(args.empty() ? std::cerr : std::cout);
    return args.empty() ? kExitUsage : kExitOk;
  }
  const std::string name = args[0];
  const Command* command = FindCommand(name);
  if (command == nullptr) {
    for (const Planned& p : kPlanned) {
      if (name == p.name) {
        return UsageError(
            name, absl::StrFormat("not implemented in this build yet; it "
                                  "lands with %s",
                                  p.issue));
      }
    }
    if (name.rfind("-", 0) == 0) {
      return UsageError("",
                        "the campaign (`l0spv-fuzz --target=...`) is not "
                        "implemented yet; it lands with issue 5. Try "
                        "`l0spv-fuzz targets` or `l0spv-fuzz lint`.");
    }
    PrintOverview(std::cerr);
    return UsageError("", "unknown command '" + name + "'");
  }
  bool wants_help = false;
  auto positional = ParseArgs(
      *command, std::vector<std::string>(args.begin() + 1, args.end()),
      &wants_help);
  if (wants_help) {
    std::cout << HelpText(*command);
    return kExitOk;
  }
  if (!positional.ok()) {
    return UsageError(name, std::string(positional.status().message()));
  }
  return command->run(*positional);
}
