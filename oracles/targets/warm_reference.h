// oracles/targets/warm_reference.h — the reference interpreter in this
// process's warm worker (oracles/process/warm_worker.h): the reference run
// of a consumer's output (spirv-opt, llvm-spirv, spirv-link, spirv-fuzz) and
// the `ref` target in its worker, without a fork per run.
//
// Contract:
//  - RunReferenceBatchWarm(launches, options, limits) returns
//    reference::RunReferenceBatch(launches, options), computed in the warm
//    worker: the same Executions a cold worker (RunInChild) returns, wall
//    time aside. The worker is started on first use in each process (a
//    forked child never uses its parent's) and again after it ended, with
//    RLIMIT_AS limits.memory_bytes (a request with another limit gets a new
//    worker).
//  - It fails when the worker cannot answer: DeadlineExceeded when
//    `limits.wall_time` passed (the worker is killed), Unavailable when it
//    crashed or its reply is unreadable, or when it cannot be started. The
//    request is then the caller's to re-run in a cold worker, which names the
//    crash exactly (adapter_util.cc does).
//  - L0SPV_WARM_REFERENCE=0 in the environment turns it off (every call
//    Unavailable): the cold path alone, for comparison and bisection.
//  - Thread-safe: calls from several threads take turns.
#pragma once

#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "oracles/execution.h"
#include "oracles/process/subprocess.h"
#include "oracles/reference/interpreter.h"
#include "spirv/test_case.h"

namespace l0spv::oracles {

absl::StatusOr<std::vector<Execution>> RunReferenceBatchWarm(
    std::span<const spirv::TestCase> launches,
    const reference::ReferenceOptions& options, const ChildLimits& limits);

// False when L0SPV_WARM_REFERENCE=0.
bool WarmReferenceEnabled();

// Requests this process's warm worker has answered, over all its restarts
// (tests and benchmarks read it).
uint64_t WarmReferenceServed();

}  // namespace l0spv::oracles
