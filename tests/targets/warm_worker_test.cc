// oracles/process/warm_worker.h: one process answers every request; a crash
// or a hang is an error naming it, the worker is gone, and a new one serves.
#include "oracles/process/warm_worker.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/process/subprocess.h"

namespace l0spv::oracles {
namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;

// Echoes the request with the serving process's pid; "crash" and "hang"
// do what they say, "exit" exits 3. The crash is a SIGKILL: sanitizers turn
// a SIGSEGV into a report and an exit code.
std::string Handler(const std::string& request) {
  if (request == "crash") std::raise(SIGKILL);
  if (request == "hang") std::this_thread::sleep_for(30s);
  if (request == "exit") std::_Exit(3);
  return absl::StrCat(request, "@", getpid());
}

bool Alive(pid_t pid) { return kill(pid, 0) == 0; }

TEST(WarmWorkerProcess, OneProcessAnswersEveryRequestInOrder) {
  auto worker = WarmWorker::Start(Handler, 0);
  ASSERT_TRUE(worker.ok()) << worker.status();
  const pid_t pid = (*worker)->pid();
  EXPECT_NE(pid, getpid());
  for (const char* request : {"a", "bb", ""}) {
    auto reply = (*worker)->Run(request, 5s);
    ASSERT_TRUE(reply.ok()) << reply.status();
    EXPECT_EQ(*reply, absl::StrCat(request, "@", pid));
  }
  EXPECT_EQ((*worker)->served(), 3u);
  // A large request and reply cross the socket whole.
  const std::string big(3 << 20, 'x');
  auto reply = (*worker)->Run(big, 5s);
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(reply->size(), big.size() + 1 + std::to_string(pid).size());
  worker->reset();
  EXPECT_FALSE(Alive(pid)) << "the destructor reaps the worker";
}

TEST(WarmWorkerProcess, ACrashIsAnErrorNamingTheSignalAndTheCallerGoesOn) {
  auto worker = WarmWorker::Start(Handler, 0);
  ASSERT_TRUE(worker.ok());
  const pid_t pid = (*worker)->pid();
  auto reply = (*worker)->Run("crash", 5s);
  ASSERT_FALSE(reply.ok());
  EXPECT_TRUE(absl::IsUnavailable(reply.status())) << reply.status();
  EXPECT_THAT(reply.status().message(), HasSubstr("signal 9"));
  EXPECT_FALSE((*worker)->running());
  EXPECT_FALSE(Alive(pid));
  EXPECT_TRUE(absl::IsUnavailable((*worker)->Run("a", 5s).status()));
  // An exit is named too.
  auto again = WarmWorker::Start(Handler, 0);
  ASSERT_TRUE(again.ok());
  auto exited = (*again)->Run("exit", 5s);
  ASSERT_FALSE(exited.ok());
  EXPECT_THAT(exited.status().message(), HasSubstr("exit 3"));
}

TEST(WarmWorkerProcess, AHangIsDeadlineExceededAndTheWorkerIsKilled) {
  auto worker = WarmWorker::Start(Handler, 0);
  ASSERT_TRUE(worker.ok());
  const pid_t pid = (*worker)->pid();
  const auto start = std::chrono::steady_clock::now();
  auto reply = (*worker)->Run("hang", 200ms);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  ASSERT_FALSE(reply.ok());
  EXPECT_TRUE(absl::IsDeadlineExceeded(reply.status())) << reply.status();
  EXPECT_THAT(reply.status().message(), HasSubstr("within 200 ms"));
  EXPECT_FALSE(Alive(pid));
}

TEST(WarmWorkerProcess, TheMemoryLimitIsTheWorkers) {
  if (!kMemoryLimitsEnforced) GTEST_SKIP() << "no RLIMIT_AS under ASan";
  auto worker = WarmWorker::Start(
      [](const std::string&) {
        std::string huge(size_t{1} << 30, 'x');  // 1 GiB under a 256 MiB cap
        return std::string(1, huge[12345]);
      },
      uint64_t{256} << 20);
  ASSERT_TRUE(worker.ok());
  auto reply = (*worker)->Run("", 10s);
  EXPECT_FALSE(reply.ok()) << "the allocation must fail in the worker";
  // The caller is not limited.
  std::string here(size_t{512} << 20, 'y');
  EXPECT_EQ(here[7], 'y');
}

TEST(WarmWorkerProcess, AForkedCopyDetachesAndLeavesTheWorkerServing) {
  auto worker = WarmWorker::Start(Handler, 0);
  ASSERT_TRUE(worker.ok());
  const pid_t child = fork();
  if (child == 0) {
    (*worker)->Detach();
    worker->reset();  // must neither kill nor stop the parent's worker
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  auto reply = (*worker)->Run("after", 5s);
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_THAT(*reply, HasSubstr("after@"));
}

}  // namespace
}  // namespace l0spv::oracles
