// A plugin process that is not one: a process::Child whose stdout the test writes, whose stdin
// the test reads and whose exit the test decides, so a Session runs without fork or pipes.
//
// FakeChild keeps Child's contract: everything it reports reaches the session through the
// callbacks, posted to the io_context (never from inside the call that caused it), so the test
// drives it by running the session's loop (RunUntil with a condition, or RunFor). Writes always
// succeed at once unless stdin is closed; a stop sequence writes its frames, closes stdin and
// ignores waits, and a signal step ends the fake with that signal. Nothing here blocks.
#pragma once

#include <deque>
#include <memory>
#include <string>

#include "harness/process/child.hpp"
#include "harness/session/transport.hpp"

namespace fakehost::session::testing {

class FakeChild : public process::Child {
 public:
  FakeChild(boost::asio::io_context& io, process::Callbacks callbacks);
  ~FakeChild() override { *alive_ = false; }

  // --- what the test does -----------------------------------------------------------------
  /// The plugin writes `bytes` to its stdout (delivered as one read).
  void PushStdout(std::string bytes);
  /// The plugin writes `bytes` to its stderr.
  void PushStderr(std::string bytes);
  /// The plugin closes its stdout.
  void CloseStdout();
  /// The plugin exits with `code`, or is killed by `signal` when that is not 0.
  void Exit(int code, int signal = 0);
  /// Everything written to the plugin's stdin so far.
  const std::string& stdin_bytes() const { return stdin_; }
  /// Later writes end as a real Child's would when the plugin stops reading and the write
  /// cap passes: kTimedOut, and stdin is closed.
  /// Takes no more of stdin: a write with a cap times out at once, one without waits for ever.
  void StopReading() { reading_ = false; }
  /// Called (from the session's loop, like a callback) with each write that reached stdin: a
  /// scripted plugin answers through PushStdout, Exit, ... A stop sequence's writes reach it at
  /// once, so a plugin that exits on one has exited before the sequence's next step.
  void OnStdin(std::function<void(std::string_view bytes)> hook) { on_stdin_ = std::move(hook); }
  /// Signals received through SignalGroup or a stop sequence, in order.
  const std::vector<int>& signals() const { return signals_; }

  // --- process::Child ------------------------------------------------------------------------
  void Write(process::SharedBytes bytes, std::chrono::milliseconds cap,
             std::function<void(process::WriteOutcome)> done) override;
  void CloseStdin() override;
  bool stdin_open() const override { return stdin_open_; }
  bool SignalGroup(int sig) override;
  void Stop(std::vector<process::StopStep> steps,
            std::function<void(const process::StopResult&)> done) override;
  pid_t pid() const override { return 4242; }
  process::Clock::time_point started_at() const override { return started_; }
  const std::optional<process::ExitStatus>& exit_status() const override { return status_; }
  std::string stderr_text() const override { return stderr_; }
  std::uint64_t stderr_dropped() const override { return 0; }

 private:
  void Post(std::function<void()> fn);
  void Delivered(const std::string& bytes);

  boost::asio::io_context& io_;
  process::Callbacks callbacks_;
  process::Clock::time_point started_;
  std::optional<process::ExitStatus> status_;
  std::string stdin_;
  std::string stderr_;
  bool stdin_open_ = true;
  bool reading_ = true;
  std::vector<int> signals_;
  std::function<void(std::string_view)> on_stdin_;
  /// Cleared by the destructor: a posted callback must not fire once the Child is gone.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  std::vector<std::function<void(process::WriteOutcome)>> unread_;  // writes never taken
};

/// A ChildFactory that makes one FakeChild and leaves a pointer to it in `*made` (owned by the
/// session; valid while the session lives).
ChildFactory FakeChildFactory(FakeChild** made);
/// A ChildFactory that fails to spawn, with `error` as its message.
ChildFactory FailingChildFactory(std::string error);

}  // namespace fakehost::session::testing
