// oracles/targets/tool_adapter.h — the bases of the target adapters, so that
// a new consumer is one small file: `AdapterBase` holds what every Target
// reports (name, executes, consumer, options); `ToolAdapter` adds what every
// consumer run as a program on a module file shares (ocloc, spirv-opt,
// llvm-spirv, the linkers): the executable, resolved once, and the per-run
// preamble.
//
// Contract:
//  - ResolveTool: TargetOptions::program when set (it must be an executable;
//    FailedPrecondition otherwise; it is then also the consumer and the
//    registry is not asked), else the registry's probe of the target name
//    (DescribeTarget: the executable it found and its consumer string;
//    UnavailableStatus when the target is unavailable). It is the only
//    place a tool adapter searches for its program: Run never does.
//  - ToolAdapter::Run creates a fresh scratch directory under
//    TargetOptions::scratch_dir ("l0spv-<kind>-XXXXXX"), writes the case's
//    module to module.spv in it (its linked modules to module-1.spv, ...)
//    and calls RunInScratch with the directory
//    and a clock holding the run's whole time budget; trouble in that
//    preamble is kUnsupported "harness: ..." (never a finding). The
//    directory and everything the tool wrote there are removed afterwards.
//  - RunBatch does the same once for launches sharing one module
//    (Target::RunBatch): RunInScratch always receives a batch of launches
//    (Run's is a batch of one) and returns one Execution per launch; the
//    tool runs once on the shared module and only the reference stage runs
//    per launch. A failure before that stage is every launch's result.
//  - RunProducedModules is the last stage of the produce-then-run targets:
//    a missing or malformed output module is kBuildFailed "<who> exited 0
//    but wrote no usable module: ..."; otherwise RunOutputOnReference.
//    Targets that transform one module at a time (spirv-opt, llvm-spirv) run
//    on each module of a several-module case and hand over one output per
//    module: the reference links them.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "oracles/targets/adapter_util.h"
#include "oracles/targets/target.h"

namespace l0spv::oracles {

struct ToolProgram {
  std::string path;      // the executable Run starts
  std::string consumer;  // what Target::consumer reports
};

absl::StatusOr<ToolProgram> ResolveTool(const std::string& target_name,
                                        const TargetOptions& options);

class AdapterBase : public Target {
 public:
  AdapterBase(std::string name, bool executes, std::string consumer,
              const TargetOptions& options)
      : name_(std::move(name)),
        consumer_(std::move(consumer)),
        executes_(executes),
        options_(options) {}

  const std::string& name() const final { return name_; }
  bool executes() const final { return executes_; }
  const std::string& consumer() const final { return consumer_; }

 protected:
  const TargetOptions& options() const { return options_; }
  // kUnsupported "harness: <what>".
  static Execution HarnessFailure(absl::string_view what);

 private:
  std::string name_, consumer_;
  bool executes_;
  TargetOptions options_;
};

class ToolAdapter : public AdapterBase {
 public:
  ToolAdapter(std::string name, bool executes, ToolProgram tool,
              const TargetOptions& options);

  Execution Run(const spirv::TestCase& test_case,
                const TargetRunLimits& limits) final;
  std::vector<Execution> RunBatch(std::span<const spirv::TestCase> launches,
                                  const TargetRunLimits& limits) final;
  bool batches() const final { return true; }

 protected:
  using Launches = std::span<const spirv::TestCase>;
  // Runs the tool on `dir`/module.spv (the modules of launches[0], which
  // every launch shares) within what is left of `clock`: one Execution per
  // launch.
  virtual std::vector<Execution> RunInScratch(
      Launches launches, const std::string& dir, const RunClock& clock,
      const TargetRunLimits& limits) = 0;

  const std::string& program() const { return program_; }
  // The program's file name ("llvm-spirv-14"), for messages.
  const std::string& tool() const { return tool_; }

  // The case's module files in `dir`: 0 is module.spv (the kernel's), i > 0
  // module-i.spv (its linked modules), and their words.
  static size_t NumModules(const spirv::TestCase& test_case) {
    return 1 + test_case.linked_modules.size();
  }
  static std::string ModuleFile(size_t i);
  static const std::vector<uint32_t>& ModuleWords(
      const spirv::TestCase& test_case, size_t i);

  // `output_paths`: one module (the program) or one per module of the case
  // (RunOutputOnReference says which is which).
  std::vector<Execution> RunProducedModules(
      Launches launches, const std::vector<std::string>& output_paths,
      const std::string& who, const std::string& log, const RunClock& clock,
      const TargetRunLimits& limits) const;

 private:
  std::string program_, tool_, scratch_prefix_;
};

}  // namespace l0spv::oracles
