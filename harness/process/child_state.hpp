// Internal to the process layer: the state behind a Child and the asio machinery driving it.
//
// Every handler in flight holds a shared_ptr to the ChildState, so the buffers and descriptors
// it uses outlive it even when the Child is destroyed first. `alive_` turns false in
// Shutdown() (called by ~Child); every handler, and every step after a user callback returns
// (a callback may destroy the Child), checks it before doing anything else. The Child object
// itself is a thin owner that calls Shutdown() on destruction.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>

#include "harness/process/child.hpp"
#include "harness/process/contain.hpp"
#include "harness/process/launch.hpp"
#include "harness/process/tail_buffer.hpp"

namespace fakehost::process::detail {

class ChildState : public std::enable_shared_from_this<ChildState> {
 public:
  ChildState(boost::asio::io_context& io, pid_t pid, const SpawnSpec& spec,
             std::unique_ptr<Enclosure> enclosure, Callbacks callbacks);

  /// Takes ownership of the descriptors in `launched`. False with `*error` if asio cannot
  /// register one; all of them are closed then, and the caller kills and reaps the child.
  bool Adopt(const Launched& launched, std::string* error);

  void Start();     ///< Starts reading stdout and stderr and watching for the exit.
  void Shutdown();  ///< Kills and reaps the group, closes everything; callbacks end.

  void Write(SharedBytes bytes, std::chrono::milliseconds cap,
             std::function<void(WriteOutcome)> done);
  void CloseStdin();
  bool stdin_open() const { return stdin_open_; }
  bool SignalGroup(int sig);
  void Stop(std::vector<StopStep> steps, std::function<void(const StopResult&)> done);

  pid_t pid() const { return pid_; }
  Clock::time_point started_at() const { return started_at_; }
  const std::optional<ExitStatus>& exit_status() const { return exit_; }
  std::string stderr_text() const { return stderr_.Text(); }
  std::uint64_t stderr_dropped() const { return stderr_.dropped(); }
  std::size_t StdoutUnread() const;

 private:
  struct PendingWrite {
    SharedBytes bytes;
    std::optional<Clock::time_point> deadline;
    std::function<void(WriteOutcome)> done;
  };
  struct Outcome {
    std::function<void(WriteOutcome)> done;
    WriteOutcome outcome;
  };
  struct StopRun {
    std::vector<StopStep> steps;
    std::size_t next = 0;               // the next step to execute
    std::optional<std::size_t> graded;  // the stage an exit now would be graded at
    Clock::time_point start;
    std::function<void(const StopResult&)> done;
    bool hurried = false;  // skipped ahead to SIGKILL on RequestHurry()
  };

  void ReadStdout();
  std::string LimitThatEndedIt(const siginfo_t& info, double cpu_seconds, long maxrss_kib) const;
  void WatchHurry();
  void Hurry();
  void ReadStderr();
  void WatchExit();
  bool ObserveExit(bool known_exited);
  void NotifyExit();

  void StartNextWrite();
  void OnWriteDone(std::uint64_t gen, const boost::system::error_code& ec);
  void OnWriteTimeout(std::uint64_t gen);
  std::vector<Outcome> CloseStdinAndTakeWrites(std::optional<WriteOutcome> first);
  void Deliver(std::vector<Outcome> outcomes);

  void PostStopStep();
  void RunStopStep();
  void FinishStop(bool exited);

  boost::asio::io_context& io_;
  boost::asio::posix::stream_descriptor in_;
  boost::asio::posix::stream_descriptor out_;
  boost::asio::posix::stream_descriptor err_;
  boost::asio::posix::stream_descriptor pidfd_;
  boost::asio::posix::stream_descriptor hurry_;  // a duplicate of the hurry eventfd, during Stop
  boost::asio::steady_timer write_timer_;
  boost::asio::steady_timer stop_timer_;
  Callbacks callbacks_;
  const pid_t pid_;
  const Limits limits_;
  std::unique_ptr<Enclosure> enclosure_;
  const Clock::time_point started_at_;
  bool alive_ = true;

  std::optional<ExitStatus> exit_;
  bool exit_notified_ = false;

  std::array<char, 64 * 1024> out_buf_{};
  std::array<char, 64 * 1024> err_buf_{};
  TailBuffer stderr_;

  bool stdin_open_ = true;
  bool close_when_drained_ = false;  // CloseStdin() came while writes were still queued
  std::deque<PendingWrite> writes_;  // front() is in flight when write_in_flight_
  bool write_in_flight_ = false;
  std::uint64_t write_gen_ = 0;  // tells the in-flight write's handlers from stale ones

  std::optional<StopRun> stop_;
  std::uint64_t stop_gen_ = 0;  // tells the running sequence's handlers from stale ones
};

/// Closes an asio descriptor after taking it out of the reactor's epoll set. A plain close()
/// leaves the registration in place while a copy of the descriptor lives elsewhere (another
/// thread's fork, between fork and exec), and its events then reach whichever descriptor reuses
/// asio's bookkeeping for it.
void CloseDescriptor(boost::asio::posix::stream_descriptor& descriptor);

/// True if the pidfd is readable now (its process has exited), asked of the kernel directly.
bool PidfdReadable(int pidfd);

/// The hurry eventfd (readable once RequestHurry was called), or -1.
int HurryFd();

}  // namespace fakehost::process::detail
