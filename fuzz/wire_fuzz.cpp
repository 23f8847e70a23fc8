// A framing's decoder (FUZZ_FRAMING: LengthPrefixedFraming or NdjsonFraming, FUZZ_DECODER its
// decoder class) fed a byte stream in pieces the
// fuzzer chooses. The stream is the front of the input (so frames from the seeds are read as
// frames); the limit and the split points come from its last bytes. Oracles, beyond the
// sanitizers and libFuzzer's -malloc_limit_mb:
// - the events do not depend on how the stream was split (pieces vs one read);
// - the decoder's buffer stays within its documented bound, whatever a header announces;
// - every Frame is really in the stream at its offset, framed as the protocol says, and within
//   the limit; offsets only grow.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "harness/wire/content_length.hpp"
#include "harness/wire/length_prefixed.hpp"
#include "harness/wire/ndjson.hpp"
#include "harness/wire/test_support.hpp"

namespace {

using namespace fakehost::wire;

const FUZZ_FRAMING kFraming;
using ConcreteDecoder = FUZZ_DECODER;

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "wire fuzz: %s\n", what.c_str());
  std::abort();
}

std::string DescribeAll(const std::vector<Event>& events) {
  std::string out;
  for (const auto& e : events) out += testing::Describe(e) + "\n";
  return out;
}

constexpr std::uint64_t kSmallString = 15;  // libstdc++ keeps this much inline

// The buffer bound each decoder documents: length-prefixed holds at most the announced length
// (itself within the limit) and at most twice what arrived; NDJSON at most about twice the limit,
// or the 16-byte head of an oversized line it collects in the same buffer (a growth past the
// 15 inline bytes to 30: that is the `2 * 16` floor).
[[maybe_unused]] std::uint64_t BufferBound(const LengthPrefixedDecoder&, std::uint64_t limit,
                                           std::uint64_t fed) {
  return std::max(kSmallString, std::min(limit, 2 * fed));
}
[[maybe_unused]] std::uint64_t BufferBound(const NdjsonDecoder&, std::uint64_t limit,
                                           std::uint64_t) {
  return std::max<std::uint64_t>(2 * 16, 2 * (limit + 1));
}
// Content-Length (content_length.hpp): the header, at most 1 KiB and its blank line plus what one
// read added, and the payload, at most twice what arrived and never over its length.
[[maybe_unused]] std::uint64_t BufferBound(const ContentLengthDecoder&, std::uint64_t limit,
                                           std::uint64_t fed) {
  return 2 * kSmallString + 1024 + 4 + fed + std::min(limit, 2 * fed);
}

// Whether `payload` is framed at `offset` as the framing writes it (NDJSON also reads "\r\n").
[[maybe_unused]] bool FramedAt(const LengthPrefixedFraming& framing, const std::string& stream,
                               std::uint64_t offset, const std::string& payload) {
  const std::string framed = framing.Encode(payload);
  return stream.compare(offset, framed.size(), framed) == 0;
}
[[maybe_unused]] bool FramedAt(const NdjsonFraming&, const std::string& stream,
                               std::uint64_t offset, const std::string& payload) {
  const bool cr = stream.compare(offset + payload.size(), 1, "\r") == 0;
  const std::string framed = payload + (cr ? "\r\n" : "\n");
  return stream.compare(offset, framed.size(), framed) == 0;
}

// A Content-Length frame at `offset` is a header block ending in a blank line, then the payload.
[[maybe_unused]] bool FramedAt(const ContentLengthFraming&, const std::string& stream,
                               std::uint64_t offset, const std::string& payload) {
  const std::size_t end = stream.find("\r\n\r\n", offset);
  return end != std::string::npos && stream.compare(end + 4, payload.size(), payload) == 0;
}

void CheckBuffer(const ConcreteDecoder& d, std::uint64_t limit, std::uint64_t fed) {
  const std::uint64_t cap = d.buffered_capacity();
  const std::uint64_t bound = BufferBound(d, limit, fed);
  if (cap > bound) {
    Fail("buffer capacity " + std::to_string(cap) + " above " + std::to_string(bound) + " (limit " +
         std::to_string(limit) + ", fed " + std::to_string(fed) + ")");
  }
}

void CheckFrames(const std::vector<Event>& events, const std::string& stream, std::uint64_t limit) {
  std::uint64_t last = 0;
  bool first = true;
  for (const auto& e : events) {
    const std::uint64_t offset = std::visit([](const auto& v) { return v.offset; }, e);
    if (!first && offset <= last) Fail("offsets do not grow:\n" + DescribeAll(events));
    first = false;
    last = offset;
    const auto* f = std::get_if<Frame>(&e);
    if (f == nullptr) continue;
    if (f->payload.size() > limit) Fail("a frame above the limit");
    if (!FramedAt(kFraming, stream, offset, f->payload)) {
      Fail("a frame that is not in the stream: " + testing::Describe(e));
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  // Mostly small limits, so the fuzzer reaches them; sometimes a huge one, so a lying header
  // could make the decoder reserve a lot if it trusted it.
  std::uint64_t limit = in.ConsumeIntegralInRange<std::uint64_t>(0, 300);
  if (in.ConsumeBool()) limit = std::uint64_t{1} << in.ConsumeIntegralInRange(8, 40);
  std::vector<std::size_t> pieces(in.ConsumeIntegralInRange<std::size_t>(0, 16));
  for (auto& p : pieces) p = in.ConsumeIntegralInRange<std::size_t>(0, 300);
  const std::string stream = in.ConsumeRemainingBytesAsString();

  ConcreteDecoder whole(limit);
  std::vector<Event> expected;
  whole.Feed(stream, &expected);
  CheckBuffer(whole, limit, stream.size());
  whole.Finish(&expected);

  ConcreteDecoder split(limit);
  std::vector<Event> got;
  std::size_t at = 0;
  for (std::size_t piece : pieces) {
    piece = std::min(piece, stream.size() - at);
    split.Feed(std::string_view(stream).substr(at, piece), &got);
    at += piece;
    CheckBuffer(split, limit, at);
  }
  split.Feed(std::string_view(stream).substr(at), &got);
  CheckBuffer(split, limit, stream.size());
  split.Finish(&got);
  if (whole.discarded() != split.discarded()) Fail("discarded() depends on the split");

  const std::string a = DescribeAll(expected);
  const std::string b = DescribeAll(got);
  if (a != b) Fail("events depend on the split\none read:\n" + a + "pieces:\n" + b);
  CheckFrames(expected, stream, limit);
  return 0;
}
