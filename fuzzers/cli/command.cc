#include "fuzzers/cli/command.h"

#include <algorithm>
#include <iostream>

#include "absl/container/flat_hash_set.h"
#include "absl/flags/reflection.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "fuzzers/cli/commands.h"

namespace l0spv::fuzzers::cli {

const std::vector<Command>& AllCommands() {
  static const auto* commands = new std::vector<Command>{
      LintCommand(),     TargetsCommand(),   RunCommand(),
      GenerateCommand(), CampaignCommand(),  CheckCommand(),
      MergeCommand(),    TransformCommand(), ReplayCommand(),
      ReduceCommand(),   KnownBugsCommand(), ReportCommand()};
  return *commands;
}

const Command* FindCommand(const std::string& name) {
  for (const Command& c : AllCommands()) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

absl::StatusOr<std::vector<std::string>> ParseArgs(
    const Command& command, const std::vector<std::string>& args,
    bool* wants_help) {
  std::vector<std::string> positional;
  absl::flat_hash_set<std::string> seen;
  *wants_help = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h" || arg == "--helpfull") {
      *wants_help = true;
      continue;
    }
    if (arg == "--") {
      positional.insert(positional.end(), args.begin() + i + 1, args.end());
      break;
    }
    if (!absl::StartsWith(arg, "-") || arg == "-") {
      positional.push_back(arg);
      continue;
    }
    std::string body = arg.substr(arg[1] == '-' ? 2 : 1);
    std::string name = body, value;
    const bool has_value = body.find('=') != std::string::npos;
    if (has_value) {
      name = body.substr(0, body.find('='));
      value = body.substr(body.find('=') + 1);
    }
    // Hyphens are accepted for underscores (--schedule-seed is
    // --schedule_seed); abseil names cannot contain them.
    std::replace(name.begin(), name.end(), '-', '_');
    bool negated = false;
    auto accepts = [&command](const std::string& n) {
      for (const std::string& f : command.flags)
        if (f == n) return true;
      return false;
    };
    if (!accepts(name) && absl::StartsWith(name, "no") &&
        accepts(name.substr(2))) {
      negated = true;
      name = name.substr(2);
    }
    absl::CommandLineFlag* flag =
        accepts(name) ? absl::FindCommandLineFlag(name) : nullptr;
    if (flag == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag '", arg, "' for '", command.name,
                       "' (see `l0spv-fuzz ", command.name, " --help`)"));
    }
    if (flag->IsOfType<bool>()) {
      if (!has_value) value = negated ? "false" : "true";
    } else if (!has_value) {
      if (i + 1 >= args.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("flag --", name, " needs a value"));
      }
      value = args[++i];
    }
    // Repeatable list flags (--arg=a --arg=b) accumulate.
    if (flag->IsOfType<std::vector<std::string>>() && seen.contains(name)) {
      value = absl::StrCat(flag->CurrentValue(), ",", value);
    }
    seen.insert(name);
    // A path or name flag given explicitly empty is a mistake (an unset
    // shell variable), never "use the default".
    static const absl::flat_hash_set<std::string> kNonEmpty = {
        "out",    "dump",    "save_finding", "sidecar", "module", "kernel",
        "global", "local",   "offset",       "kinds",   "target", "time",
        "shard",  "profile", "reduce_time",  "consumer"};
    if (has_value && value.empty() && kNonEmpty.contains(name)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--", name, "= is empty; give a value or leave the flag out"));
    }
    std::string error;
    if (!flag->ParseFrom(value, &error)) {
      return absl::InvalidArgumentError(
          absl::StrCat("bad value '", value, "' for --", name, ": ", error));
    }
  }
  return positional;
}

std::string HelpText(const Command& command) {
  std::string text = absl::StrCat("usage: l0spv-fuzz ", command.usage, "\n");
  if (!command.flags.empty()) absl::StrAppend(&text, "\nflags:\n");
  for (const std::string& name : command.flags) {
    const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    if (flag == nullptr) continue;
    absl::StrAppend(
        &text, "  --", name, "  ", flag->Help(), " (default: ",
        flag->DefaultValue().empty() ? "\"\"" : flag->DefaultValue(), ")\n");
  }
  absl::StrAppend(&text,
                  "\nexit codes: 0 success / nothing found, 1 a finding, 2 "
                  "usage or input error\n");
  return text;
}

int UsageError(const std::string& command, const std::string& message) {
  std::cerr << "l0spv-fuzz" << (command.empty() ? "" : " ") << command << ": "
            << message << "\n";
  return kExitUsage;
}

}  // namespace l0spv::fuzzers::cli
