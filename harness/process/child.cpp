// Child: spawning, the three pipes, the exit watch and the teardown. The stop sequence is in
// stop.cpp, the fork/exec in launch.cpp.
#include "harness/process/child.hpp"
#include <sys/ioctl.h>

#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

#include "harness/process/child_state.hpp"
#include "harness/process/launch.hpp"
#include "harness/process/resolve.hpp"

namespace fakehost::process {
namespace detail {

namespace asio = boost::asio;
using boost::system::error_code;

ChildState::ChildState(asio::io_context& io, pid_t pid, const SpawnSpec& spec,
                       std::unique_ptr<Enclosure> enclosure, Callbacks callbacks)
    : io_(io),
      in_(io),
      out_(io),
      err_(io),
      pidfd_(io),
      hurry_(io),
      write_timer_(io),
      stop_timer_(io),
      callbacks_(std::move(callbacks)),
      pid_(pid),
      limits_(spec.limits),
      enclosure_(std::move(enclosure)),
      started_at_(Clock::now()),
      stderr_(spec.stderr_cap) {}

void CloseDescriptor(asio::posix::stream_descriptor& descriptor) {
  if (!descriptor.is_open()) return;
  const int fd = descriptor.release();  // deregisters from epoll; pending waits are aborted
  ::close(fd);
}

bool PidfdReadable(int pidfd) {
  pollfd p{pidfd, POLLIN, 0};
  int rc;
  do {
    rc = ::poll(&p, 1, 0);
  } while (rc < 0 && errno == EINTR);
  return rc > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR)) != 0;
}

bool ChildState::Adopt(const Launched& launched, std::string* error) {
  struct Slot {
    asio::posix::stream_descriptor* descriptor;
    int fd;
  };
  const Slot slots[] = {{&in_, launched.stdin_fd},
                        {&out_, launched.stdout_fd},
                        {&err_, launched.stderr_fd},
                        {&pidfd_, launched.pidfd}};
  for (std::size_t i = 0; i < std::size(slots); ++i) {
    error_code ec;
    slots[i].descriptor->assign(slots[i].fd, ec);
    if (ec) {
      // Those adopted so far close with this state; the rest are still ours to close.
      for (std::size_t j = i; j < std::size(slots); ++j) ::close(slots[j].fd);
      *error = ec.message();
      return false;
    }
  }
  return true;
}

void ChildState::Start() {
  ReadStdout();
  ReadStderr();
  WatchExit();
}

void ChildState::ReadStdout() {
  out_.async_read_some(asio::buffer(out_buf_),
                       [self = shared_from_this()](error_code ec, std::size_t n) {
                         if (!self->alive_) return;
                         if (n > 0 && self->callbacks_.on_stdout) {
                           self->callbacks_.on_stdout(std::string_view(self->out_buf_.data(), n));
                           if (!self->alive_) return;
                         }
                         if (ec) {  // EOF, or an error that ends the stream all the same
                           CloseDescriptor(self->out_);
                           if (self->callbacks_.on_stdout_eof) self->callbacks_.on_stdout_eof();
                           return;
                         }
                         self->ReadStdout();
                       });
}

std::size_t ChildState::StdoutUnread() const {
  if (!out_.is_open()) return 0;
  int n = 0;
  if (::ioctl(const_cast<asio::posix::stream_descriptor&>(out_).native_handle(), FIONREAD, &n) != 0)
    return 0;
  return n > 0 ? static_cast<std::size_t>(n) : 0;
}

void ChildState::ReadStderr() {
  err_.async_read_some(asio::buffer(err_buf_),
                       [self = shared_from_this()](error_code ec, std::size_t n) {
                         if (!self->alive_) return;
                         if (n > 0) {
                           self->stderr_.Append(std::string_view(self->err_buf_.data(), n));
                           if (self->callbacks_.on_stderr) {
                             self->callbacks_.on_stderr(std::string_view(self->err_buf_.data(), n));
                             if (!self->alive_) return;
                           }
                         }
                         if (ec) {
                           CloseDescriptor(self->err_);
                           return;
                         }
                         self->ReadStderr();
                       });
}

// The readiness asio reports is checked against the pidfd itself before it is believed: an
// epoll event can outlive the descriptor it was for (see CloseDescriptor) and be delivered to
// whichever descriptor reuses asio's bookkeeping slot. Believing it made ObserveExit block in
// waitid on a live process, and with the io_context's thread blocked that process never got
// the EOF that would have ended it (process_test hung in RunsInParallelThreads... 1 run in 2).
void ChildState::WatchExit() {
  pidfd_.async_wait(asio::posix::descriptor_base::wait_read,
                    [self = shared_from_this()](error_code ec) {
                      if (!self->alive_ || ec == asio::error::operation_aborted) return;
                      if (!ec && !PidfdReadable(self->pidfd_.native_handle())) {
                        self->WatchExit();  // a stale event: the process is still running
                        return;
                      }
                      if (self->ObserveExit(/*known_exited=*/true)) self->NotifyExit();
                    });
}

// Reads the exit status with WNOWAIT: the plugin stays a zombie, so its pid (the group id)
// cannot be reused while this Child may still signal the group; Shutdown() reaps it. Waiting
// by pid is safe for that reason too: only this Child ever reaps this pid (the orphan sweep
// skips registered plugins). The pidfd serves for readiness only: the kernel (6.x) makes it
// readable a moment before the exiting process becomes waitable, and waitid(P_PIDFD) on it,
// non-blocking under asio, then fails with EAGAIN. So `known_exited` (the pidfd is readable,
// checked with poll by the caller) makes this wait blocking, for the last microseconds of the
// process's exit. The raw syscall is used for its fifth argument: the resource usage, which
// tells whether the CPU time limit is what ended the process.
bool ChildState::ObserveExit(bool known_exited) {
  if (exit_) return true;
  siginfo_t info{};
  rusage usage{};
  const int flags = WEXITED | WNOWAIT | (known_exited ? 0 : WNOHANG);
  long rc;
  do {
    rc = ::syscall(SYS_waitid, P_PID, static_cast<id_t>(pid_), &info, flags, &usage);
  } while (rc != 0 && errno == EINTR);
  if (rc == 0 && info.si_pid == 0) return false;  // WNOHANG: still running
  if (rc != 0 && !known_exited) return false;
  ExitStatus status;
  status.at = Clock::now();
  if (rc == 0) {
    if (info.si_code == CLD_EXITED) {
      status.code = info.si_status;
    } else {
      status.signal = info.si_status;
    }
    const double cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                       static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    status.limit = LimitThatEndedIt(info, cpu, usage.ru_maxrss);
  }
  // A readable pidfd whose status cannot be read (rc != 0: not our child any more, which
  // nothing here allows) still means the process is gone: record an exit without code or
  // signal rather than wait for ever.
  exit_ = status;
  return true;
}

// SIGXCPU is the CPU limit's own signal; SIGKILL after the soft limit was used up is its hard
// limit. An address-space limit has no signal of its own: allocations fail and the program
// ends as it sees fit (abort on std::bad_alloc, an error exit), so it is named only when the
// process ended abnormally and either came near the limit in resident memory or said on
// stderr (what has been read of it so far) that an allocation failed.
std::string ChildState::LimitThatEndedIt(const siginfo_t& info, double cpu_seconds,
                                         long maxrss_kib) const {
  const bool signalled = info.si_code != CLD_EXITED;
  if (limits_.cpu_seconds > 0 && signalled &&
      (info.si_status == SIGXCPU ||
       (info.si_status == SIGKILL && cpu_seconds >= static_cast<double>(limits_.cpu_seconds)))) {
    return "CPU time limit of " + std::to_string(limits_.cpu_seconds) + " s reached";
  }
  if (limits_.address_space_bytes == 0) return {};
  if (!signalled && info.si_status == 0) return {};
  const auto rss = static_cast<std::uint64_t>(std::max(0L, maxrss_kib)) * 1024;
  bool said = false;
  const std::string err = stderr_.Text();
  for (const char* phrase : {"bad_alloc", "out of memory", "Out of memory", "MemoryError",
                             "memory allocation of", "Cannot allocate memory"}) {
    said = said || err.find(phrase) != std::string::npos;
  }
  if (!said && rss < limits_.address_space_bytes / 2) return {};
  return "address-space limit of " + std::to_string(limits_.address_space_bytes >> 20) +
         " MiB reached";
}

void ChildState::NotifyExit() {
  if (!alive_ || exit_notified_) return;
  exit_notified_ = true;
  if (callbacks_.on_exit) callbacks_.on_exit(*exit_);
  if (!alive_) return;
  if (stop_) FinishStop(/*exited=*/true);
}

void ChildState::Write(SharedBytes bytes, std::chrono::milliseconds cap,
                       std::function<void(WriteOutcome)> done) {
  if (!stdin_open_ || close_when_drained_) {
    std::vector<Outcome> closed;
    closed.push_back({std::move(done), WriteOutcome::kClosed});
    asio::post(io_, [self = shared_from_this(), closed = std::move(closed)]() mutable {
      self->Deliver(std::move(closed));
    });
    return;
  }
  PendingWrite write{std::move(bytes), std::nullopt, std::move(done)};
  if (cap.count() > 0) write.deadline = Clock::now() + cap;
  writes_.push_back(std::move(write));
  if (!write_in_flight_) StartNextWrite();
}

void ChildState::StartNextWrite() {
  if (writes_.empty() || !stdin_open_) return;
  write_in_flight_ = true;
  const std::uint64_t gen = ++write_gen_;
  PendingWrite& write = writes_.front();
  if (write.deadline) {
    write_timer_.expires_at(*write.deadline);
    write_timer_.async_wait([self = shared_from_this(), gen](error_code ec) {
      if (!ec && self->alive_) self->OnWriteTimeout(gen);
    });
  }
  // The handler shares the buffer: an abandoned write's buffer must stay valid until asio has
  // let go of it, whatever happens to the queue meanwhile.
  SharedBytes data = write.bytes;
  std::vector<asio::const_buffer> buffers;
  for (std::string_view piece : data.pieces()) buffers.push_back(asio::buffer(piece));
  asio::async_write(in_, buffers,
                    [self = shared_from_this(), gen, data](error_code ec, std::size_t) {
                      if (self->alive_) self->OnWriteDone(gen, ec);
                    });
}

void ChildState::OnWriteDone(std::uint64_t gen, const error_code& ec) {
  if (gen != write_gen_ || !write_in_flight_) return;  // abandoned: already reported
  write_in_flight_ = false;
  write_timer_.cancel();
  if (ec) {  // EPIPE (no reader left) or another error: the stream position is lost
    Deliver(CloseStdinAndTakeWrites(WriteOutcome::kClosed));
    return;
  }
  PendingWrite done = std::move(writes_.front());
  writes_.pop_front();
  if (done.done) done.done(WriteOutcome::kWritten);
  if (!alive_) return;
  if (!write_in_flight_) StartNextWrite();  // the callback may have started one already
  if (!write_in_flight_ && writes_.empty() && close_when_drained_) {
    close_when_drained_ = false;
    CloseStdin();
  }
}

void ChildState::OnWriteTimeout(std::uint64_t gen) {
  if (gen != write_gen_ || !write_in_flight_) return;
  Deliver(CloseStdinAndTakeWrites(WriteOutcome::kTimedOut));
}

// Closes stdin and empties the queue: the front write gets `first` (if given; else kClosed),
// the others kClosed. Bumping write_gen_ makes the cancelled write's handlers no-ops.
std::vector<ChildState::Outcome> ChildState::CloseStdinAndTakeWrites(
    std::optional<WriteOutcome> first) {
  ++write_gen_;
  write_in_flight_ = false;
  stdin_open_ = false;
  write_timer_.cancel();
  CloseDescriptor(in_);
  std::vector<Outcome> outcomes;
  for (PendingWrite& write : writes_) {
    outcomes.push_back({std::move(write.done), WriteOutcome::kClosed});
  }
  if (first && !outcomes.empty()) outcomes.front().outcome = *first;
  writes_.clear();
  return outcomes;
}

void ChildState::Deliver(std::vector<Outcome> outcomes) {
  for (Outcome& outcome : outcomes) {
    if (!alive_) return;
    if (outcome.done) outcome.done(outcome.outcome);
  }
}

void ChildState::CloseStdin() {
  if (!stdin_open_) return;
  // Like a host that closes the pipe after what it already sent: queued writes go out first
  // (each still bounded by its cap), then the pipe closes.
  if (write_in_flight_ || !writes_.empty()) {
    close_when_drained_ = true;
    return;
  }
  std::vector<Outcome> closed = CloseStdinAndTakeWrites(std::nullopt);
  if (closed.empty()) return;
  asio::post(io_, [self = shared_from_this(), closed = std::move(closed)]() mutable {
    self->Deliver(std::move(closed));
  });
}

bool ChildState::SignalGroup(int sig) {
  if (!alive_) return false;
  return ::kill(-pid_, sig) == 0;
}

// Reaping the group without losing the plugin's status or touching anyone else's child:
//  - The plugin's status was read earlier with WNOWAIT (or no longer matters: no callback
//    runs from here), so reaping it now loses nothing; being unreaped until here, its pid
//    cannot have been reused.
//  - Until the plugin is reaped, its unreaped pid keeps the group id reserved, so kill(-pid)
//    cannot reach a stranger. It is reaped first (it may have left the group), then the
//    group's orphans, which PR_SET_CHILD_SUBREAPER made our children. Their zombies keep the
//    group id reserved in turn, and waitid(P_PGID) ends with ECHILD when none is left.
//    Nothing survives SIGKILL, so the blocking waits end; the kernel delivers a group signal
//    to a child forked while it is being sent, so no member slips through.
//  - Only the final ECHILD call runs with the id free again; for a stranger to be matched the
//    pid counter would have to wrap all the way round between two syscalls.
//  - Other Childs' processes are in other groups and reaped by their own Childs: no
//    waitpid(-1) anywhere, so Childs in other threads are never disturbed.
//  - Then the Enclosure kills whatever left the group (setsid, a double fork) and reaps the
//    zombies reparented to the harness, by pid (see contain.hpp).
void ChildState::Shutdown() {
  if (!alive_) return;
  alive_ = false;
  write_timer_.cancel();
  stop_timer_.cancel();
  CloseDescriptor(in_);
  CloseDescriptor(out_);
  CloseDescriptor(err_);
  CloseDescriptor(hurry_);
  ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);
  siginfo_t info{};
  while (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED) != 0 && errno == EINTR) {
  }
  Unregister(pid_);
  CloseDescriptor(pidfd_);
  while (::waitid(P_PGID, static_cast<id_t>(pid_), &info, WEXITED) == 0 || errno == EINTR) {
  }
  if (enclosure_) enclosure_->KillAll(std::chrono::milliseconds(2000));
  enclosure_.reset();
}

namespace {

class ChildImpl final : public Child {
 public:
  explicit ChildImpl(std::shared_ptr<ChildState> state) : state_(std::move(state)) {}
  ~ChildImpl() override { state_->Shutdown(); }

  void Write(SharedBytes bytes, std::chrono::milliseconds cap,
             std::function<void(WriteOutcome)> done) override {
    state_->Write(std::move(bytes), cap, std::move(done));
  }
  void CloseStdin() override { state_->CloseStdin(); }
  bool stdin_open() const override { return state_->stdin_open(); }
  bool SignalGroup(int sig) override { return state_->SignalGroup(sig); }
  void Stop(std::vector<StopStep> steps, std::function<void(const StopResult&)> done) override {
    state_->Stop(std::move(steps), std::move(done));
  }
  pid_t pid() const override { return state_->pid(); }
  Clock::time_point started_at() const override { return state_->started_at(); }
  const std::optional<ExitStatus>& exit_status() const override { return state_->exit_status(); }
  std::string stderr_text() const override { return state_->stderr_text(); }
  std::uint64_t stderr_dropped() const override { return state_->stderr_dropped(); }
  std::size_t stdout_unread() const override { return state_->StdoutUnread(); }

 private:
  std::shared_ptr<ChildState> state_;
};

}  // namespace
}  // namespace detail

std::unique_ptr<Child> Child::Spawn(boost::asio::io_context& io, const SpawnSpec& spec,
                                    Callbacks callbacks, std::string* error) {
  if (spec.argv.empty()) {
    *error = "nothing to run: empty argv";
    return nullptr;
  }
  std::string cwd;
  std::string executable;
  if (!ResolveWorkingDirectory(spec.cwd, &cwd, error) ||
      !ResolveExecutable(spec.argv[0], cwd, spec.env, &executable, error)) {
    return nullptr;
  }
  detail::ReapOrphanZombies();  // the zombies left by earlier sessions' escapees
  auto enclosure = std::make_unique<detail::Enclosure>();
  detail::Launched launched;
  {
    detail::SpawnWindow window;  // until the pid is registered, no sweep may reap it
    if (!detail::Launch(executable, spec, cwd, *enclosure, &launched, error)) return nullptr;
    window.Register(launched.pid);
  }
  enclosure->Confirm(launched.pid);
  auto state = std::make_shared<detail::ChildState>(io, launched.pid, spec, std::move(enclosure),
                                                    std::move(callbacks));
  std::string why;
  if (!state->Adopt(launched, &why)) {
    state->Shutdown();  // kills and reaps the plugin and anything it started
    *error = "cannot watch " + executable + ": " + why;
    return nullptr;
  }
  state->Start();
  return std::make_unique<detail::ChildImpl>(std::move(state));
}

}  // namespace fakehost::process
