// Tests of oracles/targets/worker_reply.h: every way a driver worker can
// end, read back by the parent.
#include "oracles/targets/worker_reply.h"

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace l0spv::oracles {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kMarker[] = "\n@@test-result@@\n";

ChildResult Exited(const std::string& stdout_text, int code = 0) {
  ChildResult c;
  c.exit_code = code;
  c.stdout_text = stdout_text;
  return c;
}

TEST(WorkerReply, AnExecutionReplyRoundTrips) {
  Execution sent;
  sent.status = ExecutionStatus::kBuildFailed;
  sent.message = "no";
  ChildResult c = Exited(absl::StrCat("driver chatter", kMarker,
                                      ExecutionReply(sent).dump(), "\n"));
  c.stderr_text = "warn\n";
  auto e = ExecutionFromWorkerReply(c, "Test worker", kMarker);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->status, ExecutionStatus::kBuildFailed);
  EXPECT_EQ(e->message, "no");
  EXPECT_EQ(e->printf_output, "");  // chatter is not printf unless said so
  EXPECT_THAT(e->log, HasSubstr("[worker stderr]\nwarn"));
}

// launch_own (a result the target decided from the launch alone) crosses
// the worker boundary; a reply that gives it another type is an error.
TEST(WorkerReply, LaunchOwnRoundTripsAndMustBeABool) {
  Execution refused;
  refused.status = ExecutionStatus::kUnsupported;
  refused.launch_own = true;
  auto e = ExecutionFromWorkerReply(
      Exited(absl::StrCat(kMarker, ExecutionReply(refused).dump())),
      "Test worker", kMarker);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_TRUE(e->launch_own);
  auto plain = ExecutionFromWorkerReply(
      Exited(absl::StrCat(kMarker, ExecutionReply(Execution{}).dump())),
      "Test worker", kMarker);
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_FALSE(plain->launch_own);
  nlohmann::json bad = ExecutionReply(refused);
  bad["execution"]["launch_own"] = "yes";
  auto wrong = ExecutionFromWorkerReply(
      Exited(absl::StrCat(kMarker, bad.dump())), "Test worker", kMarker);
  ASSERT_FALSE(wrong.ok());
  EXPECT_THAT(std::string(wrong.status().message()),
              HasSubstr("\"launch_own\" must be true or false"));
}

TEST(WorkerReply, StdoutBeforeTheMarkerIsPrintfWhenTheReplySaysSo) {
  nlohmann::json reply = ExecutionReply(Execution{});
  reply["stdout_is_printf"] = true;
  auto e = ExecutionFromWorkerReply(
      Exited(absl::StrCat("hello 42", kMarker, reply.dump())), "Test worker",
      kMarker);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->printf_output, "hello 42");
}

TEST(WorkerReply, ErrorRepliesAreStatuses) {
  auto not_found = ExecutionFromWorkerReply(
      Exited(absl::StrCat(kMarker, ErrorReply("not_found", "no X").dump())),
      "Test worker", kMarker);
  EXPECT_EQ(not_found.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(not_found.status().message(), "no X");
  auto other = ExecutionFromWorkerReply(
      Exited(absl::StrCat(kMarker, ErrorReply("boom", "bad").dump())),
      "Test worker", kMarker);
  EXPECT_EQ(other.status().code(), absl::StatusCode::kInternal);
}

TEST(WorkerReply, AbnormalEndingsAreExecutionsNamingTheWorker) {
  ChildResult hung;
  hung.ending = ChildResult::Ending::kTimedOut;
  auto t = ExecutionFromWorkerReply(hung, "Test worker", kMarker);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->status, ExecutionStatus::kTimedOut);
  EXPECT_THAT(t->message, StartsWith("Test worker "));

  ChildResult crashed;
  crashed.ending = ChildResult::Ending::kSignaled;
  crashed.signal = 11;
  crashed.stderr_text = "first\nlast words\n";
  auto s = ExecutionFromWorkerReply(crashed, "Test worker", kMarker);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->status, ExecutionStatus::kCrashed);
  EXPECT_THAT(s->message, StartsWith("Test worker crashed: "));
  EXPECT_THAT(s->message, HasSubstr("last words"));
  EXPECT_THAT(s->log, HasSubstr("first"));

  auto no_marker =
      ExecutionFromWorkerReply(Exited("just text"), "Test worker", kMarker);
  ASSERT_TRUE(no_marker.ok());
  EXPECT_EQ(no_marker->status, ExecutionStatus::kCrashed);
  EXPECT_THAT(no_marker->message, HasSubstr("ended without a result"));

  auto exit_code = ExecutionFromWorkerReply(
      Exited(absl::StrCat(kMarker, ExecutionReply(Execution{}).dump()), 3),
      "Test worker", kMarker);
  ASSERT_TRUE(exit_code.ok());
  EXPECT_EQ(exit_code->status, ExecutionStatus::kCrashed);

  auto garbled = ExecutionFromWorkerReply(
      Exited(absl::StrCat(kMarker, "{not json")), "Test worker", kMarker);
  ASSERT_TRUE(garbled.ok());
  EXPECT_EQ(garbled->status, ExecutionStatus::kCrashed);
  EXPECT_EQ(garbled->message, "Test worker returned an unreadable result");
}

}  // namespace
}  // namespace l0spv::oracles
