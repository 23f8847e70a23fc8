#include "harness/session/connection.hpp"

#include <fcntl.h>

#include <unistd.h>

#include <boost/asio/steady_timer.hpp>

#include "harness/session/interrupt.hpp"

namespace fakehost::session {

Connection::Connection(const protocol::Profile& profile, ChildFactory factory)
    : transport_(io_, profile.framing(), profile.max_payload(), std::move(factory)) {}

Connection::~Connection() { Close(); }

void Connection::Close() {
  transport_.Close();  // kills and reaps the group before anything its callbacks touch goes away
  if (interrupt_watcher_) interrupt_watcher_->close();
  interrupt_watcher_.reset();
}

void Connection::WatchInterrupt() {
  int fd = InterruptFd();
  if (fd < 0) return;
  // A duplicate per session: each event loop registers the descriptor with its own epoll, and
  // nobody reads it, so it stays readable for all of them. Close-on-exec, so no plugin started
  // by another thread meanwhile keeps it (and with it this loop's registration) alive. Its
  // handler does nothing: running it ends RunUntil's run_one(), which rechecks the condition.
  int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) return;
  auto watcher = std::make_shared<boost::asio::posix::stream_descriptor>(io_, copy);
  watcher->async_wait(boost::asio::posix::stream_descriptor::wait_read,
                      [watcher](const boost::system::error_code&) {});
  interrupt_watcher_ = watcher;
}

bool Connection::Start(const process::SpawnSpec& spec, FramePipeline& sink, std::string* error) {
  WatchInterrupt();
  return transport_.Start(spec, sink, error);
}

Connection::WaitEnd Connection::RunUntil(const std::function<bool()>& done,
                                         Clock::time_point deadline) {
  if (done()) return WaitEnd::kDone;
  // A timer keeps the loop alive until the deadline, so run_one() blocks on the next event
  // instead of spinning; its flag is shared because the handler may run after we return.
  auto fired = std::make_shared<bool>(false);
  boost::asio::steady_timer timer(io_, deadline);
  timer.async_wait([fired](const boost::system::error_code& ec) {
    if (!ec) *fired = true;
  });
  WaitEnd end = WaitEnd::kDeadline;
  for (;;) {
    if (done()) {
      end = WaitEnd::kDone;
      break;
    }
    if (*fired || Clock::now() >= deadline) break;
    io_.run_one();
    if (io_.stopped()) io_.restart();
  }
  // The cancelled timer's handler runs on a later turn; it owns `fired`, so that is safe. No
  // poll() here: with a plugin flooding stdout, poll() would never return.
  timer.cancel();
  return end;
}

void Connection::RunFor(Ms duration) {
  RunUntil([] { return false; }, Clock::now() + duration);
}

process::StopResult Connection::RunStop(std::vector<process::StopStep> plan, Ms total) {
  process::StopResult result;
  process::Child* child = transport_.child();
  if (!child) return result;
  // Shared state: if the sequence overran its own budget, the callback may still fire later.
  auto state = std::make_shared<std::pair<bool, process::StopResult>>();
  child->Stop(std::move(plan), [state](const process::StopResult& r) {
    state->second = r;
    state->first = true;
  });
  RunUntil([&] { return state->first; }, Clock::now() + total + Ms(5000));
  if (state->first) result = state->second;
  return result;
}

void Connection::CloseStdin() {
  if (process::Child* c = transport_.child()) c->CloseStdin();
}

bool Connection::SignalGroup(int signal) {
  process::Child* c = transport_.child();
  return c && c->SignalGroup(signal);
}

const std::optional<process::ExitStatus>& Connection::exit_status() const {
  process::Child* c = transport_.child();
  return c ? c->exit_status() : no_status_;
}

std::optional<result::Reason> Connection::GoneReason() const {
  if (!gone()) return std::nullopt;
  if (transport_.framing_lost()) return result::Reason::kFramingLost;
  if (exit_status()) return result::Reason::kPluginExited;
  return result::Reason::kStdoutClosed;
}

std::string Connection::Describe(result::Reason gone) const {
  const result::ReasonInfo& info = result::Info(gone);
  std::string text = *info.gone ? info.gone : info.name;
  const auto& status = exit_status();
  if (info.ends == result::ReasonEnds::kPlugin && status) text += " (" + status->Describe() + ")";
  return text;
}

std::string Connection::StderrTail(std::size_t max_bytes, std::uint64_t* dropped) const {
  process::Child* c = transport_.child();
  if (dropped) *dropped = c ? c->stderr_dropped() : 0;
  if (!c) return {};
  const std::string text = c->stderr_text();
  if (text.size() <= max_bytes) return text;
  if (dropped) *dropped += text.size() - max_bytes;
  return text.substr(text.size() - max_bytes);
}

std::uint64_t Connection::stderr_dropped() const {
  process::Child* c = transport_.child();
  return c ? c->stderr_dropped() : 0;
}

}  // namespace fakehost::session
