#include "harness/wire/ndjson.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace fakehost::wire {
namespace {

// Oversized::header keeps this much of a long line.
constexpr std::size_t kOversizedHeadKept = 16;
// A partial-line buffer larger than this is released once its line is done, so one huge line
// does not pin megabytes for the rest of the session.
constexpr std::size_t kKeepBufferCapacity = 64 * 1024;

const char* FindNewline(const char* p, std::size_t n) {
  return static_cast<const char*>(std::memchr(p, '\n', n));
}

}  // namespace

std::unique_ptr<Decoder> NdjsonFraming::MakeDecoder(std::uint64_t max_payload) const {
  return std::make_unique<NdjsonDecoder>(max_payload);
}

std::string NdjsonFraming::Encode(std::string payload) const {
  payload.push_back('\n');
  return payload;
}

Framing::Wrapping NdjsonFraming::Wrap(std::uint64_t) const { return {"", "\n"}; }

// An unterminated line needed at least its newline more.
std::string NdjsonFraming::ExpectedSize(const TruncatedAtEof& cut) const {
  return "at least " + std::to_string(cut.received + 1);
}

const std::vector<FramingCheck>& NdjsonFraming::checks() const {
  static const std::vector<FramingCheck> none;
  return none;
}

// None loses the stream: each costs at most the line it is on.
const std::vector<RawFault>& NdjsonFraming::raw_faults() const {
  using B = RawFault::Bytes;
  using C = RawFault::Claim;
  static const std::vector<RawFault> faults = {
      {"stray bytes", B::kLiteral, "hello world, not JSON\n", false, C::kHonest, false},
      {"CRLF line ending", B::kFrame, "\r\n", false, C::kHonest, false},
      {"oversized line", B::kOverLimit, "", true, C::kHonest, false},
  };
  return faults;
}

void NdjsonDecoder::EmitLine(const char* line, std::size_t length, std::uint64_t offset,
                             std::vector<Event>* out) const {
  if (length > 0 && line[length - 1] == '\r') --length;
  if (length == 0) return;
  if (length > max_line_) {
    out->emplace_back(
        Oversized{length, offset, std::string(line, std::min(length, kOversizedHeadKept))});
    return;
  }
  out->emplace_back(Frame{std::string(line, length), offset});
}

void NdjsonDecoder::StartSkipping(std::string_view head, std::uint64_t counted, bool last_is_cr) {
  skipping_ = true;
  skip_count_ = counted;
  skip_last_cr_ = last_is_cr;
  skip_head_.assign(head.substr(0, kOversizedHeadKept));
}

void NdjsonDecoder::EmitOversized(std::vector<Event>* out) {
  // The head may end in the '\r' that turned out to be part of the terminator.
  if (skip_head_.size() > skip_count_) skip_head_.resize(skip_count_);
  out->emplace_back(Oversized{skip_count_, line_offset_, std::move(skip_head_)});
  skipping_ = false;
  skip_head_.clear();
}

// A line may hold one byte more than the limit while it is incomplete: a '\r' that the
// newline will turn into part of the terminator.
std::uint64_t NdjsonDecoder::HoldLimit() const {
  return max_line_ == UINT64_MAX ? max_line_ : max_line_ + 1;
}

// A buffer that grew for one huge line is not kept for the rest of the session.
void NdjsonDecoder::ReleaseLine() {
  line_.clear();
  if (line_.capacity() > kKeepBufferCapacity) line_ = std::string();
}

void NdjsonDecoder::EndSkipping(std::vector<Event>* out) {
  if (skip_last_cr_) --skip_count_;
  EmitOversized(out);
}

void NdjsonDecoder::SkipSegment(std::string_view segment, bool ends_line, std::vector<Event>* out) {
  if (skip_head_.size() < kOversizedHeadKept)
    skip_head_.append(segment.substr(0, kOversizedHeadKept - skip_head_.size()));
  skip_count_ += segment.size();
  if (!segment.empty()) skip_last_cr_ = segment.back() == '\r';
  if (ends_line) EndSkipping(out);
}

void NdjsonDecoder::StartLine(std::string_view segment, bool ends_line, std::vector<Event>* out) {
  if (ends_line) {
    // Fast path: a whole line in this read is copied once, straight into the frame.
    EmitLine(segment.data(), segment.size(), offset_, out);
    return;
  }
  line_offset_ = offset_;
  if (segment.size() > HoldLimit()) {
    StartSkipping(segment, segment.size(), segment.back() == '\r');
  } else {
    line_.assign(segment);
  }
}

void NdjsonDecoder::ContinueLine(std::string_view segment, bool ends_line,
                                 std::vector<Event>* out) {
  const std::uint64_t total = line_.size() + std::uint64_t{segment.size()};
  const bool last_is_cr = !segment.empty() ? segment.back() == '\r' : line_.back() == '\r';
  if (total > HoldLimit()) {
    if (line_.size() < kOversizedHeadKept)
      line_.append(segment.substr(0, kOversizedHeadKept - line_.size()));
    StartSkipping(line_, total, last_is_cr);
    ReleaseLine();
    if (ends_line) EndSkipping(out);
    return;
  }
  line_.append(segment);
  if (ends_line) EmitHeldLine(out);
}

void NdjsonDecoder::EmitHeldLine(std::vector<Event>* out) {
  if (line_.back() == '\r') line_.pop_back();
  if (line_.size() > max_line_) {
    out->emplace_back(Oversized{line_.size(), line_offset_, line_.substr(0, kOversizedHeadKept)});
  } else if (!line_.empty()) {
    out->emplace_back(Frame{std::move(line_), line_offset_});
    line_ = std::string();
  }
  ReleaseLine();
}

// Each pass takes the bytes up to the next newline (or all that is left), and the newline.
void NdjsonDecoder::Feed(std::string_view bytes, std::vector<Event>* out) {
  while (!bytes.empty()) {
    const char* nl = FindNewline(bytes.data(), bytes.size());
    const bool ends_line = nl != nullptr;
    const std::string_view segment =
        bytes.substr(0, ends_line ? static_cast<std::size_t>(nl - bytes.data()) : bytes.size());
    if (skipping_) {
      SkipSegment(segment, ends_line, out);
    } else if (line_.empty()) {
      StartLine(segment, ends_line, out);
    } else {
      ContinueLine(segment, ends_line, out);
    }
    const std::size_t used = segment.size() + (ends_line ? 1 : 0);
    offset_ += used;
    bytes.remove_prefix(used);
  }
}

void NdjsonDecoder::Finish(std::vector<Event>* out) {
  if (skipping_) {
    EmitOversized(out);
  } else if (line_.size() > max_line_) {
    out->emplace_back(Oversized{line_.size(), line_offset_, line_.substr(0, kOversizedHeadKept)});
  } else if (!line_.empty()) {
    const std::uint64_t size = line_.size();
    out->emplace_back(TruncatedAtEof{line_offset_, 0, size, std::move(line_)});
  }
  line_ = std::string();
}

}  // namespace fakehost::wire
