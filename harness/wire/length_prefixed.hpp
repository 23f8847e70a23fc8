// The length-prefixed framing (RIM v1): u32 little-endian payload length, then payload.
//
// The decoder is exposed so tests can look at what it holds (buffered_capacity()); everyone
// else gets one through the framing's MakeDecoder(). A header that announces more than the
// limit stops the decoder for good: the framing is lost, so every later byte is only counted.
// Memory is bounded by what has arrived, never by what a header announces.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "harness/wire/framing.hpp"

namespace fakehost::wire {

class LengthPrefixedDecoder final : public Decoder {
 public:
  explicit LengthPrefixedDecoder(std::uint64_t max_payload) : max_payload_(max_payload) {}

  void Feed(std::string_view bytes, std::vector<Event>* out) override;
  void Finish(std::vector<Event>* out) override;
  bool stopped() const override { return stopped_; }
  std::uint64_t discarded() const override { return discarded_; }

  /// Capacity of the buffer holding a partly received payload; at most twice the payload
  /// bytes received so far (and never more than the announced length).
  std::size_t buffered_capacity() const { return payload_.capacity(); }

 private:
  /// Called once the 4 header bytes are in header_; stops the decoder if they announce more
  /// than the limit.
  void HeaderComplete(std::vector<Event>* out);
  // Feed's three states, each taking what it can from the front of `bytes`: returns how many.
  std::size_t TakeWholeHeader(std::string_view bytes, std::vector<Event>* out);
  std::size_t TakeHeaderBytes(std::string_view bytes, std::vector<Event>* out);
  std::size_t TakePayloadBytes(std::string_view bytes, std::vector<Event>* out);
  void Stop(std::uint32_t announced, std::vector<Event>* out);

  std::uint64_t max_payload_;
  std::uint64_t offset_ = 0;        // stream offset of the next byte to consume
  std::uint64_t frame_offset_ = 0;  // stream offset of the current frame's first header byte
  char header_[4] = {};
  std::size_t header_len_ = 0;  // 4 while a payload is in progress
  std::uint32_t length_ = 0;    // announced payload length once header_len_ == 4
  std::string payload_;         // payload bytes received so far (only when split across reads)
  bool stopped_ = false;
  std::uint64_t discarded_ = 0;
};

/// "length-prefixed". An oversized header is diagnosed: text (something printed to stdout) or
/// a length that read big-endian would be within the limit (checks header-text, header-big-endian).
class LengthPrefixedFraming final : public Framing {
 public:
  std::string_view name() const override { return "length-prefixed"; }
  std::unique_ptr<Decoder> MakeDecoder(std::uint64_t max_payload) const override;
  std::string Encode(std::string payload) const override;
  Wrapping Wrap(std::uint64_t size) const override;
  std::optional<std::string> EncodeClaiming(std::string&& payload,
                                            std::uint64_t length) const override;
  Resync resync() const override { return Resync::kStreamLost; }
  std::optional<Wording> DiagnoseHeader(const Oversized& frame,
                                        std::uint64_t max_payload) const override;
  std::string ExpectedSize(const TruncatedAtEof& cut) const override;
  const std::vector<FramingCheck>& checks() const override;
  const std::vector<RawFault>& raw_faults() const override;
};

}  // namespace fakehost::wire
