// oracles/targets/adapter_util.h — pieces every target adapter shares:
// turning how a worker or tool process ended into an Execution, scratch
// directories, build-log first-error extraction and the reference stage of
// the optimize/translate-then-run targets.
//
// Contract: nothing here throws or aborts; process trouble is a value. The
// worker protocol is one Execution as JSON on the worker's stdout
// (execution_json.h); anything else from a worker that exited 0 is kCrashed
// ("ended without a result").
#pragma once

#include <chrono>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "oracles/execution.h"
#include "oracles/process/subprocess.h"
#include "oracles/reference/interpreter.h"
#include "oracles/targets/scratch_dir.h"
#include "oracles/targets/target.h"
#include "oracles/targets/worker_reply.h"
#include "spirv/test_case.h"

namespace l0spv::oracles {

// The last `lines` lines of `text` (trailing newlines ignored).
std::string LastLines(const std::string& text, size_t lines);

// The first line of a build log that reports an error (a line containing
// "error", case-insensitive; one ending in ':' is joined with the next),
// else the first non-empty line; normalized for signatures: whitespace
// collapsed, hexadecimal addresses replaced by "0x?", `scratch` (a
// per-run directory) replaced by "<dir>".
std::string NormalizedFirstError(const std::string& log,
                                 const std::string& scratch = "");

// Deadline bookkeeping for multi-stage runs: each stage gets what is left.
class RunClock {
 public:
  explicit RunClock(std::chrono::milliseconds budget);
  // At least 1 ms, so a stage started at the deadline times out at once.
  std::chrono::milliseconds Remaining() const;
  ChildLimits Limits(const TargetRunLimits& limits,
                     size_t max_output_bytes = 1 << 20) const;

 private:
  std::chrono::steady_clock::time_point deadline_;
};

// kTimedOut / kCrashed for a process that did not end normally, naming `who`
// ("ocloc", "spirv-opt"), with the signal and the last stderr line in the
// message and the stderr tail in the log. Returns kOk (empty) for a process
// that exited, whatever its exit code.
Execution AbnormalEnding(const ChildResult& child, const std::string& who);

// Parses a worker's reply (see the file comment).
Execution ExecutionFromWorker(const absl::StatusOr<ChildResult>& child,
                              const std::string& who);

// Runs the reference interpreter on `test_case` in a worker process.
Execution RunReferenceInWorker(const spirv::TestCase& test_case,
                               const reference::ReferenceOptions& options,
                               const ChildLimits& limits);

// Launches sharing modules on the reference interpreter: one worker runs
// them all; when it does not come back whole (a launch crashed or hung it),
// each launch runs again in its own worker, so every result is its own.
std::vector<Execution> RunReferenceBatchInWorker(
    std::span<const spirv::TestCase> launches,
    const reference::ReferenceOptions& options, const RunClock& clock,
    const TargetRunLimits& limits);

// spirv-val in the environment the reference interpreter validates with:
// the universal environment of the module's version (interpreter.cc says
// why not the OpenCL one).
absl::Status ValidateLikeReference(const std::vector<uint32_t>& words);

// The reference stage of the optimize/translate/link-then-run targets:
// `outputs` (what `who`, e.g. "spirv-opt -O", made of the case's modules:
// one module — the whole program, the case's modules linked when it has
// several — or one per module of the case, in the case's order, which the
// reference then links) must each pass ValidateLikeReference and declare no
// body-less function its input did not — otherwise kBuildFailed naming `who`
// (and the module file) and the validator's message — and then run on the
// reference interpreter in a worker, in place of the case's modules. The
// Execution's log starts with `producer_log` (what the producer printed).
// `launches` share the case's modules (spirv/kernel_batch.h; one case is a
// batch of one): the checks run once, then each launch in its own worker
// within what is left of `clock`; one Execution per launch.
std::vector<Execution> RunOutputOnReference(
    std::span<const spirv::TestCase> launches,
    std::vector<std::vector<uint32_t>> outputs, const std::string& who,
    const std::string& producer_log, const reference::ReferenceOptions& options,
    const RunClock& clock, const TargetRunLimits& limits);

// One tool stage of a multi-stage target (spirv-opt, llvm-spirv -r, ...):
// runs `argv` in `dir` with what is left of `clock`. nullopt when the tool
// exited 0 (its stderr appended to `log`); otherwise the run's result:
// kUnsupported for harness trouble (tool missing, fork failure), kCrashed /
// kTimedOut naming `who`, and for a non-zero exit kBuildFailed —
// "<who> rejected a valid module: <first error>", or, when `input` itself
// fails ValidateLikeReference, "the module fails validation: ..." (what the
// reference says about such a module, so it is no finding).
std::optional<Execution> RunToolStage(const std::vector<std::string>& argv,
                                      const std::string& dir,
                                      const RunClock& clock,
                                      const TargetRunLimits& limits,
                                      const std::string& who,
                                      const std::vector<uint32_t>& input,
                                      std::string* log);

// Reads a SPIR-V binary a consumer wrote.
absl::StatusOr<std::vector<uint32_t>> ReadModule(const std::string& path);

// The SPIR-V version of a module header as "1.N" ("1.0" when unreadable).
std::string SpirvVersionString(const std::vector<uint32_t>& words);

}  // namespace l0spv::oracles
