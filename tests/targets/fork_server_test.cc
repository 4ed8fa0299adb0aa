// ForkServer (oracles/process/fork_server.h): requests run in grandchildren
// forked from the warmed-up server, with RunInChild's isolation.
#include "oracles/process/fork_server.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace l0spv::oracles {
namespace {

using ::testing::HasSubstr;

// Set by the warm-up in the server; changed by requests in grandchildren.
int g_warm_value = 0;
int g_requests_seen = 0;

ChildLimits Limits(int ms = 5000) {
  ChildLimits l;
  l.wall_time = std::chrono::milliseconds(ms);
  return l;
}

std::unique_ptr<ForkServer> StartOk() {
  auto server = ForkServer::Start(
      [] {
        g_warm_value = 42;
        return absl::OkStatus();
      },
      [](const std::string& request) -> std::string {
        ++g_requests_seen;
        // SIGKILL: sanitizers turn a SIGSEGV into an exit code.
        if (request == "crash") kill(getpid(), SIGKILL);
        if (request == "hang") pause();
        if (request == "stderr") fputs("to stderr\n", stderr);
        return std::to_string(g_warm_value) + "/" +
               std::to_string(g_requests_seen) + "/" + request;
      },
      0);
  EXPECT_TRUE(server.ok()) << server.status();
  return server.ok() ? *std::move(server) : nullptr;
}

TEST(ForkServer, EveryRequestStartsFromTheWarmState) {
  auto server = StartOk();
  ASSERT_NE(server, nullptr);
  for (const char* request : {"a", "b", "c"}) {
    auto r = server->Run(request, Limits());
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_TRUE(r->Succeeded()) << r->Describe();
    // 42: the warm-up ran in the server; 1: no request saw another's.
    EXPECT_EQ(r->stdout_text, std::string("42/1/") + request);
  }
  EXPECT_EQ(server->served(), 3u);
  EXPECT_EQ(g_warm_value, 0) << "the warm-up ran in this process";
}

TEST(ForkServer, CrashAndHangEndOnlyTheirGrandchild) {
  auto server = StartOk();
  ASSERT_NE(server, nullptr);
  auto crash = server->Run("crash", Limits());
  ASSERT_TRUE(crash.ok()) << crash.status();
  EXPECT_EQ(crash->ending, ChildResult::Ending::kSignaled);
  EXPECT_EQ(crash->signal, SIGKILL);
  auto hang = server->Run("hang", Limits(300));
  ASSERT_TRUE(hang.ok()) << hang.status();
  EXPECT_EQ(hang->ending, ChildResult::Ending::kTimedOut);
  auto after = server->Run("stderr", Limits());
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(after->stdout_text, "42/1/stderr");
  EXPECT_EQ(after->stderr_text, "to stderr\n");
  EXPECT_EQ(server->served(), 3u);
}

TEST(ForkServer, LargeRequestsAndRepliesCrossWhole) {
  auto server = StartOk();
  ASSERT_NE(server, nullptr);
  const std::string big(3 << 20, 'x');
  ChildLimits limits = Limits();
  limits.max_output_bytes = 8 << 20;
  auto r = server->Run(big, limits);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->stdout_text, "42/1/" + big);
}

TEST(ForkServer, AFailedWarmUpIsAnError) {
  auto server =
      ForkServer::Start([] { return absl::UnavailableError("no ICD"); },
                        [](const std::string&) { return std::string(); }, 0);
  ASSERT_FALSE(server.ok());
  EXPECT_THAT(std::string(server.status().message()),
              HasSubstr("warm-up failed: no ICD"));
}

TEST(ForkServer, AWarmUpThatLeavesThreadsIsRefused) {
  auto server = ForkServer::Start(
      [] {
        // A thread that outlives the warm-up (a driver's worker pool).
        new std::thread([] { pause(); });
        return absl::OkStatus();
      },
      [](const std::string&) { return std::string(); }, 0);
  ASSERT_FALSE(server.ok());
  EXPECT_EQ(server.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(server.status().message()),
              HasSubstr("warm-up left 2 threads"));
}

TEST(ForkServer, ADeadServerIsAnErrorNotAHang) {
  auto server =
      ForkServer::Start([] { return absl::OkStatus(); },
                        [](const std::string&) { return std::string(); }, 0);
  ASSERT_TRUE(server.ok()) << server.status();
  // Kill the server itself: the next request must fail fast, cleanly.
  // The server is this process's child; find it through /proc.
  const pid_t self = getpid();
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(e.path() / "stat");
    std::string pid, comm, state;
    pid_t ppid = 0;
    stat >> pid >> comm >> state >> ppid;
    if (ppid == self) kill(std::stoi(pid), SIGKILL);
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto r = (*server)->Run("x", Limits());
  EXPECT_FALSE(r.ok());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
  EXPECT_FALSE((*server)->Run("x", Limits()).ok()) << "stays stopped";
}

}  // namespace
}  // namespace l0spv::oracles
