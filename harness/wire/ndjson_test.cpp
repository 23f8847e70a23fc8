#include "harness/wire/ndjson.hpp"

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

constexpr std::uint64_t kFlashMax = 10'485'760;

TEST(NdjsonDecoder, ReassemblesLinesSplitAtEveryByteBoundary) {
  const std::string stream = "{\"a\":1}\n{\"b\":22}\r\n[3]\n";
  const std::string expected = "Frame@0[{\"a\":1}]\nFrame@8[{\"b\":22}]\nFrame@18[[3]]\n";
  for (std::size_t a = 0; a <= stream.size(); ++a) {
    for (std::size_t b = a; b <= stream.size(); ++b) {
      NdjsonDecoder decoder(kFlashMax);
      EXPECT_EQ(Describe(FeedCut(decoder, stream, {a, b})), expected) << "cuts " << a << "," << b;
    }
  }
  NdjsonDecoder one_by_one(kFlashMax);
  EXPECT_EQ(Describe(FeedInPieces(one_by_one, stream, 1)), expected);
}

TEST(NdjsonDecoder, DecodesSeveralLinesInOneReadWithTheirOffsets) {
  NdjsonDecoder decoder(kFlashMax);
  EXPECT_EQ(Describe(FeedCut(decoder, "a\nbc\ndef\n", {})),
            "Frame@0[a]\nFrame@2[bc]\nFrame@5[def]\n");
}

TEST(NdjsonDecoder, SkipsBlankLinesWithoutAnEvent) {
  const std::string stream = "\n\r\n\n{}\n\r\n";
  for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
    NdjsonDecoder decoder(kFlashMax);
    EXPECT_EQ(Describe(FeedCut(decoder, stream, {cut})), "Frame@4[{}]\n") << "cut at " << cut;
  }
}

TEST(NdjsonDecoder, StripsExactlyOneCarriageReturnBeforeTheNewline) {
  NdjsonDecoder decoder(kFlashMax);
  EXPECT_EQ(Describe(FeedCut(decoder, "a\r\r\nb\rc\n", {})), "Frame@0[a\\x0d]\nFrame@4[b\\x0dc]\n");
}

TEST(NdjsonDecoder, AcceptsALineOfExactlyTheLimitWithEitherTerminator) {
  const std::string line(10, 'x');
  for (std::size_t piece : {1u, 3u, 100u}) {
    NdjsonDecoder decoder(10);
    EXPECT_EQ(Describe(FeedInPieces(decoder, line + "\n" + line + "\r\n", piece)),
              "Frame@0[xxxxxxxxxx]\nFrame@11[xxxxxxxxxx]\n")
        << "pieces of " << piece;
  }
}

TEST(NdjsonDecoder, ReportsALineOneByteOverTheLimit) {
  for (std::size_t piece : {1u, 5u, 100u}) {
    NdjsonDecoder decoder(10);
    EXPECT_EQ(Describe(FeedInPieces(decoder, "12345678901\n12345678901\r\n", piece)),
              "Oversized@0 announced=11 header=[12345678901]\n"
              "Oversized@12 announced=11 header=[12345678901]\n")
        << "pieces of " << piece;
  }
}

TEST(NdjsonDecoder, DecodesTheGoodLineAfterAnOversizedOne) {
  const std::string stream = std::string(40, 'z') + "\r\n{\"ok\":true}\n";
  NdjsonDecoder decoder(16);
  EXPECT_EQ(Describe(FeedCut(decoder, stream, {})),
            "Oversized@0 announced=40 header=[zzzzzzzzzzzzzzzz]\nFrame@42[{\"ok\":true}]\n");
  EXPECT_FALSE(decoder.stopped());
  EXPECT_EQ(decoder.discarded(), 0u);
}

TEST(NdjsonDecoder, CountsAnOversizedLineSplitAcrossManyFeedsWithoutBufferingIt) {
  const std::string stream = "{}\n" + std::string(10'000, 'q') + "\r\n{\"next\":1}\n";
  for (std::size_t piece : {1u, 7u, 4096u}) {
    NdjsonDecoder decoder(16);
    std::vector<Event> events;
    for (std::size_t at = 0; at < stream.size(); at += piece) {
      decoder.Feed(std::string_view(stream).substr(at, piece), &events);
      ASSERT_LE(decoder.buffered_capacity(), 64u) << "at " << at;
    }
    decoder.Finish(&events);
    EXPECT_EQ(Describe(events),
              "Frame@0[{}]\nOversized@3 announced=10000 header=[qqqqqqqqqqqqqqqq]\n"
              "Frame@10005[{\"next\":1}]\n")
        << "pieces of " << piece;
  }
}

TEST(NdjsonDecoder, ReportsAnUnterminatedFinalLineWithItsBytes) {
  NdjsonDecoder decoder(kFlashMax);
  EXPECT_EQ(Describe(FeedCut(decoder, "{}\n{\"id\":7,", {5})),
            "Frame@0[{}]\nTruncatedAtEof@3 expected=0 received=8 bytes=[{\"id\":7,]\n");
}

TEST(NdjsonDecoder, ReportsAnUnterminatedOversizedFinalLineAsOversized) {
  NdjsonDecoder decoder(4);
  EXPECT_EQ(Describe(FeedInPieces(decoder, "ok\n123456789", 2)),
            "Frame@0[ok]\nOversized@3 announced=9 header=[123456789]\n");
  NdjsonDecoder just_over(4);
  EXPECT_EQ(Describe(FeedCut(just_over, "12345", {})), "Oversized@0 announced=5 header=[12345]\n");
}

TEST(NdjsonDecoder, ReportsNothingAtEofAfterATerminatedLine) {
  NdjsonDecoder decoder(kFlashMax);
  EXPECT_EQ(Describe(FeedCut(decoder, "[1]\n", {})), "Frame@0[[1]]\n");
}

// The rules of ndjson.hpp restated as plainly as possible, for the randomised comparison.
std::vector<Event> ReferenceDecode(std::string_view stream, std::uint64_t max) {
  std::vector<Event> events;
  std::size_t at = 0;
  while (at < stream.size()) {
    const std::size_t nl = stream.find('\n', at);
    std::string line(stream.substr(at, nl == std::string_view::npos ? nl : nl - at));
    if (nl == std::string_view::npos) {
      if (line.size() > max) {
        events.emplace_back(Oversized{line.size(), at, line.substr(0, 16)});
      } else {
        events.emplace_back(TruncatedAtEof{at, 0, line.size(), line});
      }
      break;
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.size() > max) {
      events.emplace_back(Oversized{line.size(), at, line.substr(0, 16)});
    } else if (!line.empty()) {
      events.emplace_back(Frame{line, at});
    }
    at = nl + 1;
  }
  return events;
}

TEST(NdjsonDecoder, AgreesWithAPlainReadingOfTheRulesOnRandomStreamsAndSplits) {
  std::mt19937 rng(20240601);
  const std::string alphabet = "ab\r\r{}";
  for (int round = 0; round < 2000; ++round) {
    std::string stream;
    const int lines = static_cast<int>(rng() % 12);
    for (int i = 0; i < lines; ++i) {
      const std::size_t length = rng() % 30;
      for (std::size_t j = 0; j < length; ++j) stream.push_back(alphabet[rng() % alphabet.size()]);
      if (i + 1 < lines || rng() % 2 == 0) stream.push_back('\n');
    }
    const std::uint64_t max = rng() % 20;
    std::vector<std::size_t> cuts;
    for (std::size_t at = 0; at < stream.size(); at += 1 + rng() % 9) cuts.push_back(at);
    NdjsonDecoder decoder(max);
    ASSERT_EQ(Describe(FeedCut(decoder, stream, cuts)), Describe(ReferenceDecode(stream, max)))
        << "stream [" << testing::Printable(stream) << "] max " << max;
  }
}

}  // namespace
}  // namespace fakehost::wire
