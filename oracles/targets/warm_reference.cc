#include "oracles/targets/warm_reference.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "oracles/execution_json.h"
#include "oracles/process/frames.h"
#include "oracles/process/warm_worker.h"

namespace l0spv::oracles {
namespace {

// The worker is a fork of this very binary: the options travel as their
// bytes.
static_assert(std::is_trivially_copyable_v<reference::ReferenceOptions>);

// A request: the options' bytes, the number of launches, each launch as
// spirv::TestCaseToBytes. A reply: 1 and the Executions as one CBOR array
// (execution_json.h), or 0 and why the request did not read.
std::string Request(std::span<const spirv::TestCase> launches,
                    const reference::ReferenceOptions& options) {
  std::string out(reinterpret_cast<const char*>(&options), sizeof options);
  frames::Put<uint64_t>(out, launches.size());
  for (const spirv::TestCase& l : launches)
    frames::PutString(out, spirv::TestCaseToBytes(l));
  return out;
}

std::string Serve(const std::string& request) {
  reference::ReferenceOptions options;
  uint64_t count = 0;
  size_t at = sizeof options;
  std::string refused = "0the request is unreadable";
  if (request.size() < sizeof options) return refused;
  std::memcpy(&options, request.data(), sizeof options);
  if (!frames::Take(request, at, &count)) return refused;
  std::vector<spirv::TestCase> launches;
  for (uint64_t i = 0; i < count; ++i) {
    std::string bytes;
    if (!frames::TakeString(request, at, &bytes)) return refused;
    auto tc = spirv::TestCaseFromBytes(bytes, "warm reference request");
    if (!tc.ok()) return absl::StrCat("0", tc.status().message());
    launches.push_back(*std::move(tc));
  }
  nlohmann::json list = nlohmann::json::array();
  for (const Execution& e : reference::RunReferenceBatch(launches, options))
    list.push_back(ExecutionToJson(e));
  std::string reply = "1";
  nlohmann::json::to_cbor(list, reply);
  return reply;
}

struct Warm {
  std::mutex mu;
  pid_t owner = 0;  // the process whose worker `worker` is
  std::unique_ptr<WarmWorker> worker;
  uint64_t served = 0;
};

Warm& State() {
  static Warm* warm = new Warm();  // never destroyed: the worker ends at EOF
  return *warm;
}

}  // namespace

bool WarmReferenceEnabled() {
  const char* v = std::getenv("L0SPV_WARM_REFERENCE");
  return v == nullptr || std::strcmp(v, "0") != 0;
}

absl::StatusOr<std::vector<Execution>> RunReferenceBatchWarm(
    std::span<const spirv::TestCase> launches,
    const reference::ReferenceOptions& options, const ChildLimits& limits) {
  if (!WarmReferenceEnabled())
    return absl::UnavailableError("L0SPV_WARM_REFERENCE=0: no warm worker");
  Warm& warm = State();
  std::lock_guard<std::mutex> lock(warm.mu);
  if (warm.owner != getpid()) {
    // A fork of the process that started it: the socket is shared with the
    // parent, so this process leaves it alone and starts its own.
    if (warm.worker) warm.worker->Detach();
    warm.worker.reset();
    warm.owner = getpid();
  }
  if (!warm.worker || !warm.worker->running() ||
      warm.worker->memory_bytes() != limits.memory_bytes) {
    warm.worker.reset();
    auto started = WarmWorker::Start(Serve, limits.memory_bytes);
    if (!started.ok()) return started.status();
    warm.worker = *std::move(started);
  }
  auto reply = warm.worker->Run(Request(launches, options), limits.wall_time);
  if (!reply.ok()) return reply.status();
  if (reply->empty() || (*reply)[0] != '1') {
    return absl::UnavailableError(
        absl::StrCat("the warm reference refused the request: ",
                     reply->empty() ? "empty reply" : reply->substr(1)));
  }
  const nlohmann::json list =
      nlohmann::json::from_cbor(reply->begin() + 1, reply->end(),
                                /*strict=*/true, /*allow_exceptions=*/false);
  if (!list.is_array() || list.size() != launches.size())
    return absl::UnavailableError("the warm reference's reply is unreadable");
  std::vector<Execution> results;
  for (const nlohmann::json& one : list) {
    auto e = ExecutionFromJson(one);
    if (!e.ok())
      return absl::UnavailableError(absl::StrCat(
          "the warm reference's reply is unreadable: ", e.status().message()));
    results.push_back(*std::move(e));
  }
  ++warm.served;
  return results;
}

uint64_t WarmReferenceServed() {
  Warm& warm = State();
  std::lock_guard<std::mutex> lock(warm.mu);
  return warm.served;
}

}  // namespace l0spv::oracles
