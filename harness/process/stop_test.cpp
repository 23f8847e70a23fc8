// Child::Stop: the sequence is data, and the result grades the step that made the plugin exit.
#include <signal.h>

#include <chrono>

#include <gtest/gtest.h>

#include "harness/process/child.hpp"
#include "harness/process/test_support.hpp"

namespace fakehost::process {
namespace {

using namespace std::chrono_literals;
using testing::FixtureSpec;
using testing::Recorder;
using testing::RunUntil;
using testing::SpawnOrDie;
using testing::Watchdog;
using Kind = StopStep::Kind;

StopStep Step(Kind kind, std::string label, std::chrono::milliseconds time = 0ms, int sig = 0,
              std::string bytes = "") {
  StopStep step;
  step.kind = kind;
  step.label = std::move(label);
  step.time = time;
  step.signal = sig;
  step.bytes = std::move(bytes);
  return step;
}

// The usual escalation: close stdin, wait 200 ms, SIGTERM, wait 200 ms, SIGKILL.
std::vector<StopStep> Escalation() {
  return {Step(Kind::kCloseStdin, "close stdin"), Step(Kind::kWait, "wait", 200ms),
          Step(Kind::kSignal, "SIGTERM", 0ms, SIGTERM), Step(Kind::kWait, "wait", 200ms),
          Step(Kind::kSignal, "SIGKILL", 0ms, SIGKILL)};
}

StopResult StopFixture(const std::string& mode, std::vector<StopStep> steps) {
  boost::asio::io_context io;
  Recorder rec;
  auto child = SpawnOrDie(io, FixtureSpec({mode}), &rec);
  if (mode == "needs-term" || mode == "ignores-term") {  // signals must not beat the set-up
    EXPECT_TRUE(RunUntil(
        io, [&] { return rec.out == "ready\n"; }, 2s));
  }
  std::optional<StopResult> result;
  child->Stop(std::move(steps), [&](const StopResult& r) { result = r; });
  EXPECT_FALSE(result) << "done must not run inside Stop";
  EXPECT_TRUE(RunUntil(
      io, [&] { return result.has_value(); }, 3s));
  EXPECT_EQ(rec.exits, result && result->exited ? 1 : 0);
  return result.value_or(StopResult{});
}

TEST(Stop, GradesAnExitOnStdinEofAtTheCloseStdinStage) {
  Watchdog watchdog(5s);
  const StopResult result = StopFixture("exit-on-eof", Escalation());
  EXPECT_TRUE(result.exited);
  EXPECT_FALSE(result.exited_before);
  EXPECT_EQ(result.stage, 0u);
  EXPECT_EQ(result.stage_label, "close stdin");
  EXPECT_LT(result.elapsed, 150ms) << "the wait must end when the exit is seen";
  EXPECT_EQ(result.status.Describe(), "exit code 0");
}

TEST(Stop, GradesAChildThatNeedsSigtermAtTheSigtermStage) {
  Watchdog watchdog(5s);
  const StopResult result = StopFixture("needs-term", Escalation());
  EXPECT_TRUE(result.exited);
  EXPECT_EQ(result.stage, 2u);
  EXPECT_EQ(result.stage_label, "SIGTERM");
  EXPECT_GE(result.elapsed, 195ms);
  EXPECT_LT(result.elapsed, 350ms);
  EXPECT_EQ(result.status.Describe(), "killed by SIGTERM");
}

TEST(Stop, GradesAChildThatIgnoresSigtermAtTheSigkillStage) {
  Watchdog watchdog(5s);
  const StopResult result = StopFixture("ignores-term", Escalation());
  EXPECT_TRUE(result.exited);
  EXPECT_EQ(result.stage, 4u);
  EXPECT_EQ(result.stage_label, "SIGKILL");
  EXPECT_GE(result.elapsed, 395ms);
  EXPECT_LT(result.elapsed, 600ms);
  EXPECT_EQ(result.status.Describe(), "killed by SIGKILL");
}

TEST(Stop, GradesAnExitAfterAShutdownFrameAtTheWriteStage) {
  Watchdog watchdog(5s);
  const StopResult result = StopFixture(
      "exit-on-line", {Step(Kind::kWrite, "shutdown", 500ms, 0, "quit\n"),
                       Step(Kind::kWait, "wait", 500ms), Step(Kind::kCloseStdin, "close stdin")});
  EXPECT_TRUE(result.exited);
  EXPECT_EQ(result.stage, 0u);
  EXPECT_EQ(result.stage_label, "shutdown");
  EXPECT_LT(result.elapsed, 150ms);
}

TEST(Stop, ReportsAChildThatExitedBeforeTheSequence) {
  Watchdog watchdog(5s);
  boost::asio::io_context io;
  Recorder rec;
  auto child = SpawnOrDie(io, FixtureSpec({"exit", "7"}), &rec);
  ASSERT_TRUE(RunUntil(
      io, [&] { return rec.exit.has_value(); }, 2s));
  std::optional<StopResult> result;
  child->Stop(Escalation(), [&](const StopResult& r) { result = r; });
  ASSERT_TRUE(RunUntil(
      io, [&] { return result.has_value(); }, 1s));
  EXPECT_TRUE(result->exited);
  EXPECT_TRUE(result->exited_before);
  EXPECT_EQ(result->stage, 0u);
  EXPECT_EQ(result->status.Describe(), "exit code 7");
  EXPECT_EQ(rec.exits, 1);
}

TEST(Stop, ReportsASequenceThatEndsWithoutAnExit) {
  Watchdog watchdog(5s);
  const StopResult result =
      StopFixture("ignores-term",
                  {Step(Kind::kSignal, "SIGTERM", 0ms, SIGTERM), Step(Kind::kWait, "wait", 100ms)});
  EXPECT_FALSE(result.exited);
  EXPECT_EQ(result.stage, 0u);
  EXPECT_GE(result.elapsed, 95ms);
  EXPECT_LT(result.elapsed, 300ms);
}

}  // namespace
}  // namespace fakehost::process
