// The Content-Length framing, as the Language Server Protocol's base protocol writes it: a
// header of `Name: value` lines, each ended by "\r\n", then an empty line, then exactly the
// Content-Length bytes of payload.
//
//   Content-Length: 52\r\n
//   \r\n
//   {"jsonrpc":"2.0","id":1,"method":"initialize", ...}
//
// The rules, where the LSP text leaves room: header names are case-insensitive; Content-Length
// is required, once, and is decimal digits only; any other well-formed field (Content-Type) is
// read past; a header is at most 1 KiB. A header that breaks these is a BadHeader, a length
// over the limit an Oversized; after either the stream is lost, as after a lying length prefix
// (nothing tells where the next header begins). Memory is bounded by what has arrived, never by
// what a header announces.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "harness/wire/framing.hpp"

namespace fakehost::wire {

class ContentLengthDecoder final : public Decoder {
 public:
  explicit ContentLengthDecoder(std::uint64_t max_payload) : max_payload_(max_payload) {}

  void Feed(std::string_view bytes, std::vector<Event>* out) override;
  void Finish(std::vector<Event>* out) override;
  bool stopped() const override { return stopped_; }
  std::uint64_t discarded() const override { return discarded_; }

  /// Capacity of the buffers holding a partly received frame: the header (at most 1 KiB, plus
  /// what one read added) and the payload (at most twice what arrived, never over the length).
  std::size_t buffered_capacity() const { return header_.capacity() + payload_.capacity(); }

 private:
  /// Reads the complete header in header_ (blank line excluded); stops the decoder if it is
  /// malformed or announces more than the limit.
  void HeaderComplete(std::vector<Event>* out);
  // Feed's two states, each taking what it can from the front of `bytes`: returns how many.
  std::size_t TakeHeaderBytes(std::string_view bytes, std::vector<Event>* out);
  std::size_t TakePayloadBytes(std::string_view bytes, std::vector<Event>* out);
  /// Forgets the frame just emitted: the next byte begins a header.
  void EndFrame();
  void Stop(Event event, std::vector<Event>* out);
  void Release();

  std::uint64_t max_payload_;
  std::uint64_t offset_ = 0;        // stream offset of the next byte to consume
  std::uint64_t frame_offset_ = 0;  // stream offset of the current frame's first header byte
  std::string header_;              // header bytes so far (the blank line included once found)
  bool in_payload_ = false;         // the header is read; length_ bytes of payload follow
  std::uint64_t length_ = 0;
  std::string payload_;
  bool stopped_ = false;
  std::uint64_t discarded_ = 0;
};

/// "content-length".
class ContentLengthFraming final : public Framing {
 public:
  std::string_view name() const override { return "content-length"; }
  std::unique_ptr<Decoder> MakeDecoder(std::uint64_t max_payload) const override;
  std::string Encode(std::string payload) const override;
  Wrapping Wrap(std::uint64_t size) const override;
  std::optional<std::string> EncodeClaiming(std::string&& payload,
                                            std::uint64_t length) const override;
  Resync resync() const override { return Resync::kStreamLost; }
  std::optional<Wording> DiagnoseHeader(const Oversized&, std::uint64_t) const override {
    return std::nullopt;  // the header is text and says its number itself
  }
  std::string ExpectedSize(const TruncatedAtEof& cut) const override;
  const std::vector<FramingCheck>& checks() const override;
  const std::vector<RawFault>& raw_faults() const override;
};

}  // namespace fakehost::wire
