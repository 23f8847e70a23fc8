#include "harness/session/test_support/fake_child.hpp"

#include <csignal>

#include <boost/asio/post.hpp>

namespace fakehost::session::testing {

FakeChild::FakeChild(boost::asio::io_context& io, process::Callbacks callbacks)
    : io_(io), callbacks_(std::move(callbacks)), started_(process::Clock::now()) {}

void FakeChild::Post(std::function<void()> fn) {
  boost::asio::post(io_, [alive = alive_, fn = std::move(fn)] {
    if (*alive) fn();
  });
}

void FakeChild::Delivered(const std::string& bytes) {
  if (on_stdin_) Post([this, bytes] { on_stdin_(bytes); });
}

void FakeChild::PushStdout(std::string bytes) {
  Post([this, bytes = std::move(bytes)] { callbacks_.on_stdout(bytes); });
}

void FakeChild::PushStderr(std::string bytes) {
  stderr_ += bytes;
  Post([this, bytes = std::move(bytes)] {
    if (callbacks_.on_stderr) callbacks_.on_stderr(bytes);
  });
}

void FakeChild::CloseStdout() {
  Post([this] { callbacks_.on_stdout_eof(); });
}

void FakeChild::Exit(int code, int signal) {
  if (status_) return;
  process::ExitStatus status;
  if (signal)
    status.signal = signal;
  else
    status.code = code;
  status.at = process::Clock::now();
  status_ = status;
  stdin_open_ = false;
  Post([this] { callbacks_.on_exit(*status_); });
}

void FakeChild::Write(process::SharedBytes bytes, std::chrono::milliseconds cap,
                      std::function<void(process::WriteOutcome)> done) {
  process::WriteOutcome outcome = process::WriteOutcome::kClosed;
  if (stdin_open_ && !reading_ && cap.count() <= 0) {
    unread_.push_back(std::move(done));  // no deadline: the write waits for ever
    return;
  }
  if (stdin_open_ && !reading_) {
    outcome = process::WriteOutcome::kTimedOut;
    stdin_open_ = false;  // the stream position is lost
  } else if (stdin_open_) {
    const std::string joined = bytes.Joined();
    stdin_ += joined;
    outcome = process::WriteOutcome::kWritten;
    Delivered(joined);
  }
  Post([done = std::move(done), outcome] { done(outcome); });
}

void FakeChild::CloseStdin() { stdin_open_ = false; }

bool FakeChild::SignalGroup(int sig) {
  if (status_) return false;
  signals_.push_back(sig);
  if (sig != 0) Exit(0, sig);
  return true;
}

void FakeChild::Stop(std::vector<process::StopStep> steps,
                     std::function<void(const process::StopResult&)> done) {
  process::StopResult result;
  result.exited_before = status_.has_value();
  for (std::size_t i = 0; i < steps.size() && !status_; ++i) {
    const process::StopStep& step = steps[i];
    result.stage = i;
    result.stage_label = step.label;
    if (step.kind == process::StopStep::Kind::kWrite && stdin_open_) {
      stdin_ += step.bytes;
      // At once, not posted: the sequence goes on in this call, and a scripted plugin that exits
      // on this write (a shutdown notification) must have exited before the next step.
      if (on_stdin_) on_stdin_(step.bytes);
    }
    if (step.kind == process::StopStep::Kind::kCloseStdin) stdin_open_ = false;
    if (step.kind == process::StopStep::Kind::kSignal) SignalGroup(step.signal);
  }
  result.exited = status_.has_value();
  if (status_) result.status = *status_;
  Post([done = std::move(done), result] { done(result); });
}

ChildFactory FakeChildFactory(FakeChild** made) {
  return [made](boost::asio::io_context& io, const process::SpawnSpec&,
                process::Callbacks callbacks, std::string*) -> std::unique_ptr<process::Child> {
    auto child = std::make_unique<FakeChild>(io, std::move(callbacks));
    *made = child.get();
    return child;
  };
}

ChildFactory FailingChildFactory(std::string error) {
  return [error](boost::asio::io_context&, const process::SpawnSpec&, process::Callbacks,
                 std::string* out) -> std::unique_ptr<process::Child> {
    if (out) *out = error;
    return nullptr;
  };
}

}  // namespace fakehost::session::testing
