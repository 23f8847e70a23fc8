// What the session does with the plugin's output: one pipeline per frame.
//
// parse -> classify -> correlate -> rules -> validate -> record -> inbox -> answer. Every rule
// runs on every frame; what is kept of a frame is bounded (see Session::Options): plugin text in
// messages is abbreviated with its full size stated, the transcript keeps text up to a budget
// and then summaries, the inbox releases documents no step can still want, and findings past a
// number per check are counted rather than listed.
#include <algorithm>

#include "harness/json/json.hpp"
#include "harness/session/rules.hpp"
#include "harness/session/session.hpp"

namespace fakehost::session {
namespace {

using protocol::MessageKind;

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace

struct Session::PluginFrame {
  TranscriptEntry entry;
  std::shared_ptr<rapidjson::Document> doc;
  json::ParseResult parsed;
  protocol::Classified classified;
  Correlator::Reply reply;
  bool is_reply = false;
  Inbound in;
};

void Session::OnEvent(Event& event) {
  std::visit(Overloaded{[this](wire::Frame& f) { OnFrame(f); },
                        [this](wire::Oversized& o) { OnOversized(o); },
                        [this](wire::TruncatedAtEof& t) { OnTruncated(t); },
                        [this](StdoutClosed&) { stdout_eof_ = true; },
                        [](Exited&) {},  // gone() waits for Drained; exit_status() says it
                        [this](Drained&) { drained_ = true; }},
             event);
}

void Session::OnFrame(wire::Frame& frame) {
  PluginFrame f = Parse(frame);
  if (f.parsed.ok) {
    f.classified = profile_.Classify(*f.doc);
    Correlate(f);
  }
  FrameFacts facts{.frame = f.in.frame,
                   .parsed = &f.parsed,
                   .classified = f.parsed.ok ? &f.classified : nullptr,
                   .method = f.in.method,
                   .reply = f.is_reply ? &f.reply : nullptr,
                   .handshake_answered = handshake_answered_,
                   .shutdown_sent = shutdown_sent_};
  for (Finding& finding : RunFrameRules(profile_, facts)) Raise(std::move(finding));
  if (!f.parsed.ok) {
    Record(std::move(f.entry));
    return;
  }
  if (!f.in.echoes_noise) Validate(f.entry, *f.doc, f.in.kind, f.in.method, true);
  f.in.valid = f.entry.violations.empty();
  Record(std::move(f.entry));
  Keep(std::move(f.in));
  if (f.classified.kind == MessageKind::kRequest) Answer(inbox_.back());
  if (after_handshake_pending_) {
    after_handshake_pending_ = false;
    AfterHandshake(*f.doc);
  }
}

Session::PluginFrame Session::Parse(wire::Frame& frame) {
  PluginFrame f;
  f.entry =
      NewEntry(Direction::kPluginToHost, EntryKind::kNotJson, frame.payload, frame.payload.size());
  f.doc = std::make_shared<rapidjson::Document>();
  f.parsed = json::Parse(frame.payload, f.doc.get());
  f.in.frame = transcript_.next_frame();
  f.in.doc = f.doc;
  f.in.at = Clock::now();
  f.in.bytes = frame.payload.size();
  frame.payload = std::string();  // the document holds what is needed now
  if (!f.parsed.ok) f.entry.notes.push_back(Quote(f.parsed.error));
  return f;
}

void Session::Correlate(PluginFrame& f) {
  const protocol::Classified& c = f.classified;
  f.entry.kind = EntryKindOf(c.kind);
  if (c.id) f.entry.id = Quote(json::ToCompact(*c.id, f.parsed.lexemes));  // as it was written
  f.in.kind = c.kind;
  f.in.method = c.method;
  if (c.kind == MessageKind::kResponse) {
    f.is_reply = true;
    f.reply = correlator_.OnReply(*c.id, f.in.frame, f.in.at);  // Classify: a response has an id
    if (f.reply.request) f.in.method = f.reply.request->method;
  }
  if (f.is_reply && f.reply.what == Correlator::Case::kEchoesNoise) {
    // The Flash Rust SDK's older generation echoed such ids; its current one drops them.
    // Either is conforming: the scenario's requirement is that the plugin goes on serving.
    f.in.echoes_noise = true;
    if (const TranscriptEntry* noise = Entry(f.reply.noise_frame)) f.in.method = noise->method;
    f.entry.notes.push_back("echoes the id of #" + std::to_string(f.reply.noise_frame) +
                            ", a request the host sent deliberately invalid: allowed, not judged");
  }
  if (f.is_reply && f.reply.what == Correlator::Case::kAnswersNoiseAsInteger) {
    // Some SDKs read every number as a double and answer id 3.0 as 3. Not validated as the
    // invalid request's answer: there is no valid request it answers.
    f.in.echoes_noise = true;
    if (const TranscriptEntry* noise = Entry(f.reply.noise_frame)) f.in.method = noise->method;
    f.entry.notes.push_back("answers #" + std::to_string(f.reply.noise_frame) +
                            ", a request the host sent deliberately invalid with id " +
                            f.reply.noise_id + ", under another id");
  }
  f.entry.method = Quote(f.in.method);  // plugin text: keep messages readable
  if (!f.is_reply || f.reply.what != Correlator::Case::kAnswers) return;
  const PendingRequest& req = *f.reply.request;
  f.in.answers_request = true;
  auto ms = std::chrono::duration_cast<Ms>(f.in.at - req.sent).count();
  f.entry.notes.push_back("answers #" + std::to_string(req.frame) + " after " + std::to_string(ms) +
                          " ms");
  if (f.reply.key == handshake_key_ && req.method == profile_.handshake_method() &&
      !handshake_answered_) {
    handshake_answered_ = true;
    after_handshake_pending_ = true;
  }
}

void Session::Keep(Inbound in) {
  inbox_.push_back(std::move(in));
  ReleaseInbox();
}

void Session::Answer(Inbound& in) {
  // An id that is neither an integer nor a string (1e400, true) cannot be echoed faithfully and
  // no protocol here accepts it: the schema check has already said so, and the host stays
  // silent rather than answer under an id the plugin never wrote.
  json::IdKind k = json::ClassifyId(json::Find(*in.doc, "id"));
  if (k != json::IdKind::kInteger && k != json::IdKind::kString) {
    Note(in.frame, "fake host: not answered: its id is neither an integer nor a string");
    return;
  }
  protocol::HostResponder::Answer answer =
      host_.Decide(in.method, json::Find(*in.doc, "params"), in.at);
  Note(in.frame, "fake host: " + answer.why);
  if (answer.hold) return;
  Reply(in, answer.body);
}

void Session::ReleaseInbox() {
  // Taken frames are done with (a capture keeps its own reference to the document).
  std::erase_if(inbox_, [](const Inbound& in) { return in.consumed; });
  std::size_t count = 0, bytes = 0;
  for (const auto& in : inbox_) {
    ++count;
    bytes += in.bytes;
  }
  if (count <= options_.inbox_documents_cap && bytes <= options_.inbox_bytes_cap) return;
  // The oldest go first; the newest frame stays (a step waiting now wants it most), and so does
  // a first answer to a host request (at most one per request the scenario sent).
  for (std::size_t i = 0; i + 1 < inbox_.size(); ++i) {
    if (count <= options_.inbox_documents_cap && bytes <= options_.inbox_bytes_cap) break;
    Inbound& in = inbox_[i];
    if (in.answers_request) continue;
    in.consumed = true;
    --count;
    bytes -= in.bytes;
    ++inbox_released_;
    Note(in.frame, "released unread: no step took it while the inbox held " +
                       std::to_string(options_.inbox_documents_cap) + " frames or " +
                       std::to_string(options_.inbox_bytes_cap) + " bytes");
  }
  std::erase_if(inbox_, [](const Inbound& in) { return in.consumed; });
}

void Session::OnOversized(const wire::Oversized& o) {
  TranscriptEntry entry =
      NewEntry(Direction::kPluginToHost, EntryKind::kOversized, o.header, o.announced);
  Finding finding = OversizedFinding(profile_, o, transcript_.next_frame());
  // Length-prefixed framing cannot resynchronise; NDJSON resumes at the next newline.
  if (profile_.framing() == wire::Framing::kLengthPrefixed) connection_lost_ = true;
  finding.reason = connection_lost_ ? Reason::kFramingLost : Reason::kNotAMessage;
  entry.notes.push_back(finding.message);
  Record(std::move(entry));
  Raise(std::move(finding));
}

void Session::OnTruncated(const wire::TruncatedAtEof& t) {
  TranscriptEntry entry =
      NewEntry(Direction::kPluginToHost, EntryKind::kTruncated, t.bytes, t.received);
  std::size_t index = Record(std::move(entry));
  wire::TruncatedAtEof cut{t.offset, t.expected, t.received, {}};
  if (graded_stop_running_)
    pending_cut_.emplace(index, cut);  // judged when the stop sequence has ended
  else
    JudgeTruncation(index, cut, hosts_cut_);
}

void Session::JudgeTruncation(std::size_t frame, const wire::TruncatedAtEof& t, bool hosts_cut) {
  std::string message = TruncatedMessage(profile_, t, frame, hosts_cut);
  Note(frame, message);
  if (!hosts_cut) Raise({Severity::kMust, "framing", message, frame, Reason::kCutShort});
}

}  // namespace fakehost::session
