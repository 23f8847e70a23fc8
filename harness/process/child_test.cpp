#include "harness/process/child.hpp"

#include <signal.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <boost/asio/steady_timer.hpp>

#include "harness/process/test_support.hpp"

namespace fakehost::process {
namespace {

using namespace std::chrono_literals;
using testing::FixtureSpec;
using testing::Recorder;
using testing::RunUntil;
using testing::SpawnOrDie;
using testing::Watchdog;

TEST(ExitStatus, DescribesACodeASignalAndNothing) {
  ExitStatus status;
  EXPECT_EQ(status.Describe(), "no exit status");
  status.code = 0;
  EXPECT_EQ(status.Describe(), "exit code 0");
  status.code.reset();
  status.signal = SIGTERM;
  EXPECT_EQ(status.Describe(), "killed by SIGTERM");
  status.signal = SIGKILL;
  EXPECT_EQ(status.Describe(), "killed by SIGKILL");
  status.signal = SIGRTMIN + 3;
  EXPECT_EQ(status.Describe(), "killed by signal " + std::to_string(SIGRTMIN + 3));
}

TEST(Child, EchoesWhatItIsSentAndExitsOnEof) {
  Watchdog watchdog(5s);
  boost::asio::io_context io;
  Recorder rec;
  auto child = SpawnOrDie(io, FixtureSpec({"echo"}), &rec);
  EXPECT_TRUE(child->stdin_open());
  std::optional<WriteOutcome> outcome;
  child->Write("hello\n", 1s, [&](WriteOutcome o) { outcome = o; });
  ASSERT_TRUE(RunUntil(
      io, [&] { return rec.out == "hello\n"; }, 2s))
      << rec.out;
  EXPECT_EQ(outcome, WriteOutcome::kWritten);
  child->CloseStdin();
  EXPECT_FALSE(child->stdin_open());
  ASSERT_TRUE(RunUntil(
      io, [&] { return rec.exit && rec.eof; }, 2s));
  EXPECT_EQ(rec.exit->Describe(), "exit code 0");
  EXPECT_EQ(child->exit_status()->code, 0);
  EXPECT_GE(child->exit_status()->at, child->started_at());
}

TEST(Child, KeepsTheLastBytesOfAStderrFloodAndCountsTheOnesBefore) {
  Watchdog watchdog(8s);
  constexpr std::uint64_t kFlood = 100ull * 1024 * 1024;
  boost::asio::io_context io;
  Recorder rec;
  SpawnSpec spec = FixtureSpec({"flood-stderr", std::to_string(kFlood)});
  spec.stderr_cap = 64 * 1024;
  auto child = SpawnOrDie(io, spec, &rec);
  ASSERT_TRUE(RunUntil(
      io, [&] { return rec.exit && rec.eof && rec.err_bytes == kFlood; }, 6s))
      << rec.err_bytes;
  // Read as fast as it comes, counted from the flood's first byte (not from the exec).
  ASSERT_TRUE(rec.first_err_at);
  EXPECT_LT(Clock::now() - *rec.first_err_at, 4s);
  EXPECT_EQ(rec.out, "done\n");
  const std::string kept = child->stderr_text();
  EXPECT_EQ(kept.size(), spec.stderr_cap);
  EXPECT_EQ(kept.substr(kept.size() - 5), "xxEND");
  EXPECT_EQ(kept.find("BEGIN"), std::string::npos);
  EXPECT_EQ(child->stderr_dropped(), kFlood - spec.stderr_cap);
  EXPECT_EQ(rec.exit->code, 0);
}

TEST(Child, AbandonsAWriteToAChildThatNeverReadsAtItsCap) {
  Watchdog watchdog(5s);
  boost::asio::io_context io;
  Recorder rec;
  auto child = SpawnOrDie(io, FixtureSpec({"never-read"}), &rec);
  std::optional<WriteOutcome> first;
  std::optional<WriteOutcome> second;
  const auto start = Clock::now();
  Clock::time_point first_at;
  child->Write(std::string(1024 * 1024, 'a'), 300ms, [&](WriteOutcome o) {
    first = o;
    first_at = Clock::now();
  });
  child->Write("queued\n", 5s, [&](WriteOutcome o) { second = o; });
  // The io_context keeps serving other work while the write is stuck on a full pipe.
  int ticks = 0;
  boost::asio::steady_timer tick(io);
  std::function<void()> arm = [&] {
    tick.expires_after(20ms);
    tick.async_wait([&](boost::system::error_code ec) {
      if (ec) return;
      ++ticks;
      arm();
    });
  };
  arm();
  ASSERT_TRUE(RunUntil(
      io, [&] { return first && second; }, 3s));
  tick.cancel();
  EXPECT_EQ(first, WriteOutcome::kTimedOut);
  EXPECT_EQ(second, WriteOutcome::kClosed);
  EXPECT_GE(first_at - start, 290ms);
  EXPECT_LT(first_at - start, 5s) << "abandoned at its own cap, not the next write's";
  EXPECT_GE(ticks, 5);
  EXPECT_FALSE(child->stdin_open());
  std::optional<WriteOutcome> late;
  child->Write("late\n", 1s, [&](WriteOutcome o) { late = o; });
  EXPECT_FALSE(late) << "done must not run inside Write";
  ASSERT_TRUE(RunUntil(
      io, [&] { return late.has_value(); }, 1s));
  EXPECT_EQ(late, WriteOutcome::kClosed);
  // And the harness goes on: the child is still there and can be stopped.
  EXPECT_FALSE(rec.exit);
  EXPECT_TRUE(child->SignalGroup(SIGTERM));
  ASSERT_TRUE(RunUntil(
      io, [&] { return rec.exit.has_value(); }, 2s));
  EXPECT_EQ(rec.exit->Describe(), "killed by SIGTERM");
}

TEST(Child, ReportsAChildThatExitsAtOnceAndRefusesLaterWrites) {
  Watchdog watchdog(5s);
  boost::asio::io_context io;
  Recorder rec;
  auto child = SpawnOrDie(io, FixtureSpec({"exit", "3"}), &rec);
  ASSERT_TRUE(RunUntil(
      io, [&] { return rec.exit && rec.eof; }, 2s));
  EXPECT_EQ(rec.exit->Describe(), "exit code 3");
  std::optional<WriteOutcome> outcome;
  child->Write("anyone?\n", 1s, [&](WriteOutcome o) { outcome = o; });
  ASSERT_TRUE(RunUntil(
      io, [&] { return outcome.has_value(); }, 2s));
  EXPECT_EQ(outcome, WriteOutcome::kClosed);  // EPIPE: no reader left
  EXPECT_FALSE(child->stdin_open());
  testing::RunFor(io, 50ms);
  EXPECT_EQ(rec.exits, 1);
}

TEST(Child, GivesTheFirstOfTwoLiveChildrenEofAtOnce) {
  // The second child must not inherit the first one's stdin: if it did, closing the first's
  // stdin would not reach EOF until the second died.
  Watchdog watchdog(15s);
  boost::asio::io_context io;
  Recorder first_rec;
  Recorder second_rec;
  auto first = SpawnOrDie(io, FixtureSpec({"exit-on-eof"}), &first_rec);
  auto second = SpawnOrDie(io, FixtureSpec({"exit-on-eof"}), &second_rec);
  ASSERT_TRUE(RunUntil(
      io, [&] { return first_rec.out == "ready\n" && second_rec.out == "ready\n"; }, 3s));
  // No time bound is needed: had the second inherited the first's stdin, the first would see
  // no EOF while the second lives, and the second lives until its own stdin closes below.
  first->CloseStdin();
  ASSERT_TRUE(RunUntil(
      io, [&] { return first_rec.exit.has_value(); }, 3s));
  EXPECT_EQ(first_rec.out, "ready\neof\n");
  EXPECT_FALSE(second_rec.exit);
  second->CloseStdin();
  ASSERT_TRUE(RunUntil(
      io, [&] { return second_rec.exit.has_value(); }, 3s));
  EXPECT_EQ(second_rec.out, "ready\neof\n");
}

TEST(Child, SeesTheExitWhileAGrandchildStillHoldsStdoutAndLeavesNothingBehind) {
  Watchdog watchdog(5s);
  boost::asio::io_context io;
  Recorder rec;
  auto child = SpawnOrDie(io, FixtureSpec({"forker"}), &rec);
  const pid_t group = child->pid();
  // The grandchild prints its pid once it ignores SIGTERM.
  ASSERT_TRUE(RunUntil(
      io, [&] { return rec.out.find('\n') != std::string::npos; }, 2s));
  const pid_t grandchild = static_cast<pid_t>(std::stol(rec.out));
  EXPECT_EQ(::getpgid(grandchild), group);
  std::optional<StopResult> result;
  child->Stop({{StopStep::Kind::kCloseStdin, "", 0ms, 0, "close stdin"},
               {StopStep::Kind::kWait, "", 200ms, 0, "wait"},
               {StopStep::Kind::kSignal, "", 0ms, SIGTERM, "SIGTERM"},
               {StopStep::Kind::kWait, "", 200ms, 0, "wait"},
               {StopStep::Kind::kSignal, "", 0ms, SIGKILL, "SIGKILL"}},
              [&](const StopResult& r) { result = r; });
  ASSERT_TRUE(RunUntil(
      io, [&] { return result.has_value(); }, 3s));
  EXPECT_TRUE(result->exited);
  EXPECT_EQ(result->stage, 2u);
  EXPECT_EQ(result->stage_label, "SIGTERM");
  EXPECT_EQ(result->status.Describe(), "killed by SIGTERM");
  EXPECT_FALSE(rec.eof) << "the grandchild still holds stdout";
  EXPECT_FALSE(testing::ProcessesInGroup(group).empty());
  child.reset();  // kills the group and reaps it before it returns: nothing is left
  EXPECT_TRUE(testing::ProcessesInGroup(group).empty());
  EXPECT_TRUE(testing::HasNoChildren());
}

TEST(Child, DestructorKillsAndReapsALiveGroup) {
  Watchdog watchdog(5s);
  boost::asio::io_context io;
  Recorder rec;
  auto child = SpawnOrDie(io, FixtureSpec({"forker"}), &rec);
  const pid_t group = child->pid();
  ASSERT_TRUE(RunUntil(
      io, [&] { return rec.out.find('\n') != std::string::npos; }, 2s));
  EXPECT_EQ(testing::ProcessesInGroup(group).size(), 2u);
  child.reset();
  EXPECT_TRUE(testing::ProcessesInGroup(group).empty());
  EXPECT_TRUE(testing::HasNoChildren());
  testing::RunFor(io, 20ms);  // handlers left in the queue must not report anything
  EXPECT_FALSE(rec.exit);
}

TEST(Child, LetsACallbackDestroyIt) {
  Watchdog watchdog(5s);
  boost::asio::io_context io;
  Recorder rec;
  std::unique_ptr<Child> child;
  Callbacks callbacks = rec.Make();
  callbacks.on_exit = [&](const ExitStatus& status) {
    rec.exit = status;
    child.reset();
  };
  InitProcessEnvironment();
  std::string error;
  child = Child::Spawn(io, FixtureSpec({"exit", "0"}), std::move(callbacks), &error);
  ASSERT_TRUE(child) << error;
  ASSERT_TRUE(RunUntil(
      io, [&] { return child == nullptr; }, 2s));
  testing::RunFor(io, 20ms);
  EXPECT_TRUE(testing::HasNoChildren());
}

TEST(Child, RunsInParallelThreadsWithoutDisturbingEachOther) {
  // Scenarios run in parallel, one io_context per thread: spawning, reaping and group
  // teardown in one thread must not leak descriptors into, or steal the status of, another's.
  Watchdog watchdog(30s);  // generous: CI runs this beside other process-heavy tests
  InitProcessEnvironment();
  constexpr int kThreads = 4;
  constexpr int kRounds = 8;
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &failures] {
      boost::asio::io_context io;
      for (int round = 0; round < kRounds && failures[t].empty(); ++round) {
        Recorder echo_rec;
        Recorder forker_rec;
        std::string error;
        auto echo = Child::Spawn(io, FixtureSpec({"echo"}), echo_rec.Make(), &error);
        auto forker = Child::Spawn(io, FixtureSpec({"forker"}), forker_rec.Make(), &error);
        if (!echo || !forker) {
          failures[t] = "spawn: " + error;
          break;
        }
        const std::string line =
            "thread " + std::to_string(t) + " round " + std::to_string(round) + "\n";
        echo->Write(line, 1s, [](WriteOutcome) {});
        echo->CloseStdin();
        if (!RunUntil(
                io, [&] { return echo_rec.exit && echo_rec.eof; }, 2s)) {
          failures[t] = "echo did not finish at round " + std::to_string(round);
        } else if (echo_rec.out != line || echo_rec.exit->code != 0) {
          failures[t] = "echo said '" + echo_rec.out + "', " + echo_rec.exit->Describe();
        }
        forker.reset();  // kills and reaps its group while other threads spawn
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
  EXPECT_TRUE(testing::HasNoChildren());
}

TEST(Child, KillsAndReapsADescendantThatLeftTheGroupAndSession) {
  Watchdog watchdog(10s);
  boost::asio::io_context io;
  Recorder rec;
  auto child = SpawnOrDie(io, FixtureSpec({"escaper"}), &rec);
  ASSERT_TRUE(RunUntil(
      io, [&] { return rec.out.find('\n') != std::string::npos; }, 3s));
  const pid_t escaper = static_cast<pid_t>(std::stol(rec.out));
  EXPECT_EQ(::getsid(escaper), escaper) << "the grandchild leads a session of its own";
  EXPECT_NE(::getpgid(escaper), child->pid());
  child.reset();
  EXPECT_NE(::kill(escaper, 0), 0) << "the grandchild outlived its Child";
  EXPECT_TRUE(testing::HasNoChildren()) << "a zombie was left unreaped";
}

TEST(Child, NamesTheCpuLimitThatEndedIt) {
  Watchdog watchdog(60s);  // a busy machine gives the spinner its CPU second slowly
  boost::asio::io_context io;
  Recorder rec;
  SpawnSpec spec = FixtureSpec({"spin"});
  spec.limits.cpu_seconds = 1;
  auto child = SpawnOrDie(io, spec, &rec);
  ASSERT_TRUE(RunUntil(
      io, [&] { return rec.exit.has_value(); }, 50s));
  EXPECT_EQ(rec.exit->Describe(), "killed by SIGXCPU: CPU time limit of 1 s reached");
}

TEST(Child, SweepOrphansLeavesNoZombieAndSparesLivePlugins) {
  Watchdog watchdog(10s);
  InitProcessEnvironment();
  boost::asio::io_context io;
  Recorder rec;
  auto live = SpawnOrDie(io, FixtureSpec({"never-read"}), &rec);
  const SweepResult swept = SweepOrphans();
  EXPECT_EQ(swept.killed, 0);
  EXPECT_EQ(::kill(live->pid(), 0), 0) << "a registered plugin was killed by the sweep";
  EXPECT_TRUE(live->SignalGroup(SIGTERM));
  ASSERT_TRUE(RunUntil(
      io, [&] { return rec.exit.has_value(); }, 3s));
  EXPECT_EQ(rec.exit->Describe(), "killed by SIGTERM") << "the sweep stole the plugin's status";
  live.reset();
  EXPECT_TRUE(testing::HasNoChildren());
}

}  // namespace
}  // namespace fakehost::process
