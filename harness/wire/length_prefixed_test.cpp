#include "harness/wire/length_prefixed.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "harness/wire/test_support.hpp"

namespace fakehost::wire {
namespace {

using testing::Describe;
using testing::FeedCut;
using testing::FeedInPieces;

constexpr std::uint64_t kRimMax = 4'194'304;

std::string Framed(std::string_view payload) {
  return LengthPrefixedFraming().Encode(std::string(payload));
}

// A header announcing `length`, whatever follows.
std::string LengthHeader(std::uint32_t length) {
  return *LengthPrefixedFraming().EncodeClaiming("", length);
}

TEST(LengthPrefixedDecoder, DecodesAFrameThatArrivesInOneRead) {
  LengthPrefixedDecoder decoder(kRimMax);
  EXPECT_EQ(Describe(FeedCut(decoder, Framed(R"({"id":1})"), {})), "Frame@0[{\"id\":1}]\n");
}

TEST(LengthPrefixedDecoder, ReassemblesFramesSplitAtEveryByteBoundary) {
  const std::string stream = Framed(R"({"a":1})") + Framed("[2,3]");
  const std::string expected = "Frame@0[{\"a\":1}]\nFrame@11[[2,3]]\n";
  for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
    LengthPrefixedDecoder decoder(kRimMax);
    EXPECT_EQ(Describe(FeedCut(decoder, stream, {cut})), expected) << "cut at " << cut;
  }
  for (std::size_t a = 0; a <= stream.size(); ++a) {
    for (std::size_t b = a; b <= stream.size(); ++b) {
      LengthPrefixedDecoder decoder(kRimMax);
      EXPECT_EQ(Describe(FeedCut(decoder, stream, {a, b})), expected) << "cuts " << a << "," << b;
    }
  }
  LengthPrefixedDecoder one_by_one(kRimMax);
  EXPECT_EQ(Describe(FeedInPieces(one_by_one, stream, 1)), expected);
}

TEST(LengthPrefixedDecoder, DecodesSeveralFramesInOneReadWithTheirOffsets) {
  const std::string stream = Framed("a") + Framed("") + Framed("bcd") + Framed("e");
  LengthPrefixedDecoder decoder(kRimMax);
  EXPECT_EQ(Describe(FeedCut(decoder, stream, {})),
            "Frame@0[a]\nFrame@5[]\nFrame@9[bcd]\nFrame@16[e]\n");
}

TEST(LengthPrefixedDecoder, AcceptsAPayloadOfExactlyTheMaximum) {
  const std::string payload(kRimMax, 'x');
  LengthPrefixedDecoder decoder(kRimMax);
  const std::vector<Event> events = FeedInPieces(decoder, Framed(payload), 65536);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(std::get<Frame>(events[0]).payload.size(), kRimMax);
  EXPECT_FALSE(decoder.stopped());
}

TEST(LengthPrefixedDecoder, ReportsOneByteOverTheMaximumAndStops) {
  const std::string stream = Framed("ok") + LengthHeader(kRimMax + 1) + "0123456789";
  LengthPrefixedDecoder decoder(kRimMax);
  std::vector<Event> events;
  decoder.Feed(stream, &events);
  decoder.Feed("more", &events);
  decoder.Finish(&events);
  EXPECT_EQ(Describe(events),
            "Frame@0[ok]\nOversized@6 announced=4194305 header=[\\x01\\x00@\\x00]\n");
  EXPECT_TRUE(decoder.stopped());
  EXPECT_EQ(decoder.discarded(), 14u);
}

TEST(LengthPrefixedDecoder, NeverAllocatesTheLengthAHeaderAnnounces) {
  LengthPrefixedDecoder decoder(kRimMax);
  std::vector<Event> events;
  decoder.Feed(LengthHeader(0xFFFFFFFFu) + std::string(1000, 'x'), &events);
  EXPECT_EQ(Describe(events), "Oversized@0 announced=4294967295 header=[\\xff\\xff\\xff\\xff]\n");
  EXPECT_LT(decoder.buffered_capacity(), 64u);
  EXPECT_EQ(decoder.discarded(), 1000u);
}

TEST(LengthPrefixedDecoder, BuffersOnlyWhatHasArrivedOfALegalButLyingLength) {
  LengthPrefixedDecoder decoder(kRimMax);
  std::vector<Event> events;
  decoder.Feed(LengthHeader(kRimMax) + "0123456789", &events);
  decoder.Feed("abcdefghij", &events);
  EXPECT_TRUE(events.empty());
  EXPECT_LT(decoder.buffered_capacity(), 64u);
  decoder.Finish(&events);
  EXPECT_EQ(Describe(events),
            "TruncatedAtEof@0 expected=4194308 received=24 bytes=[\\x00\\x00@\\x000123456789"
            "abcdefghij]\n");
}

TEST(LengthPrefixedDecoder, KeepsItsBufferWithinTwiceWhatArrived) {
  const std::string payload(1'000'000, 'y');
  const std::string stream = Framed(payload);
  LengthPrefixedDecoder decoder(kRimMax);
  std::vector<Event> events;
  std::size_t fed = 0;
  for (std::size_t at = 0; at < stream.size(); at += 4096) {
    decoder.Feed(std::string_view(stream).substr(at, 4096), &events);
    fed = std::min(stream.size(), at + 4096);
    if (events.empty()) {
      ASSERT_LE(decoder.buffered_capacity(), 2 * (fed - 4)) << "after " << fed << " bytes";
      ASSERT_LE(decoder.buffered_capacity(), payload.size()) << "after " << fed << " bytes";
    }
  }
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(std::get<Frame>(events[0]).payload, payload);
}

// A small frame split across reads never holds more than its announced length either: a
// reserve() of 23 bytes gave 30 (libstdc++ doubles its 15 inline bytes), past the bound the
// fuzzer checks (fuzz/regressions/length_prefixed/capacity-past-the-announced-length).
TEST(LengthPrefixedDecoder, KeepsASmallSplitFrameWithinItsLength) {
  const std::string payload(23, 'z');
  const std::string stream = Framed(payload);
  LengthPrefixedDecoder decoder(kRimMax);
  std::vector<Event> events;
  for (std::size_t at = 0; at < stream.size(); at += 5) {
    decoder.Feed(std::string_view(stream).substr(at, 5), &events);
    if (events.empty()) {
      ASSERT_LE(decoder.buffered_capacity(), payload.size()) << "at " << at;
    }
  }
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(std::get<Frame>(events[0]).payload, payload);
}

TEST(LengthPrefixedDecoder, ReportsEofInsideTheHeader) {
  LengthPrefixedDecoder decoder(kRimMax);
  const std::string stream = Framed("abc") + LengthHeader(5).substr(0, 2);
  EXPECT_EQ(Describe(FeedCut(decoder, stream, {1, 8})),
            "Frame@0[abc]\nTruncatedAtEof@7 expected=0 received=2 bytes=[\\x05\\x00]\n");
}

TEST(LengthPrefixedDecoder, ReportsEofInsideThePayloadWithBothNumbers) {
  const std::string payload(70, 'p');
  const std::string stream = LengthHeader(100) + payload;
  LengthPrefixedDecoder decoder(kRimMax);
  const std::vector<Event> events = FeedInPieces(decoder, stream, 3);
  ASSERT_EQ(events.size(), 1u);
  const auto& t = std::get<TruncatedAtEof>(events[0]);
  EXPECT_EQ(t.offset, 0u);
  EXPECT_EQ(t.expected, 104u);
  EXPECT_EQ(t.received, 74u);
  EXPECT_EQ(t.bytes, LengthHeader(100) + std::string(64, 'p'));
}

TEST(LengthPrefixedDecoder, ReportsNothingAtEofBetweenFrames) {
  LengthPrefixedDecoder decoder(kRimMax);
  std::vector<Event> events;
  decoder.Finish(&events);
  EXPECT_TRUE(events.empty());
  EXPECT_EQ(Describe(FeedCut(decoder, Framed("x"), {2})), "Frame@0[x]\n");
}

TEST(LengthPrefixedDecoder, ReportsAnOversizedHeaderSplitAcrossReads) {
  const std::string stream = Framed("ab") + "{\"id";  // text read as a length
  LengthPrefixedDecoder decoder(kRimMax);
  EXPECT_EQ(Describe(FeedCut(decoder, stream, {7, 8})),
            "Frame@0[ab]\nOversized@6 announced=1684611707 header=[{\"id]\n");
  EXPECT_TRUE(decoder.stopped());
  EXPECT_EQ(decoder.discarded(), 0u);
}

TEST(LengthPrefixedDecoder, CountsButIgnoresBytesAfterItStopped) {
  LengthPrefixedDecoder decoder(10);
  std::vector<Event> events;
  decoder.Feed(LengthHeader(11), &events);
  decoder.Feed(Framed("fine"), &events);
  decoder.Finish(&events);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<Oversized>(events[0]));
  EXPECT_EQ(decoder.discarded(), 8u);
}

TEST(LengthPrefixedDecoder, DecodesTheSameEventsWhateverTheReadSizes) {
  std::mt19937 rng(7);
  for (int round = 0; round < 2000; ++round) {
    const std::uint64_t max = rng() % 24;
    std::string stream;
    std::vector<Event> expected;
    const int frames = static_cast<int>(rng() % 6);
    for (int i = 0; i < frames; ++i) {
      const std::uint32_t length = static_cast<std::uint32_t>(rng() % 30);
      const std::uint64_t offset = stream.size();
      stream += LengthHeader(length);
      if (length > max) {
        expected.emplace_back(Oversized{length, offset, LengthHeader(length)});
        stream += std::string(rng() % 10, 'g');
        break;
      }
      const std::string payload(length, static_cast<char>('a' + i));
      stream += payload;
      expected.emplace_back(Frame{payload, offset});
    }
    if (rng() % 2 == 0 &&
        (expected.empty() || !std::holds_alternative<Oversized>(expected.back()))) {
      const std::uint64_t offset = stream.size();
      const std::string tail = LengthHeader(static_cast<std::uint32_t>(max)).substr(0, rng() % 4);
      stream += tail;
      if (!tail.empty()) expected.emplace_back(TruncatedAtEof{offset, 0, tail.size(), tail});
    }
    std::vector<std::size_t> cuts;
    for (std::size_t at = 0; at < stream.size(); at += 1 + rng() % 9) cuts.push_back(at);
    LengthPrefixedDecoder decoder(max);
    ASSERT_EQ(Describe(FeedCut(decoder, stream, cuts)), Describe(expected))
        << "stream [" << testing::Printable(stream) << "] max " << max;
  }
}

}  // namespace
}  // namespace fakehost::wire
