#include "harness/session/sender.hpp"

#include "harness/json/compact_pieces.hpp"
#include "harness/json/json.hpp"
#include "harness/protocol/host_frame.hpp"
#include "harness/schema/schema.hpp"
#include "harness/session/connection.hpp"
#include "harness/session/interrupt.hpp"
#include "harness/wire/framing.hpp"

namespace fakehost::session {
namespace {

using protocol::MessageKind;

rapidjson::Value Str(std::string_view s, rapidjson::Document::AllocatorType& a) {
  return rapidjson::Value(s.data(), static_cast<rapidjson::SizeType>(s.size()), a);
}

bool EchoableId(json::IdKind k) {
  return k == json::IdKind::kInteger || k == json::IdKind::kString;
}

}  // namespace

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

std::size_t Sender::Send(rapidjson::Document message, bool deliberately_invalid,
                         const std::string& answers) {
  const auto shared_frame = std::make_shared<const rapidjson::Document>(
      protocol::HostFrame(c_.profile, std::move(message)));
  const rapidjson::Document& frame = *shared_frame;
  protocol::Classified c = c_.profile.Classify(frame);
  if (c.kind == MessageKind::kResponse) c.method = answers;  // routes to <method>.response
  json::CompactPieces payload;
  if (!json::ToCompactPieces(frame, kSharedString, wire::kFrameHeadroom, &payload)) {
    payload.text = "<unserialisable>";
    payload.shared.clear();
  }
  result::TranscriptEntry entry =
      c_.NewEntry(result::Direction::kHostToPlugin, EntryKindOf(c.kind),
                  payload.Head(c_.options.transcript_text_cap + 1), payload.size());
  entry.method = json::Abbreviate(c.method);
  if (c.id) entry.id = json::Abbreviate(json::ToCompact(*c.id));
  std::optional<SchemaVerdict> verdict;
  if (!deliberately_invalid) verdict = c_.Validate(entry, frame, c.kind, c.method);
  if (deliberately_invalid) entry.notes.push_back("deliberately invalid: not validated");
  std::size_t index = c_.RecordHostFrame(std::move(entry), verdict);
  Owe(frame, c, index, deliberately_invalid);
  AfterSent(frame, c, index);
  Ms cap = c.kind == MessageKind::kRequest ? c_.RequestDeadline(frame, c.method)
                                           : c_.profile.default_deadline();
  Write(FrameBytes(c_.profile.framing(), shared_frame, std::move(payload)), index, cap);
  return index;
}

void Sender::AfterSent(const rapidjson::Value& frame, const protocol::Classified& c,
                       std::size_t index) {
  if (const protocol::Profile::Progress* p = c_.profile.progress();
      p && c.kind == MessageKind::kRequest)
    if (const rapidjson::Value* token = json::Resolve(frame, p->request_token))
      c_.progress_tokens[json::IdKey(*token)] = ProgressToken{index, std::nullopt, {}, 0};
  if (c.kind == MessageKind::kNotification && !c.method.empty() &&
      c.method == c_.profile.shutdown_notification())
    c_.shutdown_sent = true;
  if (c.kind == MessageKind::kNotification && !c.method.empty() &&
      c.method == c_.profile.cancellation_method())
    Cancel(frame, index);
}

void Sender::Owe(const rapidjson::Value& frame, const protocol::Classified& c, std::size_t index,
                 bool deliberately_invalid) {
  if (c.kind != MessageKind::kRequest || !c.id) return;
  if (deliberately_invalid && !AcceptedAsRequest(frame)) {
    NotOwed(*c.id, index);
    return;
  }
  std::string key;
  PendingRequest request{index,        c.method, json::Abbreviate(json::ToCompact(*c.id)),
                         Clock::now(), {},       c_.RequestDeadline(frame, c.method)};
  if (!c_.correlator.Owe(*c.id, std::move(request), &key)) return;
  if (c.method != c_.profile.handshake_method()) return;
  c_.handshake_key = key;
  c_.host.HandshakeSent(frame);
}

void Sender::Cancel(const rapidjson::Value& notification, std::size_t index) {
  const rapidjson::Value* id = json::Resolve(notification, c_.profile.cancellation_id_pointer());
  if (!id) return;
  if (c_.correlator.Cancel(*id, index))
    c_.Note(index, "cancels request id " + json::Abbreviate(json::ToCompact(*id)) +
                       ": no answer is owed any more");
}

void Sender::AfterHandshake(const rapidjson::Value& reply) {
  const protocol::AfterHandshake* after = c_.profile.after_handshake();
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
    c_.Note(index, "sent by the host after a successful handshake");
  }
}

bool Sender::AcceptedAsRequest(const rapidjson::Value& frame) const {
  // Only a frame whose envelope the protocol accepts is a request the plugin owes an answer (a
  // Flash request with a string id is noise); its params may still be deliberately odd.
  return !c_.schema || !c_.schema->Has("envelope.request") ||
         c_.schema->Validate("envelope.request", frame).empty();
}

// A request the plugin owes no answer: an answer echoing its id is allowed. When the id is none
// the protocol accepts (null, 1.5), the id "could not be read" as MCP 2025-11-25 words it, so an
// error without one (or with id null) may answer it, as it may answer a line that is no message
// (the profile's envelope.error_without_id; chosen for every revision, as JSON-RPC 2.0 answers
// an Invalid Request with id null).
void Sender::NotOwed(const rapidjson::Value& id, std::size_t index) {
  c_.correlator.Noise(id, index);
  if (c_.profile.error_without_id() && !EchoableId(json::ClassifyId(&id)))
    c_.correlator.Unreadable(index);
}

void Sender::TrackRawRequest(std::size_t index, const rapidjson::Value* raw) {
  if (raw && raw->IsArray() && !raw->Empty()) {
    // A batch. Under a revision with batches each request in it is owed its answer; under
    // another the array is no message (an error without an id may answer it), and an answer
    // echoing the id of a request in it is allowed, none owed: what a server does with the
    // elements of what it cannot read, the text does not say.
    const bool batch = c_.Batches();
    if (!batch && c_.profile.error_without_id()) c_.correlator.Unreadable(index);
    for (const rapidjson::Value& element : raw->GetArray()) {
      protocol::Classified e = c_.profile.Classify(element);
      if (e.kind != MessageKind::kRequest || !e.id) continue;
      if (batch)
        TrackRequest(index, element, e);
      else
        c_.correlator.Noise(*e.id, index);
    }
    return;
  }
  protocol::Classified c;
  if (raw) c = c_.profile.Classify(*raw);
  // Not JSON, or not a message: there is no id to read, and an error without one may answer it.
  if (c_.profile.error_without_id() && c.kind == MessageKind::kInvalid)
    c_.correlator.Unreadable(index);
  if (c.kind != MessageKind::kRequest || !c.id) return;
  if (!TrackRequest(index, *raw, c)) return;
  if (result::TranscriptEntry* e = c_.transcript.Mutable(index)) {
    e->method = json::Abbreviate(c.method);
    e->id = json::Abbreviate(json::ToCompact(*c.id));
  }
}

bool Sender::TrackRequest(std::size_t index, const rapidjson::Value& doc,
                          const protocol::Classified& c) {
  if (!EchoableId(json::ClassifyId(c.id)) || !AcceptedAsRequest(doc)) {
    NotOwed(*c.id, index);
    return false;
  }
  c_.correlator.Owe(*c.id, PendingRequest{index,
                                          c.method,
                                          json::Abbreviate(json::ToCompact(*c.id)),
                                          Clock::now(),
                                          {},
                                          c_.RequestDeadline(doc, c.method)});
  return true;
}

std::size_t Sender::SendRaw(std::string bytes, std::string note, Clock::time_point until) {
  std::size_t size = bytes.size();
  return SendRawChunked(std::move(bytes), size ? size : 1, Ms(0), std::move(note), until);
}

std::size_t Sender::SendRawChunked(std::string bytes, std::size_t chunk, Ms delay, std::string note,
                                   Clock::time_point until) {
  result::TranscriptEntry entry =
      c_.NewEntry(result::Direction::kHostToPlugin, result::EntryKind::kRaw, bytes, bytes.size());
  if (!note.empty()) entry.notes.push_back(std::move(note));
  std::size_t index = c_.Record(std::move(entry));
  // Every piece shares the one buffer: a 64 KiB chunk is a view of it, not a copy.
  const std::uint64_t total = bytes.size();
  WritePieces(std::make_shared<const std::string>(std::move(bytes)), total, chunk, delay, index,
              until);
  return index;
}

std::size_t Sender::SendRawRepeated(std::string chunk, std::uint64_t total, Ms delay,
                                    std::string note, Clock::time_point until) {
  // The entry keeps what it would of the whole: the first bytes (one more than the cap shows
  // that they were clipped) and the size.
  std::string head;
  while (!chunk.empty() &&
         head.size() < std::min<std::uint64_t>(total, c_.options.transcript_text_cap + 1))
    head += chunk;
  if (head.size() > total) head.resize(total);
  result::TranscriptEntry entry =
      c_.NewEntry(result::Direction::kHostToPlugin, result::EntryKind::kRaw, head, total);
  if (!note.empty()) entry.notes.push_back(std::move(note));
  std::size_t index = c_.Record(std::move(entry));
  const std::size_t size = chunk.size();
  WritePieces(std::make_shared<const std::string>(std::move(chunk)), total, size, delay, index,
              until);
  return index;
}

void Sender::WritePieces(std::shared_ptr<const std::string> buffer, std::uint64_t total,
                         std::size_t chunk, Ms delay, std::size_t index, Clock::time_point until) {
  const protocol::TransportBudget& budget = c_.profile.transport_budget();
  writing_raw_ = true;
  for (std::uint64_t at = 0; at < total; at += chunk) {
    if (at > 0 && delay.count() > 0) connection_.RunFor(delay);
    const std::size_t size = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, total - at));
    if (budget.set()) {
      // The host queues no more than its budget: the next piece waits for room, as long as
      // the plugin reads at all (a plugin that stops is caught by the step that follows).
      connection_.RunUntil(
          [&] {
            std::uint64_t queued = queued_frame_bytes_ + queued_raw_bytes_;
            return queued == 0 || queued + size <= budget.bytes || connection_.gone() ||
                   InterruptFlag().load();
          },
          until);
    }
    if (connection_.gone() || InterruptFlag().load() || Clock::now() >= until)
      break;  // nobody reads on
    const auto offset = static_cast<std::size_t>(at % buffer->size());
    WriteNow(process::SharedBytes(buffer, offset, size), index, c_.profile.default_deadline(),
             /*raw=*/true);
  }
  writing_raw_ = false;
  std::vector<HeldWrite> held;
  held.swap(held_writes_);
  for (auto& w : held) WriteNow(std::move(w.bytes), w.frame, w.cap);
}

void Sender::Write(process::SharedBytes bytes, std::size_t frame, Ms cap) {
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

void Sender::WriteNow(process::SharedBytes bytes, std::size_t frame, Ms cap, bool raw) {
  process::Child* child = connection_.child();
  if (!child) return;
  std::uint64_t size = bytes.size();
  if (BudgetFull(frame, size, raw, &cap)) return;
  if (!raw && HostQueueFull(frame, size)) return;
  if (queued_frame_bytes_ + queued_raw_bytes_ == 0) queue_busy_since_ = Clock::now();
  if (raw) {
    queued_raw_bytes_ += size;
  } else {
    ++queued_frames_;
    queued_frame_bytes_ += size;
  }
  child->Write(std::move(bytes), cap, [this, frame, cap, size, raw](process::WriteOutcome out) {
    Written(out, frame, cap, size, raw);
  });
}

bool Sender::BudgetFull(std::size_t frame, std::uint64_t size, bool raw, Ms* cap) {
  const protocol::TransportBudget& budget = c_.profile.transport_budget();
  if (c_.options.write_cap.count() > 0) {
    *cap = c_.options.write_cap;
    return false;
  }
  if (!budget.set()) return false;
  *cap = Ms(0);
  if (raw || (queued_frames_ + 1 <= budget.frames && queued_frame_bytes_ + size <= budget.bytes))
    return false;
  c_.Note(frame, "not delivered: the transport budget is full (the plugin stopped reading stdin)");
  c_.Raise({result::Severity::kMust, "stdin-blocked",
            c_.profile.CheckMessage("stdin-blocked",
                                    {{"frame", std::to_string(frame)},
                                     {"frames", std::to_string(queued_frames_)},
                                     {"bytes", std::to_string(queued_frame_bytes_)}},
                                    c_.revision),
            frame});
  return true;
}

// Without a protocol budget, the host's own bound: a plugin that asks faster than it reads
// stops being answered once this much waits for its stdin, with one finding; it never costs
// memory without end (2,000 answers of 900 KB were once 1.8 GB).
bool Sender::HostQueueFull(std::size_t frame, std::uint64_t size) {
  const std::uint64_t queued = queued_frame_bytes_ + queued_raw_bytes_;
  if (queued + size <= kHostQueueBytes) return false;
  const auto waited = std::chrono::duration_cast<Ms>(Clock::now() - queue_busy_since_);
  c_.Note(frame, "not delivered: " + std::to_string(queued) +
                     " bytes already wait for the plugin's stdin, the most the host queues");
  if (queue_full_raised_) return true;
  queue_full_raised_ = true;
  c_.Raise({result::Severity::kMust, "stdin-blocked",
            c_.profile.CheckMessage("stdin-blocked",
                                    {{"frame", std::to_string(frame)},
                                     {"ms", std::to_string(waited.count())},
                                     {"frames", std::to_string(queued_frames_)},
                                     {"bytes", std::to_string(queued)}},
                                    c_.revision),
            frame});
  return true;
}

void Sender::Written(process::WriteOutcome out, std::size_t frame, Ms cap, std::uint64_t size,
                     bool raw) {
  if (raw) {
    queued_raw_bytes_ -= size;
  } else {
    --queued_frames_;
    queued_frame_bytes_ -= size;
  }
  if (out == process::WriteOutcome::kTimedOut) {
    c_.Note(frame, "not delivered: the plugin stopped reading stdin");
    c_.Raise(
        {result::Severity::kMust, "stdin-blocked",
         c_.profile.CheckMessage(
             "stdin-blocked",
             {{"frame", std::to_string(frame)}, {"ms", std::to_string(cap.count())}}, c_.revision),
         frame});
  } else if (out == process::WriteOutcome::kClosed) {
    c_.Note(frame, "not delivered: the plugin's stdin is closed");
  }
}

void Sender::Reply(const Inbound& request, const rapidjson::Value& body) {
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
  if (result::TranscriptEntry* e = c_.transcript.Mutable(index))
    e->method = json::Abbreviate(request.method);
  c_.Note(index, "answers #" + std::to_string(request.frame));
}

std::vector<process::StopStep> Sender::StopPlan(const std::vector<protocol::StopStepSpec>& steps,
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
        rapidjson::Document note = protocol::HostFrame(c_.profile, std::move(message));
        std::string payload = json::ToCompact(note);
        result::TranscriptEntry entry =
            c_.NewEntry(result::Direction::kHostToPlugin, result::EntryKind::kNotification, payload,
                        payload.size());
        entry.method = s.method;
        entry.notes.push_back("stop sequence: " + s.label);
        std::optional<SchemaVerdict> verdict =
            c_.Validate(entry, note, MessageKind::kNotification, s.method);
        c_.RecordHostFrame(std::move(entry), verdict);
        // An ungraded teardown does not judge what the plugin had already sent on its way.
        if (s.method == c_.profile.shutdown_notification() && graded) c_.shutdown_sent = true;
        p.bytes = c_.profile.framing().Encode(std::move(payload));
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

}  // namespace fakehost::session
