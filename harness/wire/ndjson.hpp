// The NDJSON framing (Flash v1): one payload per '\n'-terminated line.
//
// The decoder is exposed so tests can look at what it holds; everyone else gets one through
// the framing's MakeDecoder(). The rules, where the spec leaves room:
// - the terminator is "\n" or "\r\n" (one '\r' before the '\n' is stripped); the limit counts
//   the line without its terminator;
// - blank lines ("" or "\r") produce no event;
// - a line over the limit is counted, not buffered, and reported once, as Oversized, when its
//   newline arrives (or at EOF); decoding resumes after that newline. The decoder never stops;
// - an unterminated final line is TruncatedAtEof with the whole line (or Oversized if too long).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "harness/wire/framing.hpp"

namespace fakehost::wire {

class NdjsonDecoder final : public Decoder {
 public:
  explicit NdjsonDecoder(std::uint64_t max_line) : max_line_(max_line) {}

  void Feed(std::string_view bytes, std::vector<Event>* out) override;
  void Finish(std::vector<Event>* out) override;
  bool stopped() const override { return false; }
  std::uint64_t discarded() const override { return 0; }

  /// Capacity of the buffer holding a partly received line: at most about twice the limit
  /// (one '\r' more than the limit may be held), usually far less.
  std::size_t buffered_capacity() const { return line_.capacity(); }

 private:
  /// A whole line in one piece, '\n' excluded.
  void EmitLine(const char* line, std::size_t length, std::uint64_t offset,
                std::vector<Event>* out) const;
  /// Switches to counting an oversized line of which `counted` bytes have arrived.
  void StartSkipping(std::string_view head, std::uint64_t counted, bool last_is_cr);
  void EmitOversized(std::vector<Event>* out);
  /// The newline of an oversized line arrived: reports it, without a '\r' before the newline.
  void EndSkipping(std::vector<Event>* out);
  std::uint64_t HoldLimit() const;
  void ReleaseLine();

  // Feed's three states, each given the bytes up to the next newline (excluded) and whether
  // that newline is there (else the segment is the rest of the read).
  /// Counts bytes of an oversized line.
  void SkipSegment(std::string_view segment, bool ends_line, std::vector<Event>* out);
  /// Begins a line: emitted at once if whole, else held or, past the limit, skipped.
  void StartLine(std::string_view segment, bool ends_line, std::vector<Event>* out);
  /// Continues a line held from an earlier read.
  void ContinueLine(std::string_view segment, bool ends_line, std::vector<Event>* out);
  /// Emits the held line, whose newline just arrived.
  void EmitHeldLine(std::vector<Event>* out);

  std::uint64_t max_line_;
  std::uint64_t offset_ = 0;       // stream offset of the next byte to consume
  std::uint64_t line_offset_ = 0;  // stream offset of the line in progress
  std::string line_;               // partial line (only when split across reads)
  bool skipping_ = false;          // inside an oversized line, waiting for its newline
  std::uint64_t skip_count_ = 0;   // bytes of the oversized line so far, '\r' included
  bool skip_last_cr_ = false;      // last byte counted was '\r'
  std::string skip_head_;          // first bytes of the oversized line
};

/// "ndjson". Frames announce no length, so nothing can be claimed and no header diagnosed; an
/// oversized line costs only that line.
class NdjsonFraming final : public Framing {
 public:
  std::string_view name() const override { return "ndjson"; }
  std::unique_ptr<Decoder> MakeDecoder(std::uint64_t max_payload) const override;
  std::string Encode(std::string payload) const override;
  Wrapping Wrap(std::uint64_t size) const override;
  std::optional<std::string> EncodeClaiming(std::string&&, std::uint64_t) const override {
    return std::nullopt;
  }
  Resync resync() const override { return Resync::kNextDelimiter; }
  std::optional<Wording> DiagnoseHeader(const Oversized&, std::uint64_t) const override {
    return std::nullopt;
  }
  std::string ExpectedSize(const TruncatedAtEof& cut) const override;
  const std::vector<FramingCheck>& checks() const override;
  const std::vector<RawFault>& raw_faults() const override;
};

}  // namespace fakehost::wire
