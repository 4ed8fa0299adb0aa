// reducers/spirv_reduce_stage.h — drives SPIRV-Tools' `spirv-reduce` as a
// process (Debian ships no headers for its library).
//
// Contract:
//  - The stage writes the current case to a scratch directory and an
//    interestingness script beside it that runs `CHECK... CASE_DIR
//    --target=... --signature=... --strict --module=CANDIDATE` under
//    `timeout` (spirv-reduce itself has no time limit) and exits 0 iff that
//    command exits 1 (`check`'s "interesting"), the convention spirv-reduce
//    wants. spirv-reduce runs with the scratch directory as its working
//    directory (it writes temp_NNNN.spv files there) and with the time left
//    in the reduction budget; the script keeps a copy of every interesting
//    candidate, so a run cut short by the budget still yields its progress.
//  - The module spirv-reduce returns is re-checked in process before it
//    replaces the current case.
//  - spirv-reduce 2023.1 has no --target-env: it validates candidates in the
//    universal environment, which accepts our Kernel modules; the `check`
//    it runs lints them with the Level Zero rules as well.
//  - When spirv-reduce is not installed (or no check command is given) the
//    stage does nothing and `unsupported()` says why.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "reducers/stage.h"

namespace l0spv::reducers {

struct SpirvReduceOptions {
  // The spirv-reduce executable; empty = found in PATH.
  std::string program;
  // The interestingness command before its CASE_DIR argument, e.g.
  // {"/usr/bin/l0spv-fuzz", "check"}; empty = stage unsupported.
  std::vector<std::string> check_command;
  std::vector<std::string> targets;
  std::string signature;
  // Per-target limit passed on as --timeout (seconds); the script's own
  // limit is derived from it.
  uint32_t target_timeout_seconds = 10;
  std::string scratch_parent;  // empty = the system temp directory
  uint32_t step_limit = 2500;
  uint64_t reference_steps = 0;  // passed on as --ref_steps when set
};

class SpirvReduceStage : public Stage {
 public:
  explicit SpirvReduceStage(SpirvReduceOptions options);
  std::string name() const override { return "spirv-reduce"; }
  bool Run(ReductionContext& ctx) override;
  // Why the stage cannot run here (empty when it can).
  const std::string& unsupported() const { return unsupported_; }
  // Interestingness runs made by spirv-reduce's script so far.
  uint64_t script_runs() const { return script_runs_; }

 private:
  SpirvReduceOptions options_;
  std::string unsupported_;
  uint64_t script_runs_ = 0;
};

// What the stages driving an outside reducer (spirv-reduce, spirv-fuzz
// --shrink) share: a fresh scratch directory under `parent` (the system
// process's scratch root when empty; path() empty when it cannot be made),
// removed with the object, ...
class ReduceScratch {
 public:
  explicit ReduceScratch(const std::string& parent);
  ~ReduceScratch();
  ReduceScratch(const ReduceScratch&) = delete;
  ReduceScratch& operator=(const ReduceScratch&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// ... and the interestingness script DIR/interesting.sh: `CHECK... DIR/case
// --target=... --signature=... --timeout=... --strict EXTRA...
// [--ref_steps=N] --module=CANDIDATE` under `timeout` (per-target limit x
// (targets + 1) + 5 s), exit 0 iff that exits 1; each run appends a line to
// `runs`, each interesting candidate is copied to `best`. nullopt when the
// script cannot be written. `who` names the reducer in its comment.
struct CheckScript {
  std::string path, best, runs;
};
std::optional<CheckScript> WriteCheckScript(
    const SpirvReduceOptions& options, const std::string& dir,
    const std::vector<std::string>& extra_flags, const std::string& who);

// Lines of a text file (the script's run count); 0 when unreadable.
uint64_t CountLines(const std::string& path);

}  // namespace l0spv::reducers
