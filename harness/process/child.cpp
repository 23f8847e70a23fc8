// Child: spawning, the three pipes, the exit watch and the teardown. The stop sequence is in
// stop.cpp, the fork/exec in launch.cpp.
#include "harness/process/child.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <utility>

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

ChildState::ChildState(asio::io_context& io, pid_t pid, std::size_t stderr_cap, Callbacks callbacks)
    : io_(io),
      in_(io),
      out_(io),
      err_(io),
      pidfd_(io),
      write_timer_(io),
      stop_timer_(io),
      callbacks_(std::move(callbacks)),
      pid_(pid),
      started_at_(Clock::now()),
      stderr_cap_(stderr_cap) {
  stderr_text_.reserve(std::min<std::size_t>(stderr_cap_, 64 * 1024));
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
                           error_code ignored;
                           self->out_.close(ignored);
                           if (self->callbacks_.on_stdout_eof) self->callbacks_.on_stdout_eof();
                           return;
                         }
                         self->ReadStdout();
                       });
}

void ChildState::ReadStderr() {
  err_.async_read_some(asio::buffer(err_buf_),
                       [self = shared_from_this()](error_code ec, std::size_t n) {
                         if (!self->alive_) return;
                         if (n > 0) {
                           self->KeepStderr(n);
                           if (self->callbacks_.on_stderr) {
                             self->callbacks_.on_stderr(std::string_view(self->err_buf_.data(), n));
                             if (!self->alive_) return;
                           }
                         }
                         if (ec) {
                           error_code ignored;
                           self->err_.close(ignored);
                           return;
                         }
                         self->ReadStderr();
                       });
}

// Keeps the head of stderr (where a crash report usually starts) and only counts the rest, so
// a plugin flooding stderr costs one 64 KiB buffer however much it writes.
void ChildState::KeepStderr(std::size_t n) {
  const std::size_t room = stderr_cap_ - std::min(stderr_cap_, stderr_text_.size());
  const std::size_t kept = std::min(room, n);
  stderr_text_.append(err_buf_.data(), kept);
  stderr_dropped_ += n - kept;
}

void ChildState::WatchExit() {
  pidfd_.async_wait(asio::posix::descriptor_base::wait_read,
                    [self = shared_from_this()](error_code ec) {
                      if (!self->alive_ || ec == asio::error::operation_aborted) return;
                      if (self->ObserveExit(/*known_exited=*/true)) self->NotifyExit();
                    });
}

// Reads the exit status with WNOWAIT: the plugin stays a zombie, so its pid (the group id)
// cannot be reused while this Child may still signal the group; Shutdown() reaps it. Waiting
// by pid is safe for that reason too: only this Child ever reaps this pid. The pidfd serves
// for readiness only: the kernel (6.x) makes it readable a moment before the exiting process
// becomes waitable, and waitid(P_PIDFD) on it, non-blocking under asio, then fails with EAGAIN.
// So `known_exited` (the pidfd is readable) makes this wait blocking, for the last
// microseconds of the process's exit.
bool ChildState::ObserveExit(bool known_exited) {
  if (exit_) return true;
  siginfo_t info{};
  const int flags = WEXITED | WNOWAIT | (known_exited ? 0 : WNOHANG);
  int rc;
  do {
    rc = ::waitid(P_PID, static_cast<id_t>(pid_), &info, flags);
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
  }
  // A readable pidfd whose status cannot be read (rc != 0: not our child any more, which
  // nothing here allows) still means the process is gone: record an exit without code or
  // signal rather than wait for ever.
  exit_ = status;
  return true;
}

void ChildState::NotifyExit() {
  if (!alive_ || exit_notified_) return;
  exit_notified_ = true;
  if (callbacks_.on_exit) callbacks_.on_exit(*exit_);
  if (!alive_) return;
  if (stop_) FinishStop(/*exited=*/true);
}

void ChildState::Write(std::string bytes, std::chrono::milliseconds cap,
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
  // The bytes move into a shared buffer owned by the handler: an abandoned write's buffer must
  // stay valid until asio has let go of it, whatever happens to the queue meanwhile.
  auto data = std::make_shared<std::string>(std::move(write.bytes));
  asio::async_write(in_, asio::buffer(*data),
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
  error_code ignored;
  write_timer_.cancel();
  in_.close(ignored);
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
void ChildState::Shutdown() {
  if (!alive_) return;
  alive_ = false;
  error_code ignored;
  write_timer_.cancel();
  stop_timer_.cancel();
  in_.close(ignored);
  out_.close(ignored);
  err_.close(ignored);
  ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);
  siginfo_t info{};
  while (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED) != 0 && errno == EINTR) {
  }
  pidfd_.close(ignored);
  while (::waitid(P_PGID, static_cast<id_t>(pid_), &info, WEXITED) == 0 || errno == EINTR) {
  }
}

namespace {

class ChildImpl final : public Child {
 public:
  explicit ChildImpl(std::shared_ptr<ChildState> state) : state_(std::move(state)) {}
  ~ChildImpl() override { state_->Shutdown(); }

  void Write(std::string bytes, std::chrono::milliseconds cap,
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
  const std::string& stderr_text() const override { return state_->stderr_text(); }
  std::uint64_t stderr_dropped() const override { return state_->stderr_dropped(); }

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
  detail::Launched launched;
  if (!detail::Launch(io, executable, spec.argv, cwd, spec.env, &launched, error)) {
    return nullptr;
  }
  auto state =
      std::make_shared<detail::ChildState>(io, launched.pid, spec.stderr_cap, std::move(callbacks));
  std::string why;
  if (!state->Adopt(launched, &why)) {
    ::kill(-launched.pid, SIGKILL);
    siginfo_t info{};
    while (::waitid(P_PID, static_cast<id_t>(launched.pid), &info, WEXITED) != 0 &&
           errno == EINTR) {
    }
    *error = "cannot watch " + executable + ": " + why;
    return nullptr;
  }
  state->Start();
  return std::make_unique<detail::ChildImpl>(std::move(state));
}

}  // namespace fakehost::process
