#include "harness/session/session.hpp"

#include <unistd.h>

#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>

#include "harness/json/json.hpp"
#include "harness/schema/schema.hpp"
#include "harness/session/interrupt.hpp"

namespace fakehost::session {
namespace {

using protocol::MessageKind;

std::string Hex(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    if (!out.empty()) out += ' ';
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

bool Printable(std::string_view bytes) {
  for (unsigned char c : bytes)
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') return false;
  return !bytes.empty();
}

// Why a length header may be absurd: the diagnosis a plugin author needs, not just the number.
std::string DiagnoseHeader(std::string_view header, std::uint64_t max) {
  std::string out;
  if (header.size() == 4) {
    std::uint32_t be = 0;
    for (unsigned char c : header) be = (be << 8) | c;
    if (Printable(header))
      out += "; the header bytes " + Hex(header) + " are the text \"" + std::string(header) +
             "\": something printed to stdout (§2: nothing but frames may be written there)";
    else if (be <= max)
      out += "; read big-endian they announce " + std::to_string(be) +
             " bytes: the length prefix must be little-endian (§3)";
  }
  return out;
}

rapidjson::Value Str(std::string_view s, rapidjson::Document::AllocatorType& a) {
  return rapidjson::Value(s.data(), static_cast<rapidjson::SizeType>(s.size()), a);
}

}  // namespace

const char* DirectionArrow(Direction d) {
  return d == Direction::kHostToPlugin ? "host → plugin" : "plugin → host";
}

Session::Session(const protocol::Profile& profile, const schema::FrameSchema* schema,
                 Options options)
    : profile_(profile),
      schema_(schema),
      options_(options),
      decoder_(wire::MakeDecoder(profile.framing(), profile.max_payload())),
      host_(profile) {}

Session::~Session() {
  child_.reset();  // kills and reaps the group before anything its callbacks touch goes away
  if (interrupt_watcher_) interrupt_watcher_->close();
}

void Session::WatchInterrupt() {
  int fd = InterruptFd();
  if (fd < 0) return;
  // A duplicate per session: each event loop registers the descriptor with its own epoll, and
  // nobody reads it, so it stays readable for all of them.
  auto watcher = std::make_shared<boost::asio::posix::stream_descriptor>(io_, ::dup(fd));
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

std::size_t Session::Record(TranscriptEntry entry) {
  entry.index = transcript_.size();
  transcript_.push_back(std::move(entry));
  ++generation_;
  return transcript_.back().index;
}

rapidjson::Value Session::NextId(const std::string& method) {
  protocol::IdSequence seq = profile_.IdsFor(method);
  std::string key = std::to_string(seq.start) + "/" + std::to_string(seq.step);
  auto [it, fresh] = next_ids_.try_emplace(key, seq.start);
  std::int64_t id = it->second;
  it->second += seq.step;
  return rapidjson::Value(static_cast<std::int64_t>(id));
}

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
  entry.method = c.method;
  if (c.id) entry.id = json::ToCompact(*c.id);
  if (!deliberately_invalid) Validate(entry, frame, c.kind, c.method, false);
  if (deliberately_invalid) entry.notes.push_back("deliberately invalid: not validated");
  std::size_t index = Record(std::move(entry));

  if (c.kind == MessageKind::kRequest && (!deliberately_invalid || AcceptedAsRequest(frame))) {
    json::IdKind k = json::ClassifyId(c.id);
    if (k == json::IdKind::kInteger || k == json::IdKind::kString) {
      std::string key = json::IdKey(*c.id);
      requests_.emplace(key,
                        PendingRequest{index, c.method, json::ToCompact(*c.id), Clock::now(), {}});
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
    transcript_[index].notes.push_back("sent by the host after a successful handshake");
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
  if (c.kind != MessageKind::kRequest ||
      (k != json::IdKind::kInteger && k != json::IdKind::kString))
    return;
  if (!AcceptedAsRequest(doc)) return;
  requests_.emplace(json::IdKey(*c.id),
                    PendingRequest{index, c.method, json::ToCompact(*c.id), Clock::now(), {}});
  transcript_[index].method = c.method;
  transcript_[index].id = json::ToCompact(*c.id);
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
      transcript_[frame].notes.push_back("not delivered: the plugin stopped reading stdin");
      findings_.push_back({Severity::kMust, "stdin-blocked",
                           "the plugin stopped reading stdin: frame #" + std::to_string(frame) +
                               " was not taken within " +
                               std::to_string(options_.write_cap.count()) +
                               " ms (§4: never deadlock)",
                           frame});
    } else if (out == process::WriteOutcome::kClosed) {
      transcript_[frame].notes.push_back("not delivered: the plugin's stdin is closed");
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
  bool echoes_invalid = !transcript_[request.frame].violations.empty();
  std::size_t index = Send(std::move(reply), echoes_invalid, request.method);
  transcript_[index].method = request.method;
  transcript_[index].notes.push_back("answers #" + std::to_string(request.frame));
  for (auto& in : inbox_)
    if (in.frame == request.frame) in.answered_by_host = true;
}

void Session::CloseStdin() {
  if (child_) child_->CloseStdin();
}

bool Session::SignalGroup(int signal) { return child_ && child_->SignalGroup(signal); }

void Session::OnStdout(std::string_view bytes) {
  decoder_->Feed(bytes, &events_);
  OnEvents();
}

void Session::OnStdoutEof() {
  decoder_->Finish(&events_);
  OnEvents();
  stdout_eof_ = true;
  ++generation_;
}

void Session::OnEvents() {
  for (auto& ev : events_) {
    if (auto* f = std::get_if<wire::Frame>(&ev))
      OnFrame(*f);
    else if (auto* o = std::get_if<wire::Oversized>(&ev))
      OnOversized(*o);
    else if (auto* t = std::get_if<wire::TruncatedAtEof>(&ev))
      OnTruncated(*t);
  }
  events_.clear();
}

void Session::OnFrame(wire::Frame& frame) {
  TranscriptEntry entry =
      NewEntry(Direction::kPluginToHost, "", frame.payload, frame.payload.size());
  std::size_t index = transcript_.size();

  auto doc = std::make_shared<rapidjson::Document>();
  json::ParseResult parsed = json::Parse(frame.payload, doc.get());
  if (!parsed.ok) {
    entry.kind = "not-json";
    entry.notes.push_back(parsed.error);
    Record(std::move(entry));
    findings_.push_back({Severity::kMust, "not-json",
                         "frame #" + std::to_string(index) + " is not valid JSON (" + parsed.error +
                             "); every payload must be one JSON-RPC message",
                         index});
    return;
  }
  for (const auto& key : parsed.duplicate_keys)
    findings_.push_back({Severity::kShould, "duplicate-key",
                         "frame #" + std::to_string(index) + " repeats the key " + key +
                             "; receivers may read either value",
                         index});

  protocol::Classified c = profile_.Classify(*doc);
  entry.kind = protocol::MessageKindName(c.kind);
  entry.method = json::Abbreviate(c.method, 200);  // plugin text: keep messages readable
  if (c.id) entry.id = json::Abbreviate(json::ToCompact(*c.id), 200);

  Inbound in;
  in.frame = index;
  in.kind = c.kind;
  in.method = c.method;
  in.doc = doc;
  in.at = Clock::now();

  if (c.kind == MessageKind::kInvalid) {
    findings_.push_back({Severity::kMust, "invalid-envelope",
                         "frame #" + std::to_string(index) +
                             " is neither a request, a notification nor a response: " + c.reason +
                             " (§4)",
                         index});
    Record(std::move(entry));
    inbox_.push_back(std::move(in));
    return;
  }
  if (c.kind == MessageKind::kResponse) OnResponse(in, entry);
  entry.method = in.method;
  CheckOrder(in);
  Validate(entry, *doc, c.kind, in.method, true);
  Record(std::move(entry));
  inbox_.push_back(std::move(in));
  if (c.kind == MessageKind::kRequest) OnPluginRequest(inbox_.back());
  if (after_handshake_pending_) {
    after_handshake_pending_ = false;
    AfterHandshake(*doc);
  }
}

void Session::OnResponse(Inbound& in, TranscriptEntry& entry) {
  const rapidjson::Value* id = json::Find(*in.doc, "id");
  std::string n = std::to_string(in.frame);
  json::IdKind k = json::ClassifyId(id);
  if (k == json::IdKind::kNull) {
    findings_.push_back({Severity::kMust, "null-reply-id",
                         "frame #" + n +
                             " is a response with id null; a response id is never null, and "
                             "nobody answers a frame that could not be read (§3, §5)",
                         in.frame});
    return;
  }
  if (k != json::IdKind::kInteger && k != json::IdKind::kString) {
    findings_.push_back({Severity::kMust, "bad-reply-id",
                         "frame #" + n + " has an id of type " + json::TypeName(*id) +
                             "; ids are integers or strings (§5)",
                         in.frame});
    return;
  }
  std::string key = json::IdKey(*id);
  auto it = requests_.find(key);
  if (it == requests_.end()) {
    // Same digits under the other JSON type: the plugin did not echo the id unchanged.
    std::string other = key[0] == 'i' ? "s:" + key.substr(2) : "i:" + key.substr(2);
    if (auto o = requests_.find(other); o != requests_.end()) {
      in.method = o->second.method;
      findings_.push_back({Severity::kMust, "reply-id-type",
                           "frame #" + n + " answers request #" + std::to_string(o->second.frame) +
                               " (" + o->second.method + ") with id " + json::ToCompact(*id) +
                               " (" + json::TypeName(*id) + ") but the request's id was " +
                               o->second.id_text + ": ids are echoed with the same JSON type (§5)",
                           in.frame});
    } else {
      findings_.push_back({Severity::kMust, "unknown-reply-id",
                           "frame #" + n + " answers id " + json::ToCompact(*id) +
                               ", which the host never sent (§5: responses match requests by id)",
                           in.frame});
    }
    return;
  }
  // Several requests may be in flight under one id (Flash allows a repeated id): each answer
  // takes the oldest one still open.
  auto [first, last] = requests_.equal_range(key);
  for (auto open = first; open != last; ++open)
    if (!open->second.answer_frame) {
      it = open;
      break;
    }
  PendingRequest& req = it->second;
  in.method = req.method;
  if (req.answer_frame) {
    findings_.push_back({Severity::kMust, "duplicate-reply",
                         "frame #" + n + " answers request #" + std::to_string(req.frame) + " (" +
                             req.method + ", id " + req.id_text + ") a second time; frame #" +
                             std::to_string(*req.answer_frame) +
                             " already did (every request gets exactly one answer)",
                         in.frame});
    return;
  }
  req.answer_frame = in.frame;
  auto ms = std::chrono::duration_cast<Ms>(in.at - req.sent).count();
  entry.notes.push_back("answers #" + std::to_string(req.frame) + " after " + std::to_string(ms) +
                        " ms");
  if (key == handshake_key_ && req.method == profile_.handshake_method() && !handshake_answered_) {
    handshake_answered_ = true;
    after_handshake_pending_ = true;
  }
}

void Session::CheckOrder(const Inbound& in) {
  std::string what = "frame #" + std::to_string(in.frame) + " (" +
                     protocol::MessageKindName(in.kind) +
                     (in.method.empty() ? "" : " " + in.method) + ")";
  bool allowed = (in.kind == MessageKind::kRequest || in.kind == MessageKind::kNotification) &&
                 profile_.AllowedBeforeHandshake(in.method);
  // OnResponse has already marked the handshake answered if this frame is that answer.
  if (!handshake_answered_ && !allowed)
    findings_.push_back({Severity::kMust, "before-handshake",
                         what + " arrived before the handshake answer; until then a plugin "
                                "sends nothing but rim.log (§6)",
                         in.frame});
  if (shutdown_sent_)
    findings_.push_back({Severity::kShould, "after-shutdown",
                         what + " arrived after " + profile_.shutdown_notification() +
                             "; nothing may be sent after it (§15)",
                         in.frame});
}

void Session::OnPluginRequest(Inbound& in) {
  protocol::HostResponder::Answer answer =
      host_.Decide(in.method, json::Find(*in.doc, "params"), in.at);
  transcript_[in.frame].notes.push_back("fake host: " + answer.why);
  if (answer.hold) return;
  Reply(in, answer.body);
}

void Session::Validate(TranscriptEntry& entry, const rapidjson::Value& frame, MessageKind kind,
                       const std::string& method, bool from_plugin) {
  if (!schema_ || kind == MessageKind::kInvalid) return;
  entry.schema_def = schema::RouteDef(*schema_, protocol::MessageKindName(kind), method);
  std::vector<schema::Violation> violations = schema_->Validate(entry.schema_def, frame);
  if (violations.empty()) return;
  std::string list;
  for (const auto& v : violations) {
    entry.violations.push_back({v.pointer, v.message});
    if (list.size() < 600)
      list += (list.empty() ? "" : "; ") +
              (v.pointer.empty() ? std::string("(frame)") : v.pointer) + ": " + v.message;
  }
  std::size_t n = transcript_.size();
  if (from_plugin)
    findings_.push_back({Severity::kMust, "schema",
                         "frame #" + std::to_string(n) + " does not match the schema entry " +
                             entry.schema_def + ": " + list,
                         n});
  else
    findings_.push_back({Severity::kError, "host-frame-invalid",
                         "the scenario sent frame #" + std::to_string(n) +
                             " that does not match the schema entry " + entry.schema_def + ": " +
                             list + " (mark the step `invalid: true` if that is deliberate)",
                         n});
}

void Session::OnOversized(const wire::Oversized& o) {
  TranscriptEntry entry = NewEntry(Direction::kPluginToHost, "oversized", o.header, o.announced);
  bool prefixed = profile_.framing() == wire::Framing::kLengthPrefixed;
  std::string n = std::to_string(transcript_.size());
  std::string message;
  if (prefixed) {
    connection_lost_ = true;
    message = "frame #" + n + " announces " + std::to_string(o.announced) +
              " bytes, over the limit of " + std::to_string(profile_.max_payload()) +
              " (§3); the connection is over" + DiagnoseHeader(o.header, profile_.max_payload());
  } else {
    message = "line #" + n + " is " + std::to_string(o.announced) + " bytes, over the limit of " +
              std::to_string(profile_.max_payload()) + "; it was dropped";
  }
  entry.notes.push_back(message);
  std::size_t index = Record(std::move(entry));
  findings_.push_back({Severity::kMust, "framing", message, index});
}

void Session::OnTruncated(const wire::TruncatedAtEof& t) {
  TranscriptEntry entry = NewEntry(Direction::kPluginToHost, "truncated", t.bytes, t.received);
  std::string n = std::to_string(transcript_.size());
  std::string message =
      profile_.framing() == wire::Framing::kLengthPrefixed
          ? "stdout ended inside frame #" + n + ": " + std::to_string(t.received) + " of " +
                (t.expected ? std::to_string(t.expected) : std::string("at least 4")) +
                " bytes arrived (§3)"
          : "stdout ended inside line #" + n + ": " + std::to_string(t.received) +
                " bytes without a terminating newline";
  entry.notes.push_back(message);
  std::size_t index = Record(std::move(entry));
  findings_.push_back({Severity::kMust, "framing", message, index});
}

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
  // Shared state: if the sequence overran its own budget, the callback may still fire later.
  auto state = std::make_shared<std::pair<bool, process::StopResult>>();
  child_->Stop(std::move(plan), [state](const process::StopResult& r) {
    state->second = r;
    state->first = true;
  });
  RunUntil([&] { return state->first; }, Clock::now() + total + Ms(5000));
  return state->first ? state->second : result;
}

const PendingRequest* Session::RequestByFrame(std::size_t frame) const {
  for (const auto& [key, req] : requests_)
    if (req.frame == frame) return &req;
  return nullptr;
}

std::string Session::StderrTail(std::size_t max_bytes) const {
  if (!child_) return {};
  const std::string& text = child_->stderr_text();
  if (text.size() <= max_bytes) return text;
  return text.substr(text.size() - max_bytes);
}

std::uint64_t Session::stderr_dropped() const { return child_ ? child_->stderr_dropped() : 0; }

}  // namespace fakehost::session
