#include "harness/wire/length_prefixed.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

namespace fakehost::wire {
namespace {

// TruncatedAtEof keeps only this much payload: enough to recognise what was being sent.
constexpr std::size_t kTruncatedPayloadKept = 64;

std::uint32_t ReadLe32(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return static_cast<std::uint32_t>(u[0]) | static_cast<std::uint32_t>(u[1]) << 8 |
         static_cast<std::uint32_t>(u[2]) << 16 | static_cast<std::uint32_t>(u[3]) << 24;
}

std::string LengthHeader(std::uint32_t length) {
  std::string header(4, '\0');
  for (std::size_t i = 0; i < 4; ++i) header[i] = static_cast<char>((length >> (8 * i)) & 0xFFu);
  return header;
}

// Text a plugin printed where a header belongs: no control bytes but line ends and tabs.
bool LooksLikeText(std::string_view bytes) {
  for (unsigned char c : bytes)
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') return false;
  return !bytes.empty();
}

std::string SpacedHex(std::string_view bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    if (!out.empty()) out += ' ';
    out += kDigits[c >> 4];
    out += kDigits[c & 0xF];
  }
  return out;
}

}  // namespace

std::unique_ptr<Decoder> LengthPrefixedFraming::MakeDecoder(std::uint64_t max_payload) const {
  return std::make_unique<LengthPrefixedDecoder>(max_payload);
}

std::string LengthPrefixedFraming::Encode(std::string payload) const {
  if (payload.size() > std::numeric_limits<std::uint32_t>::max()) {
    // A u32 cannot say it; a truncated length would desynchronise the stream.
    throw std::length_error("payload too long for a u32 length prefix");
  }
  payload.insert(0, LengthHeader(static_cast<std::uint32_t>(payload.size())));
  return payload;
}

Framing::Wrapping LengthPrefixedFraming::Wrap(std::uint64_t size) const {
  if (size > std::numeric_limits<std::uint32_t>::max())
    throw std::length_error("payload too long for a u32 length prefix");
  return {LengthHeader(static_cast<std::uint32_t>(size)), ""};
}

std::optional<std::string> LengthPrefixedFraming::EncodeClaiming(std::string&& payload,
                                                                 std::uint64_t length) const {
  if (length > std::numeric_limits<std::uint32_t>::max()) return std::nullopt;
  payload.insert(0, LengthHeader(static_cast<std::uint32_t>(length)));
  return std::move(payload);
}

// Why a length header may be absurd: the diagnosis a plugin author needs, not the number.
std::optional<Wording> LengthPrefixedFraming::DiagnoseHeader(const Oversized& frame,
                                                             std::uint64_t max_payload) const {
  std::string_view header = frame.header;
  if (header.size() != 4) return std::nullopt;
  if (LooksLikeText(header))
    return Wording{"header-text", {{"hex", SpacedHex(header)}, {"text", std::string(header)}}};
  std::uint32_t big_endian = 0;
  for (unsigned char c : header) big_endian = (big_endian << 8) | c;
  if (big_endian <= max_payload)
    return Wording{"header-big-endian", {{"size", std::to_string(big_endian)}}};
  return std::nullopt;
}

std::string LengthPrefixedFraming::ExpectedSize(const TruncatedAtEof& cut) const {
  return cut.expected ? std::to_string(cut.expected) : std::string("at least 4");
}

const std::vector<FramingCheck>& LengthPrefixedFraming::checks() const {
  static const std::vector<FramingCheck> checks = {
      {"header-text", {"hex", "text"}},
      {"header-big-endian", {"size"}},
  };
  return checks;
}

// Each loses the stream: a header that lies leaves the reader inside a payload, or past one.
const std::vector<RawFault>& LengthPrefixedFraming::raw_faults() const {
  using B = RawFault::Bytes;
  using C = RawFault::Claim;
  static const std::vector<RawFault> faults = {
      {"length header longer than the payload", B::kFrame, "", true, C::kLonger, true},
      {"length header shorter than the payload", B::kFrame, "", true, C::kShorter, true},
      {"oversized length header", B::kEmptyObject, "", true, C::kOverLimit, true},
      {"stray bytes between frames", B::kLiteral, "hello\n", false, C::kHonest, true},
  };
  return faults;
}

void LengthPrefixedDecoder::Stop(std::uint32_t announced, std::vector<Event>* out) {
  out->emplace_back(Oversized{announced, frame_offset_, std::string(header_, 4)});
  stopped_ = true;
  header_len_ = 0;
  payload_ = std::string();
}

void LengthPrefixedDecoder::HeaderComplete(std::vector<Event>* out) {
  length_ = ReadLe32(header_);
  if (length_ > max_payload_) {
    Stop(length_, out);
    return;
  }
  if (length_ == 0) {
    out->emplace_back(Frame{std::string(), frame_offset_});
    header_len_ = 0;
  }
}

// Fast path: the header is whole in this read; if the payload is too, it is copied once,
// straight into the frame.
std::size_t LengthPrefixedDecoder::TakeWholeHeader(std::string_view bytes,
                                                   std::vector<Event>* out) {
  frame_offset_ = offset_;
  std::memcpy(header_, bytes.data(), 4);
  const std::uint32_t length = ReadLe32(header_);
  if (length <= max_payload_ && bytes.size() - 4 >= length) {
    out->emplace_back(Frame{std::string(bytes.substr(4, length)), frame_offset_});
    return 4 + std::size_t{length};
  }
  header_len_ = 4;
  HeaderComplete(out);
  return 4;
}

std::size_t LengthPrefixedDecoder::TakeHeaderBytes(std::string_view bytes,
                                                   std::vector<Event>* out) {
  if (header_len_ == 0) frame_offset_ = offset_;
  const std::size_t take = std::min(4 - header_len_, bytes.size());
  std::memcpy(header_ + header_len_, bytes.data(), take);
  header_len_ += take;
  if (header_len_ == 4) HeaderComplete(out);
  return take;
}

// A payload split across reads. Grow geometrically for linear copying, but never beyond
// twice what has arrived or beyond the announced length: a header may lie.
std::size_t LengthPrefixedDecoder::TakePayloadBytes(std::string_view bytes,
                                                    std::vector<Event>* out) {
  const std::size_t take = std::min<std::size_t>(length_ - payload_.size(), bytes.size());
  const std::size_t needed = payload_.size() + take;
  if (payload_.capacity() < needed) {
    // A string made at its size has exactly that capacity; reserve() may give more (libstdc++
    // doubles the old capacity, from its 15 inline bytes to 30 for a frame of 16 to 29).
    std::string grown(std::min<std::size_t>(length_, std::max(needed, 2 * payload_.size())), '\0');
    grown.assign(payload_);
    payload_.swap(grown);
  }
  payload_.append(bytes.substr(0, take));
  if (payload_.size() == length_) {
    out->emplace_back(Frame{std::move(payload_), frame_offset_});
    payload_ = std::string();
    header_len_ = 0;
  }
  return take;
}

// Each pass takes one piece of a frame: a whole header, some header bytes, or payload bytes.
// Once the decoder stops, what is left is only counted.
void LengthPrefixedDecoder::Feed(std::string_view bytes, std::vector<Event>* out) {
  while (!bytes.empty() && !stopped_) {
    std::size_t used = 0;
    if (header_len_ == 0 && bytes.size() >= 4) {
      used = TakeWholeHeader(bytes, out);
    } else if (header_len_ < 4) {
      used = TakeHeaderBytes(bytes, out);
    } else {
      used = TakePayloadBytes(bytes, out);
    }
    offset_ += used;
    bytes.remove_prefix(used);
  }
  discarded_ += bytes.size();
}

void LengthPrefixedDecoder::Finish(std::vector<Event>* out) {
  if (stopped_ || header_len_ == 0) return;
  TruncatedAtEof t;
  t.offset = frame_offset_;
  t.expected = header_len_ == 4 ? 4 + std::uint64_t{length_} : 0;
  t.received = header_len_ + payload_.size();
  t.bytes.assign(header_, header_len_);
  t.bytes.append(payload_, 0, std::min(payload_.size(), kTruncatedPayloadKept));
  out->emplace_back(std::move(t));
  header_len_ = 0;
  payload_ = std::string();
}

}  // namespace fakehost::wire
