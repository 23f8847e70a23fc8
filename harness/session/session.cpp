#include "harness/session/session.hpp"

#include <fcntl.h>

#include <unistd.h>

#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>

#include "harness/json/json.hpp"
#include "harness/schema/schema.hpp"
#include "harness/session/interrupt.hpp"

namespace fakehost::session {
namespace {

using protocol::MessageKind;

rapidjson::Value Str(std::string_view s, rapidjson::Document::AllocatorType& a) {
  return rapidjson::Value(s.data(), static_cast<rapidjson::SizeType>(s.size()), a);
}

}  // namespace

Session::Session(const protocol::Profile& profile, const schema::FrameSchema* schema,
                 Options options)
    : profile_(profile),
      schema_(schema),
      options_(options),
      decoder_(wire::MakeDecoder(profile.framing(), profile.max_payload())),
      host_(profile),
      correlator_(profile) {}

Session::~Session() {
  child_.reset();  // kills and reaps the group before anything its callbacks touch goes away
  if (interrupt_watcher_) interrupt_watcher_->close();
}

void Session::WatchInterrupt() {
  int fd = InterruptFd();
  if (fd < 0) return;
  // A duplicate per session: each event loop registers the descriptor with its own epoll, and
  // nobody reads it, so it stays readable for all of them. Close-on-exec, so no plugin started
  // by another thread meanwhile keeps it (and with it this loop's registration) alive.
  int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) return;
  auto watcher = std::make_shared<boost::asio::posix::stream_descriptor>(io_, copy);
  watcher->async_wait(boost::asio::posix::stream_descriptor::wait_read,
                      [this, watcher](const boost::system::error_code& ec) {
                        if (!ec) ++generation_;
                      });
  interrupt_watcher_ = watcher;
}

bool Session::Start(const process::SpawnSpec& spec, std::string* error) {
  WatchInterrupt();
  process::Callbacks cb;
  cb.on_stdout = [this](std::string_view bytes) { OnStdout(bytes); };
  cb.on_stdout_eof = [this] { OnStdoutEof(); };
  cb.on_stderr = [this](std::string_view) { ++generation_; };
  cb.on_exit = [this](const process::ExitStatus&) {
    exit_seen_ = Clock::now();
    ++generation_;
    // The exit may be seen before the last bytes on stdout are read: give the reader a moment
    // to drain before declaring that nothing more can arrive.
    auto timer = std::make_shared<boost::asio::steady_timer>(io_, Ms(200));
    timer->async_wait([this, timer](const boost::system::error_code& ec) {
      if (!ec) {
        drain_expired_ = true;
        ++generation_;
      }
    });
  };
  started_ = Clock::now();
  child_ = process::Child::Spawn(io_, spec, std::move(cb), error);
  if (child_) started_ = child_->started_at();
  return child_ != nullptr;
}

double Session::ElapsedMs(Clock::time_point at) const {
  return std::chrono::duration<double, std::milli>(at - started_).count();
}

TranscriptEntry Session::NewEntry(Direction direction, std::string kind, std::string_view text,
                                  std::uint64_t size) const {
  TranscriptEntry entry;
  entry.direction = direction;
  entry.t_ms = ElapsedMs(Clock::now());
  entry.kind = std::move(kind);
  entry.size = size;
  entry.clipped = text.size() > options_.transcript_text_cap;
  entry.text = std::string(text.substr(0, options_.transcript_text_cap));
  return entry;
}

rapidjson::Value Session::NextId(const std::string& method) { return correlator_.NextId(method); }

rapidjson::Document HostFrame(const protocol::Profile& profile, rapidjson::Document message) {
  // The envelope members first, so transcripts read like the spec's examples.
  rapidjson::Document frame;
  frame.SetObject();
  auto& a = frame.GetAllocator();
  for (const auto& m : profile.host_members().GetObject())
    if (!json::Find(message, std::string_view(m.name.GetString(), m.name.GetStringLength())))
      frame.AddMember(rapidjson::Value(m.name, a), rapidjson::Value(m.value, a), a);
  if (message.IsObject())
    for (auto& m : message.GetObject())
      frame.AddMember(rapidjson::Value(m.name, a), rapidjson::Value(m.value, a), a);
  protocol::Classified c = profile.Classify(frame);
  const rapidjson::Value* members = profile.request_members();
  if (c.kind != MessageKind::kRequest || !members) return frame;
  for (const auto& m : members->GetObject()) {
    std::string_view name(m.name.GetString(), m.name.GetStringLength());
    if (json::Find(frame, name)) continue;  // a scenario's own value wins
    rapidjson::Value v;
    if (m.value.IsString() && std::string_view(m.value.GetString()) == "${deadline_ms}")
      v.SetInt64(static_cast<std::int64_t>(profile.DeadlineFor(c.method).count()));
    else
      v.CopyFrom(m.value, a);
    frame.AddMember(rapidjson::Value(m.name, a), v, a);
  }
  return frame;
}

std::size_t Session::Send(rapidjson::Document message, bool deliberately_invalid,
                          const std::string& answers) {
  rapidjson::Document frame = HostFrame(profile_, std::move(message));
  protocol::Classified c = profile_.Classify(frame);
  if (c.kind == MessageKind::kResponse) c.method = answers;  // routes to <method>.response
  std::string payload = json::ToCompact(frame);
  TranscriptEntry entry = NewEntry(Direction::kHostToPlugin, protocol::MessageKindName(c.kind),
                                   payload, payload.size());
  entry.method = json::Abbreviate(c.method);
  if (c.id) entry.id = json::Abbreviate(json::ToCompact(*c.id));
  if (!deliberately_invalid) Validate(entry, frame, c.kind, c.method, false);
  if (deliberately_invalid) entry.notes.push_back("deliberately invalid: not validated");
  std::size_t index = Record(std::move(entry));

  if (c.kind == MessageKind::kRequest && (!deliberately_invalid || AcceptedAsRequest(frame))) {
    std::string key;
    if (c.id &&
        correlator_.Owe(
            *c.id,
            PendingRequest{
                index, c.method, json::Abbreviate(json::ToCompact(*c.id)), Clock::now(), {}},
            &key)) {
      if (c.method == profile_.handshake_method()) {
        handshake_key_ = key;
        const std::string& ptr = profile_.granted_capabilities_pointer();
        if (const rapidjson::Value* caps = ptr.empty() ? nullptr : json::Resolve(frame, ptr);
            caps && caps->IsArray()) {
          std::vector<std::string> granted;
          for (const auto& cap : caps->GetArray())
            if (cap.IsString()) granted.emplace_back(cap.GetString());
          host_.SetGranted(std::move(granted));
        }
      }
    }
  } else if (c.kind == MessageKind::kRequest && c.id) {
    correlator_.Noise(*c.id, index);
  } else if (c.kind == MessageKind::kNotification && !c.method.empty() &&
             c.method == profile_.shutdown_notification()) {
    shutdown_sent_ = true;
  }
  Write(wire::Encode(profile_.framing(), payload), index);
  return index;
}

void Session::AfterHandshake(const rapidjson::Value& reply) {
  const rapidjson::Value* after = profile_.after_handshake();
  if (!after) return;
  const rapidjson::Value* result = json::Find(reply, "result");
  if (const rapidjson::Value* when = json::Find(*after, "when"); when && when->IsObject()) {
    if (!result || !result->IsObject()) return;
    for (const auto& m : when->GetObject()) {
      const rapidjson::Value* got =
          json::Find(*result, std::string_view(m.name.GetString(), m.name.GetStringLength()));
      if (!got || !json::StrictEqual(*got, m.value)) return;
    }
  }
  for (const auto& message : json::Find(*after, "send")->GetArray()) {
    rapidjson::Document copy;
    copy.CopyFrom(message, copy.GetAllocator());
    std::size_t index = Send(std::move(copy), false);
    Note(index, "sent by the host after a successful handshake");
  }
}

bool Session::AcceptedAsRequest(const rapidjson::Value& frame) const {
  // Only a frame whose envelope the protocol accepts is a request the plugin owes an answer (a
  // Flash request with a string id is noise); its params may still be deliberately odd.
  return !schema_ || !schema_->Has("envelope.request") ||
         schema_->Validate("envelope.request", frame).empty();
}

void Session::TrackRawRequest(std::size_t index, std::string_view payload) {
  rapidjson::Document doc;
  if (!json::Parse(payload, &doc).ok) return;
  protocol::Classified c = profile_.Classify(doc);
  json::IdKind k = json::ClassifyId(c.id);
  if (c.kind == MessageKind::kRequest && c.id &&
      ((k != json::IdKind::kInteger && k != json::IdKind::kString) || !AcceptedAsRequest(doc))) {
    correlator_.Noise(*c.id, index);  // an answer echoing it is allowed, none owed
    return;
  }
  if (c.kind != MessageKind::kRequest ||
      (k != json::IdKind::kInteger && k != json::IdKind::kString))
    return;
  std::string id_text = json::Abbreviate(json::ToCompact(*c.id));
  correlator_.Owe(*c.id, PendingRequest{index, c.method, id_text, Clock::now(), {}});
  if (TranscriptEntry* e = Mutable(index)) {
    e->method = json::Abbreviate(c.method);
    e->id = id_text;
  }
}

std::size_t Session::SendRaw(std::string bytes, std::string note) {
  std::size_t size = bytes.size();
  return SendRawChunked(std::move(bytes), size ? size : 1, Ms(0), std::move(note));
}

std::size_t Session::SendRawChunked(std::string bytes, std::size_t chunk, Ms delay,
                                    std::string note) {
  std::string all = bytes;
  TranscriptEntry entry = NewEntry(Direction::kHostToPlugin, "raw", bytes, bytes.size());
  if (!note.empty()) entry.notes.push_back(std::move(note));
  std::size_t index = Record(std::move(entry));
  for (std::size_t at = 0; at < all.size(); at += chunk) {
    if (at > 0 && delay.count() > 0) RunFor(delay);
    if (gone() || InterruptFlag().load()) break;  // nobody reads the rest
    Write(all.substr(at, chunk), index);
  }
  return index;
}

void Session::Write(std::string bytes, std::size_t frame) {
  if (!child_) return;
  child_->Write(std::move(bytes), options_.write_cap, [this, frame](process::WriteOutcome out) {
    if (out == process::WriteOutcome::kTimedOut) {
      Note(frame, "not delivered: the plugin stopped reading stdin");
      Raise({Severity::kMust, "stdin-blocked",
             profile_.CheckMessage("stdin-blocked",
                                   {{"frame", std::to_string(frame)},
                                    {"ms", std::to_string(options_.write_cap.count())}}),
             frame});
    } else if (out == process::WriteOutcome::kClosed) {
      Note(frame, "not delivered: the plugin's stdin is closed");
    }
    ++generation_;
  });
}

void Session::Reply(const Inbound& request, const rapidjson::Value& body) {
  rapidjson::Document reply;
  reply.SetObject();
  auto& a = reply.GetAllocator();
  if (const rapidjson::Value* id = json::Find(*request.doc, "id"))
    reply.AddMember("id", rapidjson::Value(*id, a), a);
  if (body.IsObject())
    for (const auto& m : body.GetObject())
      reply.AddMember(rapidjson::Value(m.name, a), rapidjson::Value(m.value, a), a);
  // A plugin request that broke the schema (say, a string id where Flash wants an integer)
  // gets its answer anyway, but that answer echoes the bad id: it is not the host's fault.
  std::size_t index = Send(std::move(reply), !request.valid, request.method);
  if (TranscriptEntry* e = Mutable(index)) e->method = json::Abbreviate(request.method);
  Note(index, "answers #" + std::to_string(request.frame));
  for (auto& in : inbox_)
    if (in.frame == request.frame) in.answered_by_host = true;
}

void Session::CloseStdin() {
  if (child_) child_->CloseStdin();
}

bool Session::SignalGroup(int signal) { return child_ && child_->SignalGroup(signal); }

bool Session::gone() const {
  return connection_lost_ || stdout_eof_ || (exit_seen_ && drain_expired_);
}

std::string Session::GoneReason() const {
  if (connection_lost_) return "the framing was lost, so the connection is over";
  const auto& status = exit_status();
  if (status) return "the plugin exited (" + status->Describe() + ")";
  if (stdout_eof_) return "the plugin closed its stdout";
  return "";
}

const std::optional<process::ExitStatus>& Session::exit_status() const {
  return child_ ? child_->exit_status() : no_status_;
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

void Session::RunFor(Ms duration) {
  RunUntil([] { return false; }, Clock::now() + duration);
}

process::StopResult Session::Stop(const std::vector<protocol::StopStepSpec>& steps, bool graded) {
  std::vector<process::StopStep> plan;
  Ms total{0};
  for (const auto& s : steps) {
    process::StopStep p;
    p.label = s.label;
    p.time = s.time;
    p.signal = s.signal;
    switch (s.kind) {
      case protocol::StopStepSpec::Kind::kWrite: {
        p.kind = process::StopStep::Kind::kWrite;
        rapidjson::Document message;
        message.SetObject();
        message.AddMember("method", Str(s.method, message.GetAllocator()), message.GetAllocator());
        rapidjson::Document note = HostFrame(profile_, std::move(message));
        std::string payload = json::ToCompact(note);
        TranscriptEntry entry =
            NewEntry(Direction::kHostToPlugin, "notification", payload, payload.size());
        entry.method = s.method;
        entry.notes.push_back("stop sequence: " + s.label);
        Validate(entry, note, MessageKind::kNotification, s.method, false);
        Record(std::move(entry));
        // An ungraded teardown does not judge what the plugin had already sent on its way.
        if (s.method == profile_.shutdown_notification() && graded) shutdown_sent_ = true;
        p.bytes = wire::Encode(profile_.framing(), payload);
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
    total += s.time;
    plan.push_back(std::move(p));
  }
  process::StopResult result;
  if (!child_) return result;
  // A frame the plugin was writing when the host's own stop ended it is cut by the host: an
  // ungraded teardown never holds it against the plugin; a graded stop does only if the plugin
  // ended on its own rather than by the sequence's signal (judged once the sequence is over).
  if (graded)
    graded_stop_running_ = true;
  else
    hosts_cut_ = true;
  // Shared state: if the sequence overran its own budget, the callback may still fire later.
  auto state = std::make_shared<std::pair<bool, process::StopResult>>();
  child_->Stop(std::move(plan), [state](const process::StopResult& r) {
    state->second = r;
    state->first = true;
  });
  RunUntil([&] { return state->first; }, Clock::now() + total + Ms(5000));
  if (state->first) result = state->second;
  graded_stop_running_ = false;
  if (pending_cut_) {
    bool by_signal = result.exited && result.status.signal && result.stage < steps.size() &&
                     steps[result.stage].kind == protocol::StopStepSpec::Kind::kSignal;
    hosts_cut_ = hosts_cut_ || by_signal;
    JudgeTruncation(pending_cut_->first, pending_cut_->second, hosts_cut_);
    pending_cut_.reset();
  } else if (result.exited && result.status.signal && result.stage < steps.size() &&
             steps[result.stage].kind == protocol::StopStepSpec::Kind::kSignal) {
    hosts_cut_ = true;  // its output may still be drained later
  }
  return result;
}

const PendingRequest* Session::RequestByFrame(std::size_t frame) const {
  return correlator_.ByFrame(frame);
}

std::string Session::StderrTail(std::size_t max_bytes) const {
  if (!child_) return {};
  const std::string& text = child_->stderr_text();
  if (text.size() <= max_bytes) return text;
  return text.substr(text.size() - max_bytes);
}

std::uint64_t Session::stderr_dropped() const { return child_ ? child_->stderr_dropped() : 0; }

}  // namespace fakehost::session
