#include "harness/session/record.hpp"

#include <algorithm>

#include "harness/json/json.hpp"

namespace fakehost::session {
namespace {

// A summary entry's method and id.
constexpr std::size_t kSummaryQuote = 64;
// Notes kept per entry.
constexpr std::size_t kNotesKept = 8;

std::size_t TextBytes(const result::TranscriptEntry& e) {
  std::size_t n = e.text.size() + e.method.size() + e.id.size();
  for (const auto& v : e.violations) n += v.pointer.size() + v.message.size();
  for (const auto& note : e.notes) n += note.size();
  return n;
}

}  // namespace

const result::TranscriptEntry* TranscriptLog::Entry(std::size_t frame) const {
  // Entries are never dropped, only not made: entry i is frame number i, but for the tally.
  return frame < entries_.size() && entries_[frame].kind != result::EntryKind::kTally
             ? &entries_[frame]
             : nullptr;
}

result::TranscriptEntry* TranscriptLog::Mutable(std::size_t frame) {
  return const_cast<result::TranscriptEntry*>(Entry(frame));
}

std::size_t TranscriptLog::Record(result::TranscriptEntry entry) {
  std::size_t index = frame_count_++;
  std::size_t cap = std::max<std::size_t>(caps_.entries, 1);
  std::size_t bytes = TextBytes(entry);
  bool summary = retained_text_ + bytes > caps_.text_bytes;
  if (summary) Summarise(&entry);
  if (summary) bytes = TextBytes(entry);
  // Summaries may use a second budget as large as the first; past it, or past the entry cap,
  // the transcript ends in a tally.
  bool tally_started = !entries_.empty() && entries_.back().kind == result::EntryKind::kTally;
  if (tally_started || entries_.size() + 1 >= cap ||
      retained_text_ + bytes > 2 * caps_.text_bytes) {
    Tally(entry, index);
    return index;
  }
  entry.index = index;
  retained_text_ += bytes;
  entries_.push_back(std::move(entry));
  return index;
}

void TranscriptLog::Tally(const result::TranscriptEntry& entry, std::size_t index) {
  // The last entry tallies every frame from here on; their checks still ran.
  tallied_bytes_ += entry.size;
  if (entries_.empty() || entries_.back().kind != result::EntryKind::kTally) {
    result::TranscriptEntry tally;
    tally.index = index;
    tally.direction = entry.direction;
    tally.t_ms = entry.t_ms;
    tally.kind = result::EntryKind::kTally;
    tally.summarised = true;
    entries_.push_back(std::move(tally));
  }
  result::TranscriptEntry& tally = entries_.back();
  std::uint64_t frames = frame_count_ - tally.index;
  std::size_t cap = std::max<std::size_t>(caps_.entries, 1);
  tally.size = tallied_bytes_;
  tally.notes = {std::to_string(frames) + (frames == 1 ? " frame" : " frames") + " from #" +
                 std::to_string(tally.index) + " on, " + std::to_string(tallied_bytes_) +
                 " bytes, have no entry: a transcript keeps at most " + std::to_string(cap) +
                 " entries and " + std::to_string(2 * caps_.text_bytes) +
                 " bytes of text (their checks still ran)"};
}

void TranscriptLog::Summarise(result::TranscriptEntry* entry) {
  // Direction, kind, size and verdict, without the payload.
  entry->text.clear();
  entry->clipped = entry->size > 0;
  entry->summarised = true;
  entry->method = json::Abbreviate(entry->method, kSummaryQuote);
  entry->id = json::Abbreviate(entry->id, kSummaryQuote);
  if (entry->violations.size() > 1) entry->violations.resize(1);
  for (auto& v : entry->violations) {
    v.pointer = json::Abbreviate(v.pointer, kSummaryQuote);
    v.message = json::Abbreviate(v.message);
  }
  if (entry->notes.size() > 2) entry->notes.resize(2);
  for (auto& note : entry->notes) note = json::Abbreviate(note);
}

void TranscriptLog::Note(std::size_t frame, std::string note) {
  result::TranscriptEntry* entry = Mutable(frame);
  if (!entry) return;
  result::TranscriptEntry& e = *entry;
  if (e.notes.size() >= (e.summarised ? 2 : kNotesKept)) return;
  if (e.summarised || retained_text_ + note.size() > caps_.text_bytes)
    note = json::Abbreviate(note);
  retained_text_ += note.size();
  e.notes.push_back(std::move(note));
}

void FindingLog::Raise(result::Finding f) {
  auto& [count, tally] = counts_[f.check];
  ++count;
  if (count <= per_check_) {
    findings_.push_back(std::move(f));
    return;
  }
  std::size_t more = count - per_check_;
  std::string message = std::to_string(more) + " more " + f.check +
                        (more == 1 ? " finding" : " findings") + " after the first " +
                        std::to_string(per_check_) + " are not listed (the last on frame #" +
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

}  // namespace fakehost::session
