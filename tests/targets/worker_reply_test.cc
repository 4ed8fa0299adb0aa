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
