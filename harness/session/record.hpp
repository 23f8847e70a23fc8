// What a session keeps of what crossed the pipe: transcript entries and findings, both bounded.
//
// The checks run on every frame whatever the plugin sends; what is kept of them is capped.
// TranscriptLog numbers every frame and keeps its entry whole up to a text budget, then as a
// summary (direction, kind, size, verdict) up to as much again, then, past that or an entry cap,
// only a tally in the last entry. FindingLog lists findings up to a number per check and counts
// the rest in one more finding of that check. Neither knows processes, JSON or the protocol.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "harness/result/transcript.hpp"

namespace fakehost::session {

class TranscriptLog {
 public:
  struct Caps {
    std::size_t text_bytes = 256 * 1024;  ///< text kept in full entries (summaries: as much again)
    std::size_t entries = 2000;           ///< entries, the tally included
  };
  explicit TranscriptLog(Caps caps) : caps_(caps) {}

  /// Gives `entry` the next frame number and keeps it whole, as a summary or in the tally;
  /// returns its frame number.
  std::size_t Record(result::TranscriptEntry entry);
  /// The frame number the next Record() assigns.
  std::size_t next_frame() const { return frame_count_; }
  /// Entry i is frame number i, for every frame that has an entry.
  const std::vector<result::TranscriptEntry>& entries() const { return entries_; }
  /// Frame `frame`'s entry, or nullptr when it was tallied without one.
  const result::TranscriptEntry* Entry(std::size_t frame) const;
  result::TranscriptEntry* Mutable(std::size_t frame);
  /// Adds a note to frame `frame`'s entry, if it has one (abbreviated past the text budget).
  void Note(std::size_t frame, std::string note);

  /// Cuts `entry` down to a summary: no payload, method, id, violations and notes abbreviated.
  static void Summarise(result::TranscriptEntry* entry);

 private:
  void Tally(const result::TranscriptEntry& entry, std::size_t index);

  Caps caps_;
  std::vector<result::TranscriptEntry> entries_;
  std::size_t frame_count_ = 0;      // frame numbers given so far (entries + tallied frames)
  std::size_t retained_text_ = 0;    // text bytes kept
  std::uint64_t tallied_bytes_ = 0;  // payload bytes of the frames without an entry
};

class FindingLog {
 public:
  explicit FindingLog(std::size_t per_check) : per_check_(per_check) {}
  /// Lists `f`, or counts it once its check has `per_check` findings listed.
  void Raise(result::Finding f);
  const std::vector<result::Finding>& findings() const { return findings_; }

 private:
  std::size_t per_check_;
  std::vector<result::Finding> findings_;
  std::map<std::string, std::pair<std::size_t, std::size_t>> counts_;  // check: n, tally index
};

}  // namespace fakehost::session
