// What the session does with the plugin's output: decode, classify, check, record, keep.
//
// Every always-on check runs on every frame; the words of each come from the profile (its
// "checks" table), so a Flash run never quotes RIM. What is kept of a frame is bounded (see
// Session::Options): plugin text in messages is abbreviated with its full size stated, the
// transcript keeps text up to a budget and then summaries, the inbox releases documents no step
// can still want, and findings past a number per check are counted rather than listed.
#include <algorithm>

#include "harness/json/json.hpp"
#include "harness/schema/schema.hpp"
#include "harness/session/session.hpp"

namespace fakehost::session {
namespace {

using protocol::MessageKind;

// Plugin text quoted in a message (ids, method names, keys): enough to recognise it.
constexpr std::size_t kQuote = 200;
// A summary entry's method and id.
constexpr std::size_t kSummaryQuote = 64;
// Violations kept per entry, and the length of each message.
constexpr std::size_t kViolationsKept = 8;
constexpr std::size_t kViolationText = 300;
// Notes kept per entry.
constexpr std::size_t kNotesKept = 8;

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

std::string Quote(std::string_view text) { return json::Abbreviate(text, kQuote); }
std::string IdText(const rapidjson::Value& id) { return Quote(json::ToCompact(id)); }

std::size_t TextBytes(const TranscriptEntry& e) {
  std::size_t n = e.text.size() + e.method.size() + e.id.size();
  for (const auto& v : e.violations) n += v.pointer.size() + v.message.size();
  for (const auto& note : e.notes) n += note.size();
  return n;
}

}  // namespace

const TranscriptEntry* Session::Entry(std::size_t frame) const {
  // Entries are never dropped, only not made: entry i is frame number i, but for the tally.
  return frame < transcript_.size() && transcript_[frame].kind != "tally" ? &transcript_[frame]
                                                                          : nullptr;
}

TranscriptEntry* Session::Mutable(std::size_t frame) {
  return const_cast<TranscriptEntry*>(Entry(frame));
}

std::size_t Session::Record(TranscriptEntry entry) {
  std::size_t index = frame_count_++;
  ++generation_;
  std::size_t cap = std::max<std::size_t>(options_.transcript_entries_cap, 1);
  std::size_t bytes = TextBytes(entry);
  bool summary = retained_text_ + bytes > options_.transcript_bytes_cap;
  if (summary) Summarise(&entry);
  if (summary) bytes = TextBytes(entry);
  // Summaries may use a second budget as large as the first; past it, or past the entry cap,
  // the transcript ends in a tally.
  bool tally_started = !transcript_.empty() && transcript_.back().kind == "tally";
  if (tally_started || transcript_.size() + 1 >= cap ||
      retained_text_ + bytes > 2 * options_.transcript_bytes_cap) {
    // The last entry tallies every frame from here on; their checks still ran.
    tallied_bytes_ += entry.size;
    if (!tally_started) {
      TranscriptEntry tally;
      tally.index = index;
      tally.direction = entry.direction;
      tally.t_ms = entry.t_ms;
      tally.kind = "tally";
      tally.summarised = true;
      transcript_.push_back(std::move(tally));
    }
    TranscriptEntry& tally = transcript_.back();
    std::uint64_t frames = frame_count_ - tally.index;
    tally.size = tallied_bytes_;
    tally.notes = {std::to_string(frames) + (frames == 1 ? " frame" : " frames") + " from #" +
                   std::to_string(tally.index) + " on, " + std::to_string(tallied_bytes_) +
                   " bytes, have no entry: a transcript keeps at most " + std::to_string(cap) +
                   " entries and " + std::to_string(2 * options_.transcript_bytes_cap) +
                   " bytes of text (their checks still ran)"};
    return index;
  }
  entry.index = index;
  retained_text_ += bytes;
  transcript_.push_back(std::move(entry));
  return index;
}

void Session::Summarise(TranscriptEntry* entry) {
  // Direction, kind, size and verdict, without the payload.
  entry->text.clear();
  entry->clipped = entry->size > 0;
  entry->summarised = true;
  entry->method = json::Abbreviate(entry->method, kSummaryQuote);
  entry->id = json::Abbreviate(entry->id, kSummaryQuote);
  if (entry->violations.size() > 1) entry->violations.resize(1);
  for (auto& v : entry->violations) {
    v.pointer = json::Abbreviate(v.pointer, kSummaryQuote);
    v.message = json::Abbreviate(v.message, kQuote);
  }
  if (entry->notes.size() > 2) entry->notes.resize(2);
  for (auto& note : entry->notes) note = json::Abbreviate(note, kQuote);
}

void Session::Note(std::size_t frame, std::string note) {
  TranscriptEntry* entry = Mutable(frame);
  if (!entry) return;
  TranscriptEntry& e = *entry;
  if (e.notes.size() >= (e.summarised ? 2 : kNotesKept)) return;
  if (e.summarised || retained_text_ + note.size() > options_.transcript_bytes_cap)
    note = json::Abbreviate(note, kQuote);
  retained_text_ += note.size();
  e.notes.push_back(std::move(note));
}

void Session::Raise(Finding f) {
  auto& [count, tally] = finding_counts_[f.check];
  ++count;
  if (count <= options_.findings_per_check) {
    findings_.push_back(std::move(f));
    return;
  }
  std::size_t more = count - options_.findings_per_check;
  std::string message = std::to_string(more) + " more " + f.check +
                        (more == 1 ? " finding" : " findings") + " after the first " +
                        std::to_string(options_.findings_per_check) +
                        " are not listed (the last on frame #" +
                        (f.frame ? std::to_string(*f.frame) : std::string("?")) + ")";
  if (more == 1) {
    tally = findings_.size();
    f.message = std::move(message);
    f.frame.reset();
    findings_.push_back(std::move(f));
  } else {
    findings_[tally].message = std::move(message);
  }
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
  std::size_t index = next_frame();
  std::string n = std::to_string(index);

  auto doc = std::make_shared<rapidjson::Document>();
  json::ParseResult parsed = json::Parse(frame.payload, doc.get());
  if (!parsed.ok) {
    std::string error = Quote(parsed.error);
    entry.kind = "not-json";
    entry.notes.push_back(error);
    Record(std::move(entry));
    Raise({Severity::kMust, "not-json",
           profile_.CheckMessage("not-json", {{"frame", n}, {"error", error}}), index});
    return;
  }
  for (const auto& key : parsed.duplicate_keys)
    Raise({Severity::kShould, "duplicate-key",
           profile_.CheckMessage("duplicate-key", {{"frame", n}, {"key", Quote(key)}}), index});

  protocol::Classified c = profile_.Classify(*doc);
  entry.kind = protocol::MessageKindName(c.kind);
  entry.method = Quote(c.method);  // plugin text: keep messages readable
  if (c.id) entry.id = Quote(json::ToCompact(*c.id, parsed.lexemes));  // as it was written

  Inbound in;
  in.frame = index;
  in.kind = c.kind;
  in.method = c.method;
  in.doc = doc;
  in.at = Clock::now();
  in.bytes = frame.payload.size();
  frame.payload = std::string();  // the document holds what is needed now

  if (c.kind == MessageKind::kInvalid) {
    Raise({Severity::kMust, "invalid-envelope",
           profile_.CheckMessage("invalid-envelope", {{"frame", n}, {"reason", Quote(c.reason)}}),
           index});
    Record(std::move(entry));
    inbox_.push_back(std::move(in));
    ReleaseInbox();
    return;
  }
  if (c.kind == MessageKind::kResponse) OnResponse(in, entry);
  entry.method = Quote(in.method);
  CheckOrder(in);
  if (!in.echoes_noise) Validate(entry, *doc, c.kind, in.method, true);
  in.valid = entry.violations.empty();
  Record(std::move(entry));
  inbox_.push_back(std::move(in));
  ReleaseInbox();
  if (c.kind == MessageKind::kRequest) OnPluginRequest(inbox_.back());
  if (after_handshake_pending_) {
    after_handshake_pending_ = false;
    AfterHandshake(*doc);
  }
}

// One finding per way a reply's id can be wrong, each worded from the profile's checks table
// with the ids and methods it quotes.
void Session::OnResponse(Inbound& in, TranscriptEntry& entry) {
  const rapidjson::Value& id = *json::Find(*in.doc, "id");  // Classify: a response has an id
  std::string n = std::to_string(in.frame);
  Correlator::Reply reply = correlator_.OnReply(id, in.frame);
  const PendingRequest* req = reply.request;
  if (req) in.method = req->method;
  switch (reply.what) {
    case Correlator::Case::kEchoesNoise:
      // The Flash Rust SDK's older generation echoed such ids; its current one drops them.
      // Either is conforming: the scenario's requirement is that the plugin goes on serving.
      in.echoes_noise = true;
      if (const TranscriptEntry* noise = Entry(reply.noise_frame)) in.method = noise->method;
      entry.notes.push_back("echoes the id of #" + std::to_string(reply.noise_frame) +
                            ", a request the host sent deliberately invalid: allowed, not judged");
      return;
    case Correlator::Case::kNullId:
      Raise({Severity::kMust, "null-reply-id",
             profile_.CheckMessage("null-reply-id", {{"frame", n}}), in.frame});
      return;
    case Correlator::Case::kBadIdType:
      Raise({Severity::kMust, "bad-reply-id",
             profile_.CheckMessage("bad-reply-id", {{"frame", n}, {"type", json::TypeName(id)}}),
             in.frame});
      return;
    case Correlator::Case::kIdTypeChanged:
      Raise({Severity::kMust, "reply-id-type",
             profile_.CheckMessage("reply-id-type", {{"frame", n},
                                                     {"request", std::to_string(req->frame)},
                                                     {"method", Quote(req->method)},
                                                     {"id", IdText(id)},
                                                     {"type", json::TypeName(id)},
                                                     {"request_id", req->id_text}}),
             in.frame});
      return;
    case Correlator::Case::kUnknownId:
      Raise({Severity::kMust, "unknown-reply-id",
             profile_.CheckMessage("unknown-reply-id", {{"frame", n}, {"id", IdText(id)}}),
             in.frame});
      return;
    case Correlator::Case::kAnsweredTwice:
      Raise({Severity::kMust, "duplicate-reply",
             profile_.CheckMessage("duplicate-reply",
                                   {{"frame", n},
                                    {"request", std::to_string(req->frame)},
                                    {"method", Quote(req->method)},
                                    {"request_id", req->id_text},
                                    {"first", std::to_string(*req->answer_frame)}}),
             in.frame});
      return;
    case Correlator::Case::kAnswers:
      break;
  }
  in.answers_request = true;
  auto ms = std::chrono::duration_cast<Ms>(in.at - req->sent).count();
  entry.notes.push_back("answers #" + std::to_string(req->frame) + " after " + std::to_string(ms) +
                        " ms");
  if (reply.key == handshake_key_ && req->method == profile_.handshake_method() &&
      !handshake_answered_) {
    handshake_answered_ = true;
    after_handshake_pending_ = true;
  }
}

void Session::CheckOrder(const Inbound& in) {
  std::string what = "frame #" + std::to_string(in.frame) + " (" +
                     protocol::MessageKindName(in.kind) +
                     (in.method.empty() ? "" : " " + Quote(in.method)) + ")";
  bool allowed = (in.kind == MessageKind::kRequest || in.kind == MessageKind::kNotification) &&
                 profile_.AllowedBeforeHandshake(in.method);
  // OnResponse has already marked the handshake answered if this frame is that answer.
  if (!handshake_answered_ && !allowed)
    Raise({Severity::kMust, "before-handshake",
           profile_.CheckMessage("before-handshake", {{"what", what}}), in.frame});
  if (shutdown_sent_)
    Raise({Severity::kShould, "after-shutdown",
           profile_.CheckMessage(
               "after-shutdown",
               {{"what", what}, {"notification", profile_.shutdown_notification()}}),
           in.frame});
}

void Session::OnPluginRequest(Inbound& in) {
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

void Session::Validate(TranscriptEntry& entry, const rapidjson::Value& frame, MessageKind kind,
                       const std::string& method, bool from_plugin) {
  if (!schema_ || kind == MessageKind::kInvalid) return;
  entry.schema_def = schema::RouteDef(*schema_, protocol::MessageKindName(kind), method);
  std::vector<schema::Violation> violations = schema_->Validate(entry.schema_def, frame);
  if (violations.empty()) return;
  std::string list;
  for (const auto& v : violations) {
    std::string pointer = Quote(v.pointer);
    std::string message = json::Abbreviate(v.message, kViolationText);
    if (list.size() < 600)
      list += (list.empty() ? "" : "; ") + (pointer.empty() ? std::string("(frame)") : pointer) +
              ": " + message;
    if (entry.violations.size() < kViolationsKept)
      entry.violations.push_back({std::move(pointer), std::move(message)});
  }
  if (violations.size() > kViolationsKept)
    entry.notes.push_back(std::to_string(violations.size() - kViolationsKept) +
                          " more schema violations not listed");
  std::string n = std::to_string(next_frame());
  if (from_plugin)
    Raise({Severity::kMust, "schema",
           profile_.CheckMessage("schema",
                                 {{"frame", n}, {"def", entry.schema_def}, {"violations", list}}),
           next_frame()});
  else
    Raise({Severity::kError, "host-frame-invalid",
           profile_.CheckMessage("host-frame-invalid",
                                 {{"frame", n}, {"def", entry.schema_def}, {"violations", list}}),
           next_frame()});
}

void Session::OnOversized(const wire::Oversized& o) {
  TranscriptEntry entry = NewEntry(Direction::kPluginToHost, "oversized", o.header, o.announced);
  std::string n = std::to_string(next_frame());
  std::string message =
      profile_.CheckMessage("oversized", {{"frame", n},
                                          {"size", std::to_string(o.announced)},
                                          {"max", std::to_string(profile_.max_payload())}});
  if (profile_.framing() == wire::Framing::kLengthPrefixed) {
    connection_lost_ = true;
    // Why a length header may be absurd: the diagnosis a plugin author needs, not the number.
    std::string_view header = o.header;
    if (header.size() == 4) {
      std::uint32_t be = 0;
      for (unsigned char c : header) be = (be << 8) | c;
      if (Printable(header))
        message += profile_.CheckMessage("header-text",
                                         {{"hex", Hex(header)}, {"text", std::string(header)}});
      else if (be <= profile_.max_payload())
        message += profile_.CheckMessage("header-big-endian", {{"size", std::to_string(be)}});
    }
  }
  entry.notes.push_back(message);
  std::size_t index = Record(std::move(entry));
  Raise({Severity::kMust, "framing", message, index});
}

void Session::OnTruncated(const wire::TruncatedAtEof& t) {
  TranscriptEntry entry = NewEntry(Direction::kPluginToHost, "truncated", t.bytes, t.received);
  std::size_t index = Record(std::move(entry));
  wire::TruncatedAtEof cut{t.offset, t.expected, t.received, {}};
  if (graded_stop_running_)
    pending_cut_.emplace(index, cut);  // judged when the stop sequence has ended
  else
    JudgeTruncation(index, cut, hosts_cut_);
}

void Session::JudgeTruncation(std::size_t frame, const wire::TruncatedAtEof& t, bool hosts_cut) {
  std::string expected = t.expected ? std::to_string(t.expected) : std::string("at least 4");
  std::string message = profile_.CheckMessage(hosts_cut ? "truncated-by-teardown" : "truncated",
                                              {{"frame", std::to_string(frame)},
                                               {"received", std::to_string(t.received)},
                                               {"expected", expected}});
  Note(frame, message);
  if (!hosts_cut) Raise({Severity::kMust, "framing", message, frame});
}

}  // namespace fakehost::session
