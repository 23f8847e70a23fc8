// A framing: how a protocol cuts a byte stream into frames, as one object per kind.
//
// Everything the engine knows of a framing is asked of its Framing: a decoder for one stream,
// how a payload is written (and how a frame that lies about its length is written), whether an
// undecodable frame loses the stream or the stream heals at the next delimiter, why a header
// announced what it did, the check ids it raises beyond the engine's own, and the raw faults a
// fuzzer may write. A profile names its framing ("framing": "ndjson"); FindFraming() is the
// registry, so an unknown name is a profile error, and a new framing is one class here plus
// one line in framings.cpp. Framings are stateless singletons, shared by every thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/wire/codec.hpp"

namespace fakehost::wire {

/// What happens to the stream after a frame the decoder could not take (Oversized, BadHeader).
enum class Resync {
  kStreamLost,     ///< nothing after it can be trusted: the decoder stops (length-prefixed)
  kNextDelimiter,  ///< decoding resumes at the next delimiter (NDJSON: after the next newline)
};

/// A check a framing raises beyond the engine's own (protocol::EngineChecks()), with the
/// placeholders its wording may use: every profile of that framing words it.
struct FramingCheck {
  const char* id;
  std::vector<const char*> vars;
};

/// One sentence of a framing fault's message: a check the profile words, with the values of its
/// placeholders.
struct Wording {
  std::string check;
  std::vector<std::pair<std::string, std::string>> vars;
};

/// The check that words a BadHeader, with placeholders frame, header (the bytes, escaped) and
/// reason: a framing that emits BadHeader lists it in its checks().
inline constexpr const char* kBadHeaderCheck = "header-unreadable";

/// A fault in the bytes that a fuzzer may write to test a plugin's reading of this framing, as a
/// scenario's `send_raw` step writes it. Faults in the payload of an honest frame (bad JSON,
/// bad UTF-8, a frame in pieces) are the fuzzer's own and the same for every framing.
struct RawFault {
  enum class Bytes {
    kFrame,        ///< the frame text of a message the host may send
    kEmptyObject,  ///< "{}"
    kLiteral,      ///< `literal`
    kOverLimit,    ///< one byte repeated max_payload + 1 times
  };
  enum class Claim {
    kHonest,     ///< a header (if any) that says what follows
    kLonger,     ///< the header claims 1 to 64 bytes more than follow
    kShorter,    ///< ... 1 to 8 fewer (never below 0)
    kOverLimit,  ///< ... max_payload + 1 bytes
  };
  std::string what;  ///< names the case in the fuzzer's summary
  Bytes bytes = Bytes::kFrame;
  /// kLiteral: the bytes; with kFrame and framed false: appended to the frame text ("\r\n").
  std::string literal;
  bool framed = true;  ///< false: written as they are, delimiters and all
  Claim claim = Claim::kHonest;
  /// After it nothing more can be decoded, so it ends a fuzz session (resync() is kStreamLost).
  bool loses_stream = false;
};

/// What any framing adds around a payload (a header, a terminator), at most: the room a caller
/// reserves to be framed in place (Framing::Encode).
inline constexpr std::size_t kFrameHeadroom = 64;

class Framing {
 public:
  virtual ~Framing() = default;

  /// The name a profile gives it: "length-prefixed", "ndjson".
  virtual std::string_view name() const = 0;

  /// A decoder for one stream, with `max_payload` bytes per frame (payload or line, header and
  /// terminator excluded).
  virtual std::unique_ptr<Decoder> MakeDecoder(std::uint64_t max_payload) const = 0;

  /// Frames one payload, in its own buffer: a caller that reserved `kFrameHeadroom` bytes more
  /// than the payload gets its frame with no second copy (a 16 MiB `send_raw` is held once).
  /// The caller guarantees the framing can carry it (NDJSON: no newline, which compact JSON
  /// never has); one it cannot measure (length-prefixed: 4 GiB or more) throws
  /// std::length_error, a caller's bug.
  virtual std::string Encode(std::string payload) const = 0;
  /// What Encode puts before and after a payload of `size` bytes, for a caller that writes the
  /// payload in pieces it does not copy into one buffer (a frame that shares its document's long
  /// strings): head + payload + tail is Encode(payload). Throws as Encode does.
  struct Wrapping {
    std::string head;
    std::string tail;
  };
  virtual Wrapping Wrap(std::uint64_t size) const = 0;
  /// A frame whose header claims `length` bytes while `payload` follows (a scenario's
  /// `send_raw` with `length:`), framed in place as Encode is; nullopt, with `payload` left as
  /// it was, for a framing whose frames announce no length (NDJSON) or one that cannot say
  /// `length`.
  virtual std::optional<std::string> EncodeClaiming(std::string&& payload,
                                                    std::uint64_t length) const = 0;

  /// Whether the stream survives a frame the decoder could not take.
  virtual Resync resync() const = 0;

  /// Why an oversized frame's header announced what it did: a sentence of one of checks(),
  /// appended to the engine's `oversized` message (length-prefixed: the header is text, or
  /// big-endian); nullopt when there is nothing to add.
  virtual std::optional<Wording> DiagnoseHeader(const Oversized& frame,
                                                std::uint64_t max_payload) const = 0;
  /// The `${expected}` of a frame cut short at EOF: its whole size when the header said it,
  /// else what the framing knows ("at least 4").
  virtual std::string ExpectedSize(const TruncatedAtEof& cut) const = 0;

  /// The checks this framing raises beyond the engine's own; see FramingCheck.
  virtual const std::vector<FramingCheck>& checks() const = 0;
  /// What a fuzzer may write to break this framing, in a fixed order (a seed picks by index).
  virtual const std::vector<RawFault>& raw_faults() const = 0;
};

/// The framing a profile names, or nullptr for a name no framing has.
const Framing* FindFraming(std::string_view name);
/// Every framing's name, in registration order (for messages).
std::vector<std::string> FramingNames();

}  // namespace fakehost::wire
