// oracles/targets/worker_reply.h — the reply protocol of the driver workers
// (Level Zero, OpenCL): each runs the consumer in a forked worker that
// prints a marker line and then one line of JSON, {"execution": {...}} or
// {"error": {"code", "message"}}, after whatever the driver printed.
//
// Contract: `ExecutionFromWorkerReply` turns how such a worker ended into an
// Execution or a Status and never throws: a timeout is kTimedOut, a signal
// kCrashed (both naming `who`, with the stderr tail in `log`), a non-zero
// exit or a missing marker kCrashed "ended without a result", unreadable
// JSON kCrashed; an "error" reply is NotFound (code "not_found") or
// Internal, for the harness. When the reply says "stdout_is_printf", what
// the worker printed before the marker is the kernel's printf output. The
// stderr tail is appended to the Execution's log under "[worker stderr]".
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "oracles/execution.h"
#include "oracles/process/subprocess.h"

namespace l0spv::oracles {

Execution FailedExecution(ExecutionStatus status, std::string message,
                          std::string log = "");

// `e` as the result of each of `launches` launches: what a batch
// (Target::RunBatch) reports when the stage they share failed.
std::vector<Execution> ForEveryLaunch(const Execution& e, size_t launches);

// The worker's side: the JSON to print after the marker.
nlohmann::json ErrorReply(const std::string& code, const std::string& text);
nlohmann::json ExecutionReply(const Execution& e);

// The parent's side; `who` is e.g. "OpenCL worker".
absl::StatusOr<Execution> ExecutionFromWorkerReply(const ChildResult& child,
                                                   const std::string& who,
                                                   const std::string& marker);

// A batch (Target::RunBatch): the worker replies {"executions": [...]}, one
// per launch (ExecutionsReply). A timeout, signal, missing or unreadable
// reply, or a count other than `launches` is every launch's failure.
nlohmann::json ExecutionsReply(const std::vector<Execution>& executions);
absl::StatusOr<std::vector<Execution>> ExecutionsFromWorkerReply(
    const ChildResult& child, const std::string& who, const std::string& marker,
    size_t launches);

}  // namespace l0spv::oracles
