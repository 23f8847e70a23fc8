#include "harness/session/session.hpp"
#include "harness/protocol/host_frame.hpp"

#include <fcntl.h>

#include <unistd.h>

#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>

#include "harness/json/json.hpp"
#include "harness/session/interrupt.hpp"

namespace fakehost::session {
namespace {

using protocol::MessageKind;

rapidjson::Value Str(std::string_view s, rapidjson::Document::AllocatorType& a) {
  return rapidjson::Value(s.data(), static_cast<rapidjson::SizeType>(s.size()), a);
}

/// The sequence ended the plugin with its own signal step.
bool EndedBySignalStep(const process::StopResult& result,
                       const std::vector<protocol::StopStepSpec>& steps) {
  return result.exited && result.status.signal && result.stage < steps.size() &&
         steps[result.stage].kind == protocol::StopStepSpec::Kind::kSignal;
}

}  // namespace

Session::Session(const protocol::Profile& profile, const schema::FrameSchema* schema,
                 Options options)
    : profile_(profile),
      schema_(schema),
      options_(std::move(options)),
      host_(profile, options_.manifest.get()),
      transcript_({options_.transcript_bytes_cap, options_.transcript_entries_cap}),
      findings_(options_.findings_per_check),
      inbox_({options_.inbox_documents_cap, options_.inbox_bytes_cap}),
      correlator_(profile),
      transport_(io_, profile.framing(), profile.max_payload(), options_.spawn) {}

Session::~Session() {
  transport_.Close();  // kills and reaps the group before anything its callbacks touch goes away
  if (interrupt_watcher_) interrupt_watcher_->close();
}

void Session::WatchInterrupt() {
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

bool Session::Start(const process::SpawnSpec& spec, std::string* error) {
  WatchInterrupt();
  started_ = Clock::now();
  bool started = transport_.Start(
      spec, [this](Event& e) { OnEvent(e); }, error);
  if (started) started_ = transport_.child()->started_at();
  return started;
}

double Session::ElapsedMs(Clock::time_point at) const {
  return std::chrono::duration<double, std::milli>(at - started_).count();
}

TranscriptEntry Session::NewEntry(Direction direction, EntryKind kind, std::string_view text,
                                  std::uint64_t size) const {
  TranscriptEntry entry;
  entry.direction = direction;
  entry.t_ms = ElapsedMs(Clock::now());
  entry.kind = kind;
  entry.size = size;
  entry.clipped = text.size() > options_.transcript_text_cap;
  entry.text = std::string(text.substr(0, options_.transcript_text_cap));
  return entry;
}

std::size_t Session::RecordHostFrame(TranscriptEntry entry,
                                     const std::optional<SchemaVerdict>& verdict) {
  std::size_t index = Record(std::move(entry));
  if (verdict) Raise(SchemaFinding(profile_, *verdict, /*from_plugin=*/false, index, revision_));
  return index;
}

rapidjson::Value Session::NextId(const std::string& method) { return correlator_.NextId(method); }

void Session::CloseStdin() {
  if (process::Child* child = transport_.child()) child->CloseStdin();
}

bool Session::SignalGroup(int signal) {
  process::Child* child = transport_.child();
  return child && child->SignalGroup(signal);
}

bool Session::gone() const { return connection_lost_ || stdout_eof_ || drained_; }

std::optional<Reason> Session::GoneReason() const {
  if (!gone()) return std::nullopt;
  if (connection_lost_) return Reason::kFramingLost;
  if (exit_status()) return Reason::kPluginExited;
  return Reason::kStdoutClosed;
}

std::string Session::Describe(Reason gone) const {
  const ReasonInfo& info = Info(gone);
  std::string text = *info.gone ? info.gone : info.name;
  const auto& status = exit_status();
  if (info.ends == ReasonEnds::kPlugin && status) text += " (" + status->Describe() + ")";
  return text;
}

const std::optional<process::ExitStatus>& Session::exit_status() const {
  process::Child* child = transport_.child();
  return child ? child->exit_status() : no_status_;
}

Session::WaitEnd Session::RunUntil(const std::function<bool()>& done, Clock::time_point deadline) {
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

std::optional<Inbound> Session::Next(Cursor& cursor, Clock::time_point until) {
  // Messages that arrive while the step waits are kept even past the inbox's caps until it has
  // read them: one read may bring more frames than the caps hold.
  unread_from_ = cursor.from;
  RunUntil([&] { return inbox_.After(cursor) || gone() || interrupted(); }, until);
  unread_from_ = SIZE_MAX;
  std::optional<Inbound> next = inbox_.After(cursor);
  if (next) cursor.from = next->frame + 1;
  return next;
}

std::optional<Inbound> Session::WaitFor(bool (*wanted)(const Inbound&), Clock::time_point until) {
  Cursor cursor;
  while (std::optional<Inbound> in = Next(cursor, until))
    if (wanted(*in) && Take(in->frame)) return in;
  return std::nullopt;
}

void Session::RunFor(Ms duration) {
  RunUntil([] { return false; }, Clock::now() + duration);
}

std::vector<process::StopStep> Session::StopPlan(const std::vector<protocol::StopStepSpec>& steps,
                                                 bool graded, Ms* total) {
  std::vector<process::StopStep> plan;
  for (const auto& s : steps) {
    process::StopStep p;
    p.label = s.label;
    p.time = s.time;
    p.signal = s.signal;
    *total += s.time;
    switch (s.kind) {
      case protocol::StopStepSpec::Kind::kWrite: {
        p.kind = process::StopStep::Kind::kWrite;
        rapidjson::Document message;
        message.SetObject();
        message.AddMember("method", Str(s.method, message.GetAllocator()), message.GetAllocator());
        rapidjson::Document note = protocol::HostFrame(profile_, std::move(message));
        std::string payload = json::ToCompact(note);
        TranscriptEntry entry =
            NewEntry(Direction::kHostToPlugin, EntryKind::kNotification, payload, payload.size());
        entry.method = s.method;
        entry.notes.push_back("stop sequence: " + s.label);
        std::optional<SchemaVerdict> verdict =
            Validate(entry, note, MessageKind::kNotification, s.method);
        RecordHostFrame(std::move(entry), verdict);
        // An ungraded teardown does not judge what the plugin had already sent on its way.
        if (s.method == profile_.shutdown_notification() && graded) shutdown_sent_ = true;
        p.bytes = profile_.framing().Encode(std::move(payload));
        break;
      }
      case protocol::StopStepSpec::Kind::kCloseStdin:
        p.kind = process::StopStep::Kind::kCloseStdin;
        break;
      case protocol::StopStepSpec::Kind::kWait:
        p.kind = process::StopStep::Kind::kWait;
        break;
      case protocol::StopStepSpec::Kind::kSignal:
        p.kind = process::StopStep::Kind::kSignal;
        break;
    }
    plan.push_back(std::move(p));
  }
  return plan;
}

process::StopResult Session::Stop(const std::vector<protocol::StopStepSpec>& steps, bool graded) {
  Ms total{0};
  std::vector<process::StopStep> plan = StopPlan(steps, graded, &total);
  process::StopResult result;
  process::Child* child = transport_.child();
  if (!child) return result;
  // A frame the plugin was writing when the host's own stop ended it is cut by the host: an
  // ungraded teardown never holds it against the plugin; a graded stop does only if the plugin
  // ended on its own rather than by the sequence's signal (judged once the sequence is over).
  if (graded)
    graded_stop_running_ = true;
  else
    hosts_cut_ = true;
  // Shared state: if the sequence overran its own budget, the callback may still fire later.
  auto state = std::make_shared<std::pair<bool, process::StopResult>>();
  child->Stop(std::move(plan), [state](const process::StopResult& r) {
    state->second = r;
    state->first = true;
  });
  RunUntil([&] { return state->first; }, Clock::now() + total + Ms(5000));
  if (state->first) result = state->second;
  graded_stop_running_ = false;
  if (pending_cut_) {
    hosts_cut_ = hosts_cut_ || EndedBySignalStep(result, steps);
    JudgeTruncation(pending_cut_->first, pending_cut_->second, hosts_cut_);
    pending_cut_.reset();
  } else if (EndedBySignalStep(result, steps)) {
    hosts_cut_ = true;  // its output may still be drained later
  }
  return result;
}

const rapidjson::Value* Session::Announced() const {
  const rapidjson::Value* answer =
      handshake_answer_ ? handshake_answer_.get() : announced_in_.get();
  const std::string* pointer = profile_.announcements_pointer();
  return answer && pointer ? json::Resolve(*answer, *pointer) : nullptr;
}

const PendingRequest* Session::RequestByFrame(std::size_t frame) const {
  return correlator_.ByFrame(frame);
}

std::string Session::StderrTail(std::size_t max_bytes, std::uint64_t* dropped) const {
  process::Child* child = transport_.child();
  if (dropped) *dropped = child ? child->stderr_dropped() : 0;
  if (!child) return {};
  const std::string text = child->stderr_text();
  if (text.size() <= max_bytes) return text;
  if (dropped) *dropped += text.size() - max_bytes;
  return text.substr(text.size() - max_bytes);
}

std::uint64_t Session::stderr_dropped() const {
  process::Child* child = transport_.child();
  return child ? child->stderr_dropped() : 0;
}

}  // namespace fakehost::session
