#include "harness/wire/content_length.hpp"

#include <algorithm>
#include <utility>

namespace fakehost::wire {
namespace {

constexpr std::string_view kEnd = "\r\n\r\n";
// A header is a line or two; a longer one is not a header (and is never buffered further).
constexpr std::size_t kMaxHeader = 1024;
// BadHeader and TruncatedAtEof keep this much of a header or payload: enough to recognise it.
constexpr std::size_t kKept = 64;

bool TokenChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool SameName(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return (x | 0x20) == (y | 0x20);
         });
}

// The length a header announces, or "" with `*length` set; else what is wrong with it.
std::string ParseHeader(std::string_view header, std::uint64_t* length) {
  bool found = false;
  while (!header.empty()) {
    const std::size_t end = header.find("\r\n");
    std::string_view line = header.substr(0, end);
    header = end == std::string_view::npos ? std::string_view() : header.substr(end + 2);
    const std::size_t colon = line.find(':');
    if (colon == 0 || colon == std::string_view::npos ||
        !std::all_of(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(colon), TokenChar))
      return "a header line is not `Name: value`";
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
      value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    if (!SameName(line.substr(0, colon), "Content-Length")) continue;  // Content-Type, ...
    if (found) return "Content-Length is given twice";
    if (value.empty() || value.size() > 19 ||
        !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return "Content-Length is not a number of bytes";
    *length = 0;
    for (char c : value) *length = *length * 10 + static_cast<std::uint64_t>(c - '0');
    found = true;
  }
  return found ? "" : "no Content-Length field";
}

std::string Header(std::uint64_t length) {
  return "Content-Length: " + std::to_string(length) + "\r\n\r\n";
}

}  // namespace

void ContentLengthDecoder::Stop(Event event, std::vector<Event>* out) {
  out->push_back(std::move(event));
  stopped_ = true;
  Release();
}

// Assigning an empty string would keep the buffer (libstdc++ copies a short string in).
void ContentLengthDecoder::Release() {
  std::string().swap(header_);
  std::string().swap(payload_);
}

void ContentLengthDecoder::HeaderComplete(std::vector<Event>* out) {
  // The fields: the header without the "\r\n\r\n" that ends its last line and the header.
  const std::string_view fields = std::string_view(header_).substr(0, header_.size() - kEnd.size());
  std::uint64_t length = 0;
  const std::string bad = ParseHeader(fields, &length);
  if (!bad.empty()) {
    Stop(BadHeader{frame_offset_, header_.substr(0, kKept), bad}, out);
    return;
  }
  if (length > max_payload_) {
    Stop(Oversized{length, frame_offset_, header_.substr(0, kKept)}, out);
    return;
  }
  length_ = length;
  in_payload_ = true;
  if (length_ == 0) {
    out->emplace_back(Frame{std::string(), frame_offset_});
    header_.clear();
    in_payload_ = false;
  }
}

// Looks for the blank line across what was held and what came: at most 3 bytes back.
std::size_t ContentLengthDecoder::TakeHeaderBytes(std::string_view bytes, std::vector<Event>* out) {
  if (header_.empty()) frame_offset_ = offset_;
  const std::size_t held = header_.size();
  const std::size_t room = kMaxHeader + kEnd.size() - held;
  header_.append(bytes.substr(0, std::min(bytes.size(), room)));
  const std::size_t end = header_.find(kEnd, held < 3 ? 0 : held - 3);
  if (end == std::string::npos) {
    if (header_.size() < kMaxHeader + kEnd.size()) return bytes.size();
    const std::size_t used = header_.size() - held;
    Stop(BadHeader{frame_offset_, header_.substr(0, kKept),
                   "no blank line within the first " + std::to_string(kMaxHeader) + " bytes"},
         out);
    return used;
  }
  header_.resize(end + kEnd.size());
  const std::size_t used = header_.size() - held;
  HeaderComplete(out);
  return used;
}

// The payload: straight into the frame when it is whole in this read; else grown
// geometrically, never beyond twice what arrived or beyond the announced length.
std::size_t ContentLengthDecoder::TakePayloadBytes(std::string_view bytes,
                                                   std::vector<Event>* out) {
  if (payload_.empty() && bytes.size() >= length_) {
    out->emplace_back(Frame{std::string(bytes.substr(0, length_)), frame_offset_});
    EndFrame();
    return static_cast<std::size_t>(length_);
  }
  const std::size_t take =
      static_cast<std::size_t>(std::min<std::uint64_t>(length_ - payload_.size(), bytes.size()));
  const std::size_t needed = payload_.size() + take;
  if (payload_.capacity() < needed) {
    std::string grown;
    grown.reserve(static_cast<std::size_t>(
        std::min<std::uint64_t>(length_, std::max(needed, 2 * payload_.size()))));
    grown.append(payload_);
    payload_.swap(grown);
  }
  payload_.append(bytes.substr(0, take));
  if (payload_.size() == length_) {
    out->emplace_back(Frame{std::move(payload_), frame_offset_});
    EndFrame();
  }
  return take;
}

void ContentLengthDecoder::EndFrame() {
  payload_ = std::string();
  header_.clear();
  in_payload_ = false;
}

// Each pass takes header bytes or payload bytes. Once the decoder stops, what is left is only
// counted.
void ContentLengthDecoder::Feed(std::string_view bytes, std::vector<Event>* out) {
  while (!bytes.empty() && !stopped_) {
    const std::size_t used =
        in_payload_ ? TakePayloadBytes(bytes, out) : TakeHeaderBytes(bytes, out);
    offset_ += used;
    bytes.remove_prefix(used);
  }
  discarded_ += bytes.size();
}

void ContentLengthDecoder::Finish(std::vector<Event>* out) {
  if (stopped_ || header_.empty()) return;
  TruncatedAtEof t;
  t.offset = frame_offset_;
  t.expected = in_payload_ ? header_.size() + length_ : 0;
  t.received = header_.size() + payload_.size();
  t.bytes = header_.substr(0, in_payload_ ? header_.size() : kKept);
  t.bytes.append(payload_, 0, std::min(payload_.size(), kKept));
  out->emplace_back(std::move(t));
  Release();
  in_payload_ = false;
}

std::unique_ptr<Decoder> ContentLengthFraming::MakeDecoder(std::uint64_t max_payload) const {
  return std::make_unique<ContentLengthDecoder>(max_payload);
}

std::string ContentLengthFraming::Encode(std::string payload) const {
  payload.insert(0, Header(payload.size()));
  return payload;
}

Framing::Wrapping ContentLengthFraming::Wrap(std::uint64_t size) const {
  return {Header(size), ""};
}

std::optional<std::string> ContentLengthFraming::EncodeClaiming(std::string&& payload,
                                                                std::uint64_t length) const {
  payload.insert(0, Header(length));
  return std::move(payload);
}

std::string ContentLengthFraming::ExpectedSize(const TruncatedAtEof& cut) const {
  return cut.expected ? std::to_string(cut.expected)
                      : "more than " + std::to_string(cut.received) + " (the header was not done)";
}

const std::vector<FramingCheck>& ContentLengthFraming::checks() const {
  static const std::vector<FramingCheck> checks = {
      {kBadHeaderCheck, {"frame", "header", "reason"}},
  };
  return checks;
}

// Each loses the stream: after a lying length the reader is inside a body, or past one.
const std::vector<RawFault>& ContentLengthFraming::raw_faults() const {
  using B = RawFault::Bytes;
  using C = RawFault::Claim;
  static const std::vector<RawFault> faults = {
      {"Content-Length longer than the body", B::kFrame, "", true, C::kLonger, true},
      {"Content-Length shorter than the body", B::kFrame, "", true, C::kShorter, true},
      {"oversized Content-Length", B::kEmptyObject, "", true, C::kOverLimit, true},
      {"stray bytes between frames", B::kLiteral, "hello\n", false, C::kHonest, true},
  };
  return faults;
}

}  // namespace fakehost::wire
