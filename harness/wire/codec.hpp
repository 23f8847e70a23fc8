// What a framing decoder emits, and the decoder's interface (one per stream; framing.hpp says
// which framings there are and makes them).
//
// Decoders are pure and incremental: they know nothing of processes, JSON or time. A decoder
// is fed whatever a read() returned, in any split, and emits one event per frame or per framing
// fault. It never allocates what a header merely announces: an absurd length is reported as
// Oversized, not reserved.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace fakehost::wire {

/// A complete frame. `offset` is the stream offset of the frame's first byte (for
/// length-prefixed framing, the first header byte; for NDJSON, the first byte of the line).
struct Frame {
  std::string payload;
  std::uint64_t offset = 0;
};

/// A frame whose size exceeds the limit. Length-prefixed: `announced` is the header's value
/// and `header` its four raw bytes (so a caller can say "that is text" or "big-endian would be
/// 82"); the decoder is then stopped, because the framing is lost. NDJSON: `announced` is the
/// length of the line without its terminator (counted, never buffered past the limit), so it is
/// reported when the line's newline (or EOF) arrives; `header` holds the first bytes of the line
/// (at most 16), and decoding resumes after that newline.
struct Oversized {
  std::uint64_t announced = 0;
  std::uint64_t offset = 0;
  std::string header;
};

/// End of stream inside a frame. `bytes` holds what had arrived of it (for length-prefixed
/// framing: header and payload bytes so far, capped at 64 bytes of payload), `expected` the
/// total size the frame needed (0 when not even the header was complete), `received` how many
/// bytes of the frame arrived. For NDJSON this is an unterminated final line; `bytes` then holds
/// the whole line (it is below the limit), so a caller may still choose to parse it.
struct TruncatedAtEof {
  std::uint64_t offset = 0;
  std::uint64_t expected = 0;
  std::uint64_t received = 0;
  std::string bytes;
};

/// Bytes where a frame's header belongs that the framing cannot read as one (a framing whose
/// header is text: Content-Length, a line that is not `Name: value`, no length, a length that is
/// not a number). `header` holds the first bytes of it (at most 64), `reason` says what is
/// wrong in a few words. Framings with a binary or no header never emit it. After it the
/// decoder behaves as its framing's resync() says (Content-Length: stopped, as after Oversized).
struct BadHeader {
  std::uint64_t offset = 0;
  std::string header;
  std::string reason;
};

using Event = std::variant<Frame, Oversized, BadHeader, TruncatedAtEof>;

class Decoder {
 public:
  virtual ~Decoder() = default;
  /// Feeds bytes as they arrived and appends the events they complete. After the decoder has
  /// stopped (a framing whose resync() is kStreamLost, after Oversized or BadHeader), further
  /// bytes are counted in discarded() only.
  virtual void Feed(std::string_view bytes, std::vector<Event>* out) = 0;
  /// End of stream: appends TruncatedAtEof if a frame was in progress.
  virtual void Finish(std::vector<Event>* out) = 0;
  /// True once the framing is lost and nothing more will be decoded.
  virtual bool stopped() const = 0;
  /// Bytes received after the decoder stopped.
  virtual std::uint64_t discarded() const = 0;
};

}  // namespace fakehost::wire
