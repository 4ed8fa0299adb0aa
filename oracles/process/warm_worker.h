// oracles/process/warm_worker.h — one long-lived worker process that runs
// requests in a loop: the isolation of a worker without a fork per request.
//
// Why: a worker forked per request (RunInChild) re-faults every code page
// it executes (fork copies no page-table entries of file mappings) and
// copies the caller's page tables: ~1.6 ms of a 2.7 ms reference run of a
// consumer's output. A warm worker pays that once.
//
// Contract:
//  - Start(handler, memory_bytes) forks the worker (RLIMIT_AS
//    memory_bytes, 0 = none; stdin, stdout and stderr on /dev/null; killed
//    when the caller's thread that started it exits, PR_SET_PDEATHSIG). It
//    runs handler(request) for each request, in order, in its own memory:
//    the handler must not depend on earlier requests' state.
//  - Run(request, wall_time) returns handler(request), or an error when the
//    worker cannot answer: it crashed (Unavailable, naming the signal or
//    exit), did not answer within wall_time (DeadlineExceeded), or its
//    reply was unreadable (Unavailable). After an error the worker is
//    stopped (killed and reaped) and Run answers Unavailable until the
//    caller Starts another; a crash or hang never reaches the caller.
//  - The request that ended a worker is the one Run was given: callers
//    re-run it in a cold worker (RunInChild) for the exact message.
//  - Not thread-safe; one request at a time. The destructor stops it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace l0spv::oracles {

class WarmWorker {
 public:
  using Handler = std::function<std::string(const std::string& request)>;

  static absl::StatusOr<std::unique_ptr<WarmWorker>> Start(
      Handler handler, uint64_t memory_bytes);

  absl::StatusOr<std::string> Run(const std::string& request,
                                  std::chrono::milliseconds wall_time);

  // In a forked copy of the caller: closes this process's copy of the
  // socket and leaves the worker to the process that started it.
  void Detach();

  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  uint64_t served() const { return served_; }
  uint64_t memory_bytes() const { return memory_bytes_; }
  ~WarmWorker();

 private:
  WarmWorker(pid_t pid, int socket, uint64_t memory_bytes)
      : pid_(pid), socket_(socket), memory_bytes_(memory_bytes) {}
  // Kills and reaps the worker, after up to `grace` for it to end by
  // itself; what ended it ("signal 11 (...)", "exit 3", "still running":
  // killed here).
  std::string Stop(std::chrono::milliseconds grace);

  pid_t pid_;
  int socket_;
  uint64_t memory_bytes_;
  uint64_t served_ = 0;
};

}  // namespace l0spv::oracles
