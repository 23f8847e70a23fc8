// What the host sends: frames built from the profile, validated, recorded, registered with the
// correlator, encoded and written; raw bytes as they are; the fake host's replies.
#include "harness/json/compact_pieces.hpp"
#include "harness/json/json.hpp"
#include "harness/schema/schema.hpp"
#include "harness/session/interrupt.hpp"
#include "harness/session/session.hpp"
#include "harness/wire/framing.hpp"

#include "harness/protocol/host_frame.hpp"

namespace fakehost::session {
namespace {

using protocol::MessageKind;

bool EchoableId(json::IdKind k) {
  return k == json::IdKind::kInteger || k == json::IdKind::kString;
}

}  // namespace

Ms Session::RequestDeadline(const rapidjson::Value& frame, const std::string& method) const {
  const std::string& member = profile_.deadline_member();
  const rapidjson::Value* d = member.empty() ? nullptr : json::Find(frame, member);
  if (d && d->IsUint64() && d->GetUint64() > 0 && d->GetUint64() <= 3600000)
    return Ms(static_cast<Ms::rep>(d->GetUint64()));
  // Before the plugin's first frame its start-up is part of the wait: a revision without a
  // handshake has no initialize to bear it, so its first request has the handshake's time.
  if (without_handshake_ && !plugin_spoke_)
    return std::max(profile_.DeadlineFor(method),
                    profile_.DeadlineFor(profile_.handshake_method()));
  return profile_.DeadlineFor(method);
}

namespace {

// A string this long in a host frame is written from the document, not copied into the frame's
// bytes (json/compact_pieces.hpp); shorter ones cost less copied than tracked.
constexpr std::size_t kSharedString = 64 * 1024;

// The frame's bytes: its text framed in place, or, when it shares strings of its document, the
// framing's head, the text around those strings, the strings and the tail, written back to
// back and kept alive, with the document, until written. A 10 MiB ping is held once.
process::SharedBytes FrameBytes(const wire::Framing& framing,
                                std::shared_ptr<const rapidjson::Document> doc,
                                json::CompactPieces payload) {
  if (payload.shared.empty()) return framing.Encode(std::move(payload.text));
  struct Owner {
    std::shared_ptr<const rapidjson::Document> doc;
    std::string text;
  };
  wire::Framing::Wrapping wrap = framing.Wrap(payload.size());
  const std::size_t shift = wrap.head.size();
  auto owner = std::make_shared<Owner>();
  owner->doc = std::move(doc);
  owner->text = std::move(wrap.head);
  owner->text += payload.text;
  owner->text += wrap.tail;
  const std::string_view text(owner->text);
  std::vector<std::string_view> pieces;
  std::size_t from = 0;
  for (const json::CompactPieces::Shared& s : payload.shared) {
    pieces.push_back(text.substr(from, shift + s.at - from));
    pieces.push_back(s.bytes);
    from = shift + s.at;
  }
  pieces.push_back(text.substr(from));
  return process::SharedBytes(std::move(owner), std::move(pieces));
}

}  // namespace

std::size_t Session::Send(rapidjson::Document message, bool deliberately_invalid,
                          const std::string& answers) {
  const auto shared_frame = std::make_shared<const rapidjson::Document>(
      protocol::HostFrame(profile_, std::move(message)));
  const rapidjson::Document& frame = *shared_frame;
  protocol::Classified c = profile_.Classify(frame);
  if (c.kind == MessageKind::kResponse) c.method = answers;  // routes to <method>.response
  json::CompactPieces payload;
  if (!json::ToCompactPieces(frame, kSharedString, wire::kFrameHeadroom, &payload)) {
    payload.text = "<unserialisable>";
    payload.shared.clear();
  }
  TranscriptEntry entry = NewEntry(Direction::kHostToPlugin, EntryKindOf(c.kind),
                                   payload.Head(options_.transcript_text_cap + 1), payload.size());
  entry.method = json::Abbreviate(c.method);
  if (c.id) entry.id = json::Abbreviate(json::ToCompact(*c.id));
  std::optional<SchemaVerdict> verdict;
  if (!deliberately_invalid) verdict = Validate(entry, frame, c.kind, c.method);
  if (deliberately_invalid) entry.notes.push_back("deliberately invalid: not validated");
  std::size_t index = RecordHostFrame(std::move(entry), verdict);
  Owe(frame, c, index, deliberately_invalid);
  if (const protocol::Profile::Progress* p = profile_.progress();
      p && c.kind == MessageKind::kRequest)
    if (const rapidjson::Value* token = json::Resolve(frame, p->request_token))
      progress_tokens_[json::IdKey(*token)] = ProgressToken{index, std::nullopt, {}, 0};
  if (c.kind == MessageKind::kNotification && !c.method.empty() &&
      c.method == profile_.shutdown_notification())
    shutdown_sent_ = true;
  if (c.kind == MessageKind::kNotification && !c.method.empty() &&
      c.method == profile_.cancellation_method())
    Cancel(frame, index);
  Ms cap = c.kind == MessageKind::kRequest ? RequestDeadline(frame, c.method)
                                           : profile_.default_deadline();
  Write(FrameBytes(profile_.framing(), shared_frame, std::move(payload)), index, cap);
  return index;
}

void Session::Owe(const rapidjson::Value& frame, const protocol::Classified& c, std::size_t index,
                  bool deliberately_invalid) {
  if (c.kind != MessageKind::kRequest || !c.id) return;
  if (deliberately_invalid && !AcceptedAsRequest(frame)) {
    NotOwed(*c.id, index);
    return;
  }
  std::string key;
  PendingRequest request{index,        c.method, json::Abbreviate(json::ToCompact(*c.id)),
                         Clock::now(), {},       RequestDeadline(frame, c.method)};
  if (!correlator_.Owe(*c.id, std::move(request), &key)) return;
  if (c.method != profile_.handshake_method()) return;
  handshake_key_ = key;
  host_.HandshakeSent(frame);
}

void Session::Cancel(const rapidjson::Value& notification, std::size_t index) {
  const rapidjson::Value* id = json::Resolve(notification, profile_.cancellation_id_pointer());
  if (!id) return;
  if (correlator_.Cancel(*id, index))
    Note(index, "cancels request id " + json::Abbreviate(json::ToCompact(*id)) +
                    ": no answer is owed any more");
}

void Session::AfterHandshake(const rapidjson::Value& reply) {
  const protocol::AfterHandshake* after = profile_.after_handshake();
  if (!after) return;
  const rapidjson::Value* result = json::Find(reply, "result");
  if (!after->when.empty() && (!result || !result->IsObject())) return;
  for (const auto& [member, value] : after->when) {
    const rapidjson::Value* got = json::Find(*result, member);
    if (!got || !json::StrictEqual(*got, *value)) return;
  }
  for (const rapidjson::Value* message : after->send) {
    rapidjson::Document copy;
    copy.CopyFrom(*message, copy.GetAllocator());
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

// A request the plugin owes no answer: an answer echoing its id is allowed. When the id is none
// the protocol accepts (null, 1.5), the id "could not be read" as MCP 2025-11-25 words it, so an
// error without one (or with id null) may answer it, as it may answer a line that is no message
// (the profile's envelope.error_without_id; chosen for every revision, as JSON-RPC 2.0 answers
// an Invalid Request with id null).
void Session::NotOwed(const rapidjson::Value& id, std::size_t index) {
  correlator_.Noise(id, index);
  if (profile_.error_without_id() && !EchoableId(json::ClassifyId(&id)))
    correlator_.Unreadable(index);
}

void Session::TrackRawRequest(std::size_t index, const rapidjson::Value* raw) {
  if (raw && raw->IsArray() && !raw->Empty()) {
    // A batch. Under a revision with batches each request in it is owed its answer; under
    // another the array is no message (an error without an id may answer it), and an answer
    // echoing the id of a request in it is allowed, none owed: what a server does with the
    // elements of what it cannot read, the text does not say.
    const bool batch = Batches();
    if (!batch && profile_.error_without_id()) correlator_.Unreadable(index);
    for (const rapidjson::Value& element : raw->GetArray()) {
      protocol::Classified e = profile_.Classify(element);
      if (e.kind != MessageKind::kRequest || !e.id) continue;
      if (batch)
        TrackRequest(index, element, e);
      else
        correlator_.Noise(*e.id, index);
    }
    return;
  }
  protocol::Classified c;
  if (raw) c = profile_.Classify(*raw);
  // Not JSON, or not a message: there is no id to read, and an error without one may answer it.
  if (profile_.error_without_id() && c.kind == MessageKind::kInvalid) correlator_.Unreadable(index);
  if (c.kind != MessageKind::kRequest || !c.id) return;
  if (!TrackRequest(index, *raw, c)) return;
  if (TranscriptEntry* e = transcript_.Mutable(index)) {
    e->method = json::Abbreviate(c.method);
    e->id = json::Abbreviate(json::ToCompact(*c.id));
  }
}

bool Session::TrackRequest(std::size_t index, const rapidjson::Value& doc,
                           const protocol::Classified& c) {
  if (!EchoableId(json::ClassifyId(c.id)) || !AcceptedAsRequest(doc)) {
    NotOwed(*c.id, index);
    return false;
  }
  correlator_.Owe(*c.id, PendingRequest{index,
                                        c.method,
                                        json::Abbreviate(json::ToCompact(*c.id)),
                                        Clock::now(),
                                        {},
                                        RequestDeadline(doc, c.method)});
  return true;
}

std::size_t Session::SendRaw(std::string bytes, std::string note, Clock::time_point until) {
  std::size_t size = bytes.size();
  return SendRawChunked(std::move(bytes), size ? size : 1, Ms(0), std::move(note), until);
}

std::size_t Session::SendRawChunked(std::string bytes, std::size_t chunk, Ms delay,
                                    std::string note, Clock::time_point until) {
  TranscriptEntry entry = NewEntry(Direction::kHostToPlugin, EntryKind::kRaw, bytes, bytes.size());
  if (!note.empty()) entry.notes.push_back(std::move(note));
  std::size_t index = Record(std::move(entry));
  // Every piece shares the one buffer: a 64 KiB chunk is a view of it, not a copy.
  const std::uint64_t total = bytes.size();
  WritePieces(std::make_shared<const std::string>(std::move(bytes)), total, chunk, delay, index,
              until);
  return index;
}

std::size_t Session::SendRawRepeated(std::string chunk, std::uint64_t total, Ms delay,
                                     std::string note, Clock::time_point until) {
  // The entry keeps what it would of the whole: the first bytes (one more than the cap shows
  // that they were clipped) and the size.
  std::string head;
  while (!chunk.empty() &&
         head.size() < std::min<std::uint64_t>(total, options_.transcript_text_cap + 1))
    head += chunk;
  if (head.size() > total) head.resize(total);
  TranscriptEntry entry = NewEntry(Direction::kHostToPlugin, EntryKind::kRaw, head, total);
  if (!note.empty()) entry.notes.push_back(std::move(note));
  std::size_t index = Record(std::move(entry));
  const std::size_t size = chunk.size();
  WritePieces(std::make_shared<const std::string>(std::move(chunk)), total, size, delay, index,
              until);
  return index;
}

void Session::WritePieces(std::shared_ptr<const std::string> buffer, std::uint64_t total,
                          std::size_t chunk, Ms delay, std::size_t index, Clock::time_point until) {
  const protocol::TransportBudget& budget = profile_.transport_budget();
  writing_raw_ = true;
  for (std::uint64_t at = 0; at < total; at += chunk) {
    if (at > 0 && delay.count() > 0) RunFor(delay);
    const std::size_t size = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, total - at));
    if (budget.set()) {
      // The host queues no more than its budget: the next piece waits for room, as long as
      // the plugin reads at all (a plugin that stops is caught by the step that follows).
      RunUntil(
          [&] {
            std::uint64_t queued = queued_frame_bytes_ + queued_raw_bytes_;
            return queued == 0 || queued + size <= budget.bytes || gone() || InterruptFlag().load();
          },
          until);
    }
    if (gone() || InterruptFlag().load() || Clock::now() >= until) break;  // nobody reads on
    const auto offset = static_cast<std::size_t>(at % buffer->size());
    WriteNow(process::SharedBytes(buffer, offset, size), index, profile_.default_deadline(),
             /*raw=*/true);
  }
  writing_raw_ = false;
  std::vector<HeldWrite> held;
  held.swap(held_writes_);
  for (auto& w : held) WriteNow(std::move(w.bytes), w.frame, w.cap);
}

void Session::Write(process::SharedBytes bytes, std::size_t frame, Ms cap) {
  if (writing_raw_) {
    held_writes_.push_back({std::move(bytes), frame, cap});
    return;
  }
  WriteNow(std::move(bytes), frame, cap);
}

// Two rules for a plugin that stops reading, one per kind of protocol text. A protocol with a
// transport budget (Flash: "a child that stops reading those is still restarted once the
// budget fills") fails the plugin when a frame finds the budget full, whatever the time; one
// without (RIM) when a frame is not taken within its own deadline, since its answer could not
// come in time anyway.
// The most host bytes that wait for a plugin's stdin at once, for a protocol without a transport
// budget of its own: over six of the largest frames a shipped profile allows (MCP's 10 MiB).
constexpr std::uint64_t kHostQueueBytes = 64ull << 20;

void Session::WriteNow(process::SharedBytes bytes, std::size_t frame, Ms cap, bool raw) {
  process::Child* child = transport_.child();
  if (!child) return;
  const protocol::TransportBudget& budget = profile_.transport_budget();
  std::uint64_t size = bytes.size();
  if (options_.write_cap.count() > 0) {
    cap = options_.write_cap;
  } else if (budget.set()) {
    cap = Ms(0);
    if (!raw && (queued_frames_ + 1 > budget.frames || queued_frame_bytes_ + size > budget.bytes)) {
      Note(frame, "not delivered: the transport budget is full (the plugin stopped reading stdin)");
      Raise({Severity::kMust, "stdin-blocked",
             profile_.CheckMessage("stdin-blocked",
                                   {{"frame", std::to_string(frame)},
                                    {"frames", std::to_string(queued_frames_)},
                                    {"bytes", std::to_string(queued_frame_bytes_)}},
                                   revision_),
             frame});
      return;
    }
  }
  // Without a protocol budget, the host's own bound: a plugin that asks faster than it reads
  // stops being answered once this much waits for its stdin, with one finding; it never costs
  // memory without end (2,000 answers of 900 KB were once 1.8 GB).
  if (!raw && queued_frame_bytes_ + queued_raw_bytes_ + size > kHostQueueBytes) {
    const auto waited = std::chrono::duration_cast<Ms>(Clock::now() - queue_busy_since_);
    Note(frame, "not delivered: " + std::to_string(queued_frame_bytes_ + queued_raw_bytes_) +
                    " bytes already wait for the plugin's stdin, the most the host queues");
    if (!queue_full_raised_) {
      queue_full_raised_ = true;
      Raise({Severity::kMust, "stdin-blocked",
             profile_.CheckMessage(
                 "stdin-blocked",
                 {{"frame", std::to_string(frame)},
                  {"ms", std::to_string(waited.count())},
                  {"frames", std::to_string(queued_frames_)},
                  {"bytes", std::to_string(queued_frame_bytes_ + queued_raw_bytes_)}},
                 revision_),
             frame});
    }
    return;
  }
  if (queued_frame_bytes_ + queued_raw_bytes_ == 0) queue_busy_since_ = Clock::now();
  if (raw) {
    queued_raw_bytes_ += size;
  } else {
    ++queued_frames_;
    queued_frame_bytes_ += size;
  }
  child->Write(std::move(bytes), cap, [this, frame, cap, size, raw](process::WriteOutcome out) {
    if (raw) {
      queued_raw_bytes_ -= size;
    } else {
      --queued_frames_;
      queued_frame_bytes_ -= size;
    }
    if (out == process::WriteOutcome::kTimedOut) {
      Note(frame, "not delivered: the plugin stopped reading stdin");
      Raise(
          {Severity::kMust, "stdin-blocked",
           profile_.CheckMessage(
               "stdin-blocked",
               {{"frame", std::to_string(frame)}, {"ms", std::to_string(cap.count())}}, revision_),
           frame});
    } else if (out == process::WriteOutcome::kClosed) {
      Note(frame, "not delivered: the plugin's stdin is closed");
    }
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
  if (TranscriptEntry* e = transcript_.Mutable(index)) e->method = json::Abbreviate(request.method);
  Note(index, "answers #" + std::to_string(request.frame));
}

}  // namespace fakehost::session
