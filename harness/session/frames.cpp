// The per-frame pipeline (frames.hpp): parse, classify, correlate, validate, record, rules,
// answer, deliver.
#include "harness/session/frames.hpp"

#include "harness/json/json.hpp"
#include "harness/session/rules.hpp"
#include "harness/session/sender.hpp"

namespace fakehost::session {
namespace {

using protocol::MessageKind;

}  // namespace

struct FramePipeline::PluginFrame {
  result::TranscriptEntry entry;
  std::shared_ptr<rapidjson::Document> doc;
  json::ParseResult parsed;
  protocol::Classified classified;
  Correlator::Reply reply;
  bool is_reply = false;
  bool answers_handshake = false;  // the first answer to the handshake request
  Inbound in;
};

void FramePipeline::OnEvent(Event& event) {
  // StdoutClosed, Exited and Drained say nothing of a frame: the transport keeps what they say of
  // the connection (Connection::gone).
  if (auto* frame = std::get_if<wire::Frame>(&event))
    OnFrame(*frame);
  else if (auto* oversized = std::get_if<wire::Oversized>(&event))
    OnOversized(*oversized);
  else if (auto* bad = std::get_if<wire::BadHeader>(&event))
    OnBadHeader(*bad);
  else if (auto* cut = std::get_if<wire::TruncatedAtEof>(&event))
    OnTruncated(*cut);
}

// Everything that words the frame's entry runs before Record; everything that needs the
// frame's number (settling its reply, the rules, the schema finding) runs on the number Record
// returns.
void FramePipeline::OnFrame(wire::Frame& frame) {
  PluginFrame f = Parse(frame);
  if (f.parsed.ok && f.doc->IsArray() && !f.doc->Empty() && c_.Batches()) {
    // A batch under a revision that has them: each element is a message of its own, recorded
    // and judged as if it had come on its own line (the entries say which batch they were in).
    const rapidjson::SizeType n = f.doc->Size();
    const std::size_t line = c_.transcript.next_frame();
    for (rapidjson::SizeType i = 0; i < n; ++i) {
      PluginFrame element;
      // Not the bytes received (the batch's line is not kept whole): the element written
      // again, its numbers as they arrived; the note says so.
      const std::string text = json::ToCompact((*f.doc)[i], f.parsed.lexemes);
      element.doc = json::NewDocument(text.size());
      element.doc->CopyFrom((*f.doc)[i], element.doc->GetAllocator());
      element.entry = c_.NewEntry(result::Direction::kPluginToHost, result::EntryKind::kNotJson,
                                  text, text.size());
      element.entry.notes.push_back("element " + std::to_string(i + 1) + " of " +
                                    std::to_string(n) + " of a JSON-RPC batch that starts at #" +
                                    std::to_string(line) +
                                    ", written again from it (spacing and escapes may differ)");
      element.parsed = f.parsed;
      element.in.doc = element.doc;
      element.in.at = f.in.at;
      element.in.bytes = text.size();
      Process(element);
    }
    return;
  }
  Process(f);
}

// "Progress notifications MUST only reference tokens that: Were provided in an active request",
// "MUST stop after completion", "The progress value MUST increase with each notification".
FrameFacts::Progress FramePipeline::JudgeProgress(const rapidjson::Value& doc, std::size_t number) {
  using Kind = FrameFacts::Progress::Kind;
  const protocol::Profile::Progress& p = *c_.profile.progress();
  FrameFacts::Progress out;
  const rapidjson::Value* token = json::Resolve(doc, p.token);
  if (!token) return out;  // the schema says what is missing
  out.token = json::Abbreviate(json::ToCompact(*token));
  auto it = c_.progress_tokens.find(json::IdKey(*token));
  if (it == c_.progress_tokens.end()) {
    out.kind = Kind::kUnknownToken;
    return out;
  }
  ProgressToken& known = it->second;
  if (const PendingRequest* req = c_.correlator.ByFrame(known.request);
      req && req->answer_frame && *req->answer_frame < number) {
    out.kind = Kind::kAfterCompletion;
    out.request = known.request;
    out.answer = *req->answer_frame;
    return out;
  }
  const rapidjson::Value* value = json::Resolve(doc, p.value);
  if (!value || !value->IsNumber()) return out;
  const double v = value->GetDouble();
  out.value = json::Abbreviate(json::ToCompact(*value));
  if (known.last && v <= *known.last) {
    out.kind = Kind::kNotIncreasing;
    out.last = known.last_text;
    out.first = known.last_frame;
    return out;  // the last value stays the highest seen
  }
  known.last = v;
  known.last_text = out.value;
  known.last_frame = number;
  return out;
}

void FramePipeline::Process(PluginFrame& f) {
  c_.plugin_spoke = true;
  std::optional<SchemaVerdict> verdict;
  if (f.parsed.ok) {
    f.classified = c_.profile.Classify(*f.doc);
    Correlate(f);
    if (!f.in.echoes_noise) verdict = c_.Validate(f.entry, *f.doc, f.in.kind, f.in.method);
    f.in.valid = !verdict;
  }
  const std::size_t number = c_.Record(std::move(f.entry));
  f.in.frame = number;
  if (f.is_reply) c_.correlator.Settle(f.reply, number, f.in.at);
  Judge(f, number, verdict);
  if (!f.parsed.ok) return;
  if (f.classified.kind == MessageKind::kRequest) f.in.answered_by_host = Answer(f.in);
  Deliver(std::move(f.in));
  if (f.answers_handshake) {
    c_.handshake_answer = f.doc;
    if (!c_.hold_after_handshake) sender_.AfterHandshake(*f.doc);
  }
}

void FramePipeline::Judge(PluginFrame& f, std::size_t number,
                          const std::optional<SchemaVerdict>& verdict) {
  std::size_t reuses_id_of = 0;
  if (f.parsed.ok && f.classified.kind == MessageKind::kRequest && f.classified.id &&
      c_.profile.plugin_ids_unique()) {
    // The first use of an id keeps its frame: every later one is the reuse.
    auto [it, first] = plugin_request_ids_.emplace(json::IdKey(*f.classified.id), number);
    if (!first) reuses_id_of = it->second;
  }
  FrameFacts::Progress progress;
  if (f.parsed.ok && f.classified.kind == MessageKind::kNotification && c_.profile.progress() &&
      f.in.method == c_.profile.progress()->notification)
    progress = JudgeProgress(*f.doc, number);
  FrameFacts facts{.frame = number,
                   .parsed = &f.parsed,
                   .classified = f.parsed.ok ? &f.classified : nullptr,
                   .method = f.in.method,
                   .reply = f.is_reply ? &f.reply : nullptr,
                   .handshake_answered = c_.handshake_answered,
                   .shutdown_sent = c_.shutdown_sent,
                   .revision = c_.revision,
                   .reuses_id_of = reuses_id_of,
                   .announced = c_.Announced(),
                   .progress = std::move(progress)};
  for (result::Finding& finding : RunFrameRules(c_.profile, facts)) c_.Raise(std::move(finding));
  if (verdict)
    c_.Raise(SchemaFinding(c_.profile, *verdict, /*from_plugin=*/true, number, c_.revision));
}

FramePipeline::PluginFrame FramePipeline::Parse(wire::Frame& frame) {
  PluginFrame f;
  f.entry = c_.NewEntry(result::Direction::kPluginToHost, result::EntryKind::kNotJson,
                        frame.payload, frame.payload.size());
  f.doc = json::NewDocument(frame.payload.size());
  f.parsed = json::Parse(frame.payload, f.doc.get());
  f.in.doc = f.doc;
  f.in.at = Clock::now();
  f.in.bytes = frame.payload.size();
  frame.payload = std::string();  // the document holds what is needed now
  if (!f.parsed.ok) f.entry.notes.push_back(Quote(f.parsed.error));
  return f;
}

void FramePipeline::Correlate(PluginFrame& f) {
  const protocol::Classified& c = f.classified;
  f.entry.kind = EntryKindOf(c.kind);
  if (c.id) f.entry.id = Quote(json::ToCompact(*c.id, f.parsed.lexemes));  // as it was written
  f.in.kind = c.kind;
  f.in.method = c.method;
  if (c.kind == MessageKind::kResponse) {
    f.is_reply = true;
    // An error without a usable id may answer a frame the host wrote unreadable (a profile
    // with error_without_id classifies it a response); every other response has an id.
    const bool idless_error = c_.profile.error_without_id() && (!c.id || c.id->IsNull()) &&
                              json::Find(*f.doc, "error") != nullptr;
    f.reply =
        idless_error ? c_.correlator.ClassifyIdlessError(c.id) : c_.correlator.Classify(*c.id);
    if (f.reply.request) f.in.method = f.reply.request->method;
  }
  if (f.is_reply) NoteNoise(f);
  f.entry.method = Quote(f.in.method);  // plugin text: keep messages readable
  if (!f.is_reply || f.reply.what != Correlator::Case::kAnswers) return;
  const PendingRequest& req = *f.reply.request;
  f.in.answers_request = true;
  auto ms = std::chrono::duration_cast<Ms>(f.in.at - req.sent).count();
  f.entry.notes.push_back("answers #" + std::to_string(req.frame) + " after " + std::to_string(ms) +
                          " ms");
  if (f.reply.key == c_.handshake_key && req.method == c_.profile.handshake_method() &&
      !c_.handshake_answered) {
    c_.handshake_answered = true;
    f.answers_handshake = true;
  }
}

void FramePipeline::NoteNoise(PluginFrame& f) {
  if (f.reply.what == Correlator::Case::kAnswersUnreadable) {
    f.in.answers_unreadable = true;
    f.entry.notes.push_back("answers #" + std::to_string(f.reply.noise_frame) +
                            ", a frame the host wrote with no id to read");
  }
  if (f.reply.what == Correlator::Case::kEchoesNoise) {
    // The Flash Rust SDK's older generation echoed such ids; its current one drops them.
    // Either is conforming: the scenario's requirement is that the plugin goes on serving.
    f.in.echoes_noise = true;
    if (const result::TranscriptEntry* noise = c_.transcript.Entry(f.reply.noise_frame))
      f.in.method = noise->method;
    f.entry.notes.push_back("echoes the id of #" + std::to_string(f.reply.noise_frame) +
                            ", a request the host sent deliberately invalid: allowed, not judged");
  }
  if (f.reply.what == Correlator::Case::kAnswersNoiseAsInteger) {
    // Some SDKs read every number as a double and answer id 3.0 as 3. Not validated as the
    // invalid request's answer: there is no valid request it answers.
    f.in.echoes_noise = true;
    if (const result::TranscriptEntry* noise = c_.transcript.Entry(f.reply.noise_frame))
      f.in.method = noise->method;
    f.entry.notes.push_back("answers #" + std::to_string(f.reply.noise_frame) +
                            ", a request the host sent deliberately invalid with id " +
                            f.reply.noise_id + ", under another id");
  }
}

bool FramePipeline::Answer(const Inbound& request) {
  // An id that is neither an integer nor a string (1e400, true) cannot be echoed faithfully and
  // no protocol here accepts it: the schema check has already said so, and the host stays
  // silent rather than answer under an id the plugin never wrote.
  json::IdKind k = json::ClassifyId(json::Find(*request.doc, "id"));
  if (k != json::IdKind::kInteger && k != json::IdKind::kString) {
    c_.Note(request.frame, "fake host: not answered: its id is neither an integer nor a string");
    return false;
  }
  protocol::HostResponder::Answer answer =
      c_.host.Decide(request.method, json::Find(*request.doc, "params"), request.at);
  c_.Note(request.frame, "fake host: " + answer.why);
  if (answer.hold) return false;
  sender_.Reply(request, answer.body);
  return true;
}

void FramePipeline::Deliver(Inbound message) {
  for (std::size_t frame : inbox_.Keep(std::move(message)))
    c_.Note(frame, "released untaken: no step took it while the inbox held " +
                       std::to_string(c_.options.inbox_documents_cap) + " frames or " +
                       std::to_string(c_.options.inbox_bytes_cap) + " bytes");
}

void FramePipeline::OnOversized(const wire::Oversized& o) {
  result::TranscriptEntry entry = c_.NewEntry(result::Direction::kPluginToHost,
                                              result::EntryKind::kOversized, o.header, o.announced);
  result::Finding finding =
      OversizedFinding(c_.profile, o, c_.transcript.next_frame(), c_.revision);
  finding.reason = Undecodable();
  entry.notes.push_back(finding.message);
  c_.Record(std::move(entry));
  c_.Raise(std::move(finding));
}

void FramePipeline::OnBadHeader(const wire::BadHeader& b) {
  result::TranscriptEntry entry = c_.NewEntry(
      result::Direction::kPluginToHost, result::EntryKind::kBadHeader, b.header, b.header.size());
  result::Finding finding =
      BadHeaderFinding(c_.profile, b, c_.transcript.next_frame(), c_.revision);
  finding.reason = Undecodable();
  entry.notes.push_back(finding.message);
  c_.Record(std::move(entry));
  c_.Raise(std::move(finding));
}

result::Reason FramePipeline::Undecodable() const {
  switch (c_.profile.framing().resync()) {
    case wire::Resync::kStreamLost:  // length-prefixed: nothing after it can be read
      return result::Reason::kFramingLost;
    case wire::Resync::kNextDelimiter:  // NDJSON: the next line is read as usual
      break;
  }
  return result::Reason::kNotAMessage;
}

void FramePipeline::OnTruncated(const wire::TruncatedAtEof& t) {
  result::TranscriptEntry entry = c_.NewEntry(result::Direction::kPluginToHost,
                                              result::EntryKind::kTruncated, t.bytes, t.received);
  std::size_t index = c_.Record(std::move(entry));
  wire::TruncatedAtEof cut{t.offset, t.expected, t.received, {}};
  if (graded_stop_running_)
    pending_cut_.emplace(index, cut);  // judged when the stop sequence has ended
  else
    JudgeTruncation(index, cut, hosts_cut_);
}

void FramePipeline::StopBegins(bool graded) {
  // A frame the plugin was writing when the host's own stop ended it is cut by the host: an
  // ungraded teardown never holds it against the plugin; a graded stop does only if the plugin
  // ended on its own rather than by the sequence's signal (judged once the sequence is over).
  if (graded)
    graded_stop_running_ = true;
  else
    hosts_cut_ = true;
}

void FramePipeline::StopEnded(bool by_its_signal) {
  graded_stop_running_ = false;
  hosts_cut_ = hosts_cut_ || by_its_signal;  // its output may still be drained later
  if (!pending_cut_) return;
  JudgeTruncation(pending_cut_->first, pending_cut_->second, hosts_cut_);
  pending_cut_.reset();
}

void FramePipeline::JudgeTruncation(std::size_t frame, const wire::TruncatedAtEof& t,
                                    bool hosts_cut) {
  std::string message = TruncatedMessage(c_.profile, t, frame, hosts_cut, c_.revision);
  c_.Note(frame, message);
  if (!hosts_cut)
    c_.Raise({result::Severity::kMust, "framing", message, frame, result::Reason::kCutShort});
}

}  // namespace fakehost::session
