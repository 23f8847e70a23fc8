// The stop sequence: steps run one after another, each wait ends early when the exit is seen
// (NotifyExit calls FinishStop), and the result names the step that caused the exit.
#include <fcntl.h>
#include <signal.h>

#include <chrono>
#include <utility>

#include <boost/asio/post.hpp>

#include "harness/process/child_state.hpp"

namespace fakehost::process::detail {

namespace asio = boost::asio;
using boost::system::error_code;
using std::chrono::duration_cast;
using std::chrono::milliseconds;

void ChildState::Stop(std::vector<StopStep> steps, std::function<void(const StopResult&)> done) {
  const Clock::time_point start = Clock::now();
  StopResult early;
  bool finish_now = false;
  if (stop_) {
    finish_now = true;  // one sequence at a time: this one reports that it did nothing
  } else if (ObserveExit(/*known_exited=*/false)) {
    // Checked once here rather than left to the pending pidfd wait, so a plugin that died a
    // moment ago is reported as gone before the sequence rather than graded at step 0.
    early.exited_before = true;
    early.exited = true;
    early.status = *exit_;
    if (!steps.empty()) early.stage_label = steps.front().label;
    finish_now = true;
    if (!exit_notified_) {
      asio::post(io_, [self = shared_from_this()] { self->NotifyExit(); });
    }
  }
  if (finish_now) {
    asio::post(io_, [self = shared_from_this(), early, done = std::move(done)] {
      if (self->alive_ && done) done(early);
    });
    return;
  }
  stop_ = StopRun{std::move(steps), 0, std::nullopt, start, std::move(done)};
  ++stop_gen_;
  WatchHurry();
  PostStopStep();  // never run user-visible effects from inside the call
}

void ChildState::PostStopStep() {
  asio::post(io_, [self = shared_from_this(), gen = stop_gen_] {
    if (self->alive_ && self->stop_ && gen == self->stop_gen_) self->RunStopStep();
  });
}

void ChildState::RunStopStep() {
  if (exit_) return;  // seen but not yet notified: NotifyExit will finish the sequence
  StopRun& run = *stop_;
  if (!run.hurried && HurryRequested()) {
    Hurry();
    return;
  }
  const std::uint64_t gen = stop_gen_;
  if (run.next == run.steps.size()) {
    if (run.steps.empty() || run.steps.back().kind == StopStep::Kind::kWait) {
      FinishStop(/*exited=*/false);
      return;
    }
    const std::chrono::milliseconds own = run.steps.back().time;
    stop_timer_.expires_after(own.count() > 0 ? own : kStopGrace);
    stop_timer_.async_wait([self = shared_from_this(), gen](error_code ec) {
      if (!ec && self->alive_ && self->stop_ && gen == self->stop_gen_) {
        self->FinishStop(/*exited=*/false);
      }
    });
    return;
  }
  const std::size_t index = run.next++;
  const StopStep& step = run.steps[index];
  if (step.kind != StopStep::Kind::kWait || !run.graded) run.graded = index;
  switch (step.kind) {
    case StopStep::Kind::kWrite:
      Write(step.bytes, step.time, [self = shared_from_this(), gen](WriteOutcome) {
        if (self->alive_ && self->stop_ && gen == self->stop_gen_) self->RunStopStep();
      });
      return;
    case StopStep::Kind::kCloseStdin:
      CloseStdin();
      PostStopStep();
      return;
    case StopStep::Kind::kSignal:
      SignalGroup(step.signal);
      PostStopStep();
      return;
    case StopStep::Kind::kWait:
      stop_timer_.expires_after(step.time);
      stop_timer_.async_wait([self = shared_from_this(), gen](error_code ec) {
        if (!ec && self->alive_ && self->stop_ && gen == self->stop_gen_) self->RunStopStep();
      });
      return;
  }
}

// A duplicate of the hurry eventfd in this Child's event loop, for the length of a sequence:
// a second Ctrl-C then cuts short the wait in progress.
void ChildState::WatchHurry() {
  const int fd = HurryFd();
  if (fd < 0 || hurry_.is_open()) return;
  const int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) return;
  error_code ec;
  hurry_.assign(copy, ec);
  if (ec) {
    ::close(copy);
    return;
  }
  hurry_.async_wait(asio::posix::descriptor_base::wait_read,
                    [self = shared_from_this()](error_code wait_ec) {
                      if (!wait_ec && self->alive_ && self->stop_ && !self->exit_) self->Hurry();
                    });
}

// Skips to the sequence's first SIGKILL step not yet run (its later waits still end at the
// exit), or sends SIGKILL at once when there is none and allows kStopGrace for the exit.
void ChildState::Hurry() {
  StopRun& run = *stop_;
  if (run.hurried) return;
  run.hurried = true;
  ++stop_gen_;  // the pending step's handlers (a wait, a write) become no-ops
  stop_timer_.cancel();
  std::size_t kill = run.next;
  while (kill < run.steps.size() &&
         !(run.steps[kill].kind == StopStep::Kind::kSignal && run.steps[kill].signal == SIGKILL)) {
    ++kill;
  }
  if (kill < run.steps.size()) {
    run.next = kill;
    PostStopStep();
    return;
  }
  SignalGroup(SIGKILL);
  run.next = run.steps.size();
  const std::uint64_t gen = stop_gen_;
  stop_timer_.expires_after(kStopGrace);
  stop_timer_.async_wait([self = shared_from_this(), gen](error_code ec) {
    if (!ec && self->alive_ && self->stop_ && gen == self->stop_gen_) {
      self->FinishStop(/*exited=*/false);
    }
  });
}

void ChildState::FinishStop(bool exited) {
  StopRun run = std::move(*stop_);
  stop_.reset();
  ++stop_gen_;
  stop_timer_.cancel();
  CloseDescriptor(hurry_);
  StopResult result;
  result.exited = exited;
  result.exited_before = exited && !run.graded;
  result.stage = run.graded.value_or(0);
  if (result.stage < run.steps.size()) result.stage_label = run.steps[result.stage].label;
  if (exited) {
    result.status = *exit_;
    result.elapsed = duration_cast<milliseconds>(exit_->at - run.start);
  } else {
    result.elapsed = duration_cast<milliseconds>(Clock::now() - run.start);
  }
  if (run.done) run.done(result);
}

}  // namespace fakehost::process::detail
