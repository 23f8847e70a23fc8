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

// A wait no test waits out: a sequence that reports an exit before it has ended its wait early.
constexpr std::chrono::milliseconds kLongWait = 60s;

// Stops the fixture in `mode` once it said it is ready (every mode Stop is tried on prints
// "ready" when its handlers are installed), so what the sequence measures starts there, not at
// the exec.
StopResult StopFixture(const std::string& mode, std::vector<StopStep> steps) {
  boost::asio::io_context io;
  Recorder rec;
  auto child = SpawnOrDie(io, FixtureSpec({mode}), &rec);
  EXPECT_TRUE(RunUntil(
      io, [&] { return rec.out == "ready\n"; }, 3s))
      << rec.out;
  std::optional<StopResult> result;
  child->Stop(std::move(steps), [&](const StopResult& r) { result = r; });
  EXPECT_FALSE(result) << "done must not run inside Stop";
  EXPECT_TRUE(RunUntil(
      io, [&] { return result.has_value(); }, 3s));
  EXPECT_EQ(rec.exits, result && result->exited ? 1 : 0);
  return result.value_or(StopResult{});
}

TEST(Stop, GradesAnExitOnStdinEofAtTheCloseStdinStage) {
  Watchdog watchdog(10s);
  const StopResult result = StopFixture(
      "exit-on-eof", {Step(Kind::kCloseStdin, "close stdin"), Step(Kind::kWait, "wait", kLongWait),
                      Step(Kind::kSignal, "SIGKILL", 0ms, SIGKILL)});
  EXPECT_TRUE(result.exited);
  EXPECT_FALSE(result.exited_before);
  EXPECT_EQ(result.stage, 0u);
  EXPECT_EQ(result.stage_label, "close stdin");
  EXPECT_LT(result.elapsed, kLongWait) << "the wait must end when the exit is seen";
  EXPECT_EQ(result.status.Describe(), "exit code 0");
}

TEST(Stop, GradesAChildThatNeedsSigtermAtTheSigtermStage) {
  Watchdog watchdog(10s);
  std::vector<StopStep> steps = Escalation();
  steps[3].time = kLongWait;  // the wait after SIGTERM ends at the exit SIGTERM brings
  const StopResult result = StopFixture("needs-term", steps);
  EXPECT_TRUE(result.exited);
  EXPECT_EQ(result.stage, 2u);
  EXPECT_EQ(result.stage_label, "SIGTERM");
  EXPECT_GE(result.elapsed, 195ms) << "the wait before SIGTERM is waited out";
  EXPECT_LT(result.elapsed, 200ms + kLongWait);
  EXPECT_EQ(result.status.Describe(), "killed by SIGTERM");
}

TEST(Stop, GradesAChildThatIgnoresSigtermAtTheSigkillStage) {
  Watchdog watchdog(10s);
  std::vector<StopStep> steps = Escalation();
  steps[4].time = kLongWait;  // the time a last step allows for the exit it causes
  const StopResult result = StopFixture("ignores-term", steps);
  EXPECT_TRUE(result.exited);
  EXPECT_EQ(result.stage, 4u);
  EXPECT_EQ(result.stage_label, "SIGKILL");
  EXPECT_GE(result.elapsed, 395ms) << "both waits are waited out";
  // After a last step that is not a wait the sequence allows its time for the exit: the exit
  // ends it before that.
  EXPECT_LT(result.elapsed, 400ms + kLongWait);
  EXPECT_EQ(result.status.Describe(), "killed by SIGKILL");
}

TEST(Stop, GradesAnExitAfterAShutdownFrameAtTheWriteStage) {
  Watchdog watchdog(10s);
  const StopResult result =
      StopFixture("exit-on-line",
                  {Step(Kind::kWrite, "shutdown", 500ms, 0, "quit\n"),
                   Step(Kind::kWait, "wait", kLongWait), Step(Kind::kCloseStdin, "close stdin")});
  EXPECT_TRUE(result.exited);
  EXPECT_EQ(result.stage, 0u);
  EXPECT_EQ(result.stage_label, "shutdown");
  EXPECT_LT(result.elapsed, kLongWait) << "the wait must end when the exit is seen";
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
  Watchdog watchdog(10s);
  const StopResult result =
      StopFixture("ignores-term",
                  {Step(Kind::kSignal, "SIGTERM", 0ms, SIGTERM), Step(Kind::kWait, "wait", 100ms)});
  EXPECT_FALSE(result.exited);
  EXPECT_EQ(result.stage, 0u);
  EXPECT_GE(result.elapsed, 95ms);
  // A sequence whose last step is a wait ends with it. That it allows no time for an exit after
  // it (stop.cpp: only a last step of another kind does) is not timed here: the one bound that
  // would show it, 100 ms against kStopGrace, is one a loaded machine can break.
}

}  // namespace
}  // namespace fakehost::process
