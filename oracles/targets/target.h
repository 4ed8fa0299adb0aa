// oracles/targets/target.h — the one interface every real consumer hides
// behind (DESIGN.md: "one adapter per real consumer, all behind one Target
// interface"), and the factory that turns a target name into an adapter.
//
// Contract:
//  - MakeTarget(name) accepts every name `l0spv-fuzz targets` lists: `ref`,
//    `opencl[:PLATFORM]`, `ocloc:DEVICE`, `oclgrind`, `spirv-opt[:PASSES]`,
//    `llvm-spirv` (and `gpu`, which has no adapter here). It probes only what
//    that target needs and fails with the registry's reason when the consumer
//    is missing: FailedPrecondition (tool or driver not installed, no
//    adapter), NotFound (no OpenCL platform or ocloc device by that name),
//    InvalidArgument (unknown kind, malformed name, unknown spirv-opt pass).
//  - Target::Run never throws, crashes or hangs the caller: every consumer
//    runs in a worker process (a fork or a separate executable) under
//    TargetRunLimits; a signal, abort, OOM kill or hang of the consumer comes
//    back as kCrashed / kTimedOut with the signal in `message` and the tail
//    of its stderr in `log`. Harness trouble during a run (no scratch space,
//    fork failure, the consumer's executable vanished) is kUnsupported with
//    the reason: it is never reported as a finding against the consumer.
//  - Compile-only targets (executes() == false, e.g. ocloc) return kOk with
//    no buffers when the consumer accepts the module, kBuildFailed with the
//    normalized first error when it rejects it.
//  - A Target object may be reused for any number of runs; it is not
//    thread-safe (one per pipeline).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "oracles/execution.h"
#include "oracles/reference/interpreter.h"
#include "spirv/test_case.h"

namespace l0spv::oracles {

// Limits of one Run: the wall clock of the whole run (every stage of a
// multi-stage target such as spirv-opt + ref shares it) and the address
// space of every worker (RLIMIT_AS; 0 = unlimited; not applied in ASan
// builds, see kMemoryLimitsEnforced).
struct TargetRunLimits {
  std::chrono::milliseconds wall_time{60000};
  uint64_t memory_bytes = uint64_t{4} << 30;
};

struct TargetOptions {
  // Parent of the per-run scratch directories; empty = the system temp dir.
  std::string scratch_dir;
  // Options of the reference interpreter for `ref` and for the reference
  // stage of `spirv-opt` and `llvm-spirv`.
  reference::ReferenceOptions reference;
  // `ref` only: run the interpreter in this process instead of a worker.
  // Faster for tiny kernels; an interpreter crash would then end the caller.
  bool ref_in_process = false;
  // Overrides the consumer found in PATH: the ocloc, spirv-opt or
  // llvm-spirv executable, or Oclgrind's ICD library for `oclgrind`.
  std::string program;
  // Extra build options (ocloc `-options`, OpenCL clBuildProgram options).
  std::string build_options;
  // `oclgrind`: the checks turned on besides invalid memory accesses.
  // Uninitialized-value tracking is off by default: Oclgrind 21.10's plugin
  // segfaults on 12 vector corpus kernels (vec_*, vload_vstore, shuffle,
  // geometric, fp64_double), reports vec3 padding as uninitialized and
  // stops with "Work item needed to access private memory!" on others.
  bool oclgrind_data_races = true;
  bool oclgrind_uninitialized = false;
  // OpenCL targets (PoCL, Oclgrind): fork each batch's worker from a warm
  // server that loaded the ICD once (OpenClWarmWorker) instead of from the
  // caller. Results are the same; off measures the difference.
  bool warm_workers = true;
};

class Target {
 public:
  virtual ~Target() = default;
  // The canonical target name, e.g. "ocloc:tgllp", "spirv-opt:-O".
  virtual const std::string& name() const = 0;
  // False for compile-only targets, whose kOk carries no buffers.
  virtual bool executes() const = 0;
  // What this target drives, e.g. "/usr/bin/ocloc" (for logs and reports).
  virtual const std::string& consumer() const = 0;
  // Runs a case of one module or of several (TestCase::linked_modules):
  // every target takes both. A linker consumer links the modules itself
  // (spirv-link, ocloc link, clLinkProgram, zeModuleDynamicLink, ref); a
  // consumer of one module at a time (spirv-opt, llvm-spirv) runs on each and
  // the reference links what it made; a consumer that cannot link a form
  // answers kUnsupported saying why (PoCL 3.1: SPIR binaries).
  virtual Execution Run(const spirv::TestCase& test_case,
                        const TargetRunLimits& limits) = 0;
  // Runs launches that share one module (spirv/kernel_batch.h: each a case's
  // kernel, renamed, with the case's arguments) within `limits` for the
  // whole batch, and returns one Execution per launch, in order. A target
  // whose batches() is true builds the module once and runs each launch; a
  // failure of the whole build (rejection, crash, timeout) is every
  // launch's Execution, so the caller bisects the batch to find the case at
  // fault. The default runs each launch on its own with Run. Launches that
  // do not share one module are run one by one.
  // Precondition of a batch (several launches): every case in it passed
  // validation (the campaign runs the reference, which validates, before
  // any target), so a target may skip a consumer's own copy of that check
  // (spirv-opt --skip-validation). A batch broken anyway costs time, never a
  // wrong finding: the caller re-runs each case whose result is not ok
  // alone, and alone its module is validated again.
  virtual std::vector<Execution> RunBatch(
      std::span<const spirv::TestCase> launches,
      const TargetRunLimits& limits) {
    std::vector<Execution> out;
    out.reserve(launches.size());
    for (const spirv::TestCase& launch : launches)
      out.push_back(Run(launch, limits));
    return out;
  }
  // Whether RunBatch pays the consumer's fixed cost (process start, compiler
  // set-up, kernel library) once per batch: the campaign batches cases only
  // for such targets.
  virtual bool batches() const { return false; }
  // Whether a batch must hold only cases of one spirv::BatchKey: the
  // consumer changes what it does to every kernel of a module on the key's
  // properties (spirv-opt: decoration groups turn -O nearly off). Others
  // batch any cases: a smaller batch costs them a whole fixed cost.
  virtual bool batches_by_key() const { return false; }
};

absl::StatusOr<std::unique_ptr<Target>> MakeTarget(
    const std::string& name, const TargetOptions& options = {});

}  // namespace l0spv::oracles
