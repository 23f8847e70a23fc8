#include "harness/session/conversation.hpp"

#include <algorithm>

#include "harness/json/json.hpp"

namespace fakehost::session {

Conversation::Conversation(const protocol::Profile& p, const schema::FrameSchema* s,
                           SessionOptions o)
    : profile(p),
      schema(s),
      options(std::move(o)),
      host(p, options.manifest.get()),
      transcript({options.transcript_bytes_cap, options.transcript_entries_cap}),
      findings(options.findings_per_check),
      correlator(p) {}

double Conversation::ElapsedMs(Clock::time_point at) const {
  return std::chrono::duration<double, std::milli>(at - started).count();
}

result::TranscriptEntry Conversation::NewEntry(result::Direction direction, result::EntryKind kind,
                                               std::string_view text, std::uint64_t size) const {
  result::TranscriptEntry entry;
  entry.direction = direction;
  entry.t_ms = ElapsedMs(Clock::now());
  entry.kind = kind;
  entry.size = size;
  entry.clipped = text.size() > options.transcript_text_cap;
  // A cut inside a character would make a UTF-8 payload's first bytes not UTF-8 (so written as
  // base64): it moves back to the character's first byte, at most three bytes.
  std::size_t cut = std::min(text.size(), options.transcript_text_cap);
  for (int back = 0; back < 3 && cut > 0 && cut < text.size() &&
                     (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80;
       ++back)
    --cut;
  entry.text = std::string(text.substr(0, cut));
  return entry;
}

std::size_t Conversation::RecordHostFrame(result::TranscriptEntry entry,
                                          const std::optional<SchemaVerdict>& verdict) {
  std::size_t index = Record(std::move(entry));
  if (verdict) Raise(SchemaFinding(profile, *verdict, /*from_plugin=*/false, index, revision));
  return index;
}

const rapidjson::Value* Conversation::Announced() const {
  const rapidjson::Value* answer = handshake_answer ? handshake_answer.get() : announced_in.get();
  const std::string* pointer = profile.announcements_pointer();
  return answer && pointer ? json::Resolve(*answer, *pointer) : nullptr;
}

bool Conversation::Batches() const {
  const protocol::Revisions* revisions = profile.revisions();
  const protocol::Revision* r = revisions ? revisions->Find(revision) : nullptr;
  return r && r->batches;
}

Ms Conversation::RequestDeadline(const rapidjson::Value& frame, const std::string& method) const {
  const std::string& member = profile.deadline_member();
  const rapidjson::Value* d = member.empty() ? nullptr : json::Find(frame, member);
  if (d && d->IsUint64() && d->GetUint64() > 0 && d->GetUint64() <= 3600000)
    return Ms(static_cast<Ms::rep>(d->GetUint64()));
  // Before the plugin's first frame its start-up is part of the wait: a revision without a
  // handshake has no initialize to bear it, so its first request has the handshake's time.
  if (without_handshake && !plugin_spoke)
    return std::max(profile.DeadlineFor(method), profile.DeadlineFor(profile.handshake_method()));
  return profile.DeadlineFor(method);
}

}  // namespace fakehost::session
