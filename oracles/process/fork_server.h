// oracles/process/fork_server.h — a warm worker that keeps isolation: a
// child process, forked once, pays a set-up cost (`warm_up`: loading an
// OpenCL ICD and its platform, most of Oclgrind's fixed cost per module)
// and then forks one grandchild per request from that warm state.
//
// Contract:
//  - Run(request, limits) runs handler(request) in a fresh grandchild with
//    RunInChild's limits and reporting, and returns that ChildResult: a
//    request that crashes, hangs or exhausts memory ends only its own
//    grandchild, never the server nor the caller (docs/DESIGN.md's
//    isolation). Each request starts from the server's state after
//    warm_up, never from an earlier request's.
//  - The server runs nothing but warm_up and its loop; warm_up must leave
//    it single-threaded (RunInChild forks from it). Start checks this and
//    fails (FailedPrecondition) otherwise, as it fails when warm_up
//    returns an error.
//  - Run returns an error Status only when the server cannot serve (it
//    died, or its reply is unreadable or late): the server is then stopped
//    and the caller may Start another or run the request cold. Requests
//    served so far are counted (served()).
//  - Not thread-safe; one request at a time. The destructor stops the
//    server and reaps it.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "oracles/process/subprocess.h"

namespace l0spv::oracles {

class ForkServer {
 public:
  using WarmUp = std::function<absl::Status()>;
  using Handler = std::function<std::string(const std::string& request)>;

  // `memory_bytes`: RLIMIT_AS of the server (0 = none; its grandchildren
  // get each request's own limit).
  static absl::StatusOr<std::unique_ptr<ForkServer>> Start(
      WarmUp warm_up, Handler handler, uint64_t memory_bytes);

  absl::StatusOr<ChildResult> Run(const std::string& request,
                                  const ChildLimits& limits);

  uint64_t served() const { return served_; }
  ~ForkServer();

 private:
  ForkServer(pid_t pid, int socket) : pid_(pid), socket_(socket) {}
  void Stop();

  pid_t pid_;
  int socket_;
  uint64_t served_ = 0;
};

}  // namespace l0spv::oracles
