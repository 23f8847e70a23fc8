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

// Over 60 lines: the decoder's whole state machine in one loop, so each byte's state is visible.
void NdjsonDecoder::Feed(std::string_view bytes, std::vector<Event>* out) {
  const char* p = bytes.data();
  std::size_t n = bytes.size();
  auto consume = [&](std::size_t k) {
    p += k;
    n -= k;
    offset_ += k;
  };
  // A line may hold one byte more than the limit while it is incomplete: a '\r' that the
  // newline will turn into part of the terminator.
  const std::uint64_t hold_limit = max_line_ == UINT64_MAX ? max_line_ : max_line_ + 1;

  while (n > 0) {
    const char* nl = FindNewline(p, n);
    const std::size_t k = nl ? static_cast<std::size_t>(nl - p) : n;

    if (skipping_) {
      if (skip_head_.size() < kOversizedHeadKept) {
        skip_head_.append(p, std::min(k, kOversizedHeadKept - skip_head_.size()));
      }
      skip_count_ += k;
      if (k > 0) skip_last_cr_ = p[k - 1] == '\r';
      if (!nl) {
        consume(n);
        return;
      }
      if (skip_last_cr_) --skip_count_;
      EmitOversized(out);
      consume(k + 1);
      continue;
    }

    if (line_.empty()) {
      if (nl) {
        // Fast path: a whole line in this read is copied once, straight into the frame.
        EmitLine(p, k, offset_, out);
        consume(k + 1);
        continue;
      }
      line_offset_ = offset_;
      if (k > hold_limit) {
        StartSkipping(std::string_view(p, k), k, p[k - 1] == '\r');
      } else {
        line_.assign(p, k);
      }
      consume(n);
      return;
    }

    // A line that began in an earlier read.
    const std::uint64_t total = line_.size() + std::uint64_t{k};
    const bool last_is_cr = k > 0 ? p[k - 1] == '\r' : line_.back() == '\r';
    if (total > hold_limit) {
      if (line_.size() < kOversizedHeadKept) {
        line_.append(p, std::min(k, kOversizedHeadKept - line_.size()));
      }
      StartSkipping(line_, total, last_is_cr);
      line_.clear();
      if (line_.capacity() > kKeepBufferCapacity) line_ = std::string();
      if (!nl) {
        consume(n);
        return;
      }
      if (skip_last_cr_) --skip_count_;
      EmitOversized(out);
      consume(k + 1);
      continue;
    }
    line_.append(p, k);
    if (!nl) {
      consume(n);
      return;
    }
    consume(k + 1);
    if (line_.back() == '\r') line_.pop_back();
    if (line_.size() > max_line_) {
      out->emplace_back(Oversized{line_.size(), line_offset_, line_.substr(0, kOversizedHeadKept)});
    } else if (!line_.empty()) {
      out->emplace_back(Frame{std::move(line_), line_offset_});
      line_ = std::string();
    }
    line_.clear();
    if (line_.capacity() > kKeepBufferCapacity) line_ = std::string();
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
