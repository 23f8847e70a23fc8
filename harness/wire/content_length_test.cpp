#include "harness/wire/content_length.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/wire/test_support.hpp"

namespace fakehost::wire {
namespace {

using testing::Describe;
using testing::FeedCut;
using testing::FeedInPieces;

std::string Framed(std::string_view payload) {
  return ContentLengthFraming().Encode(std::string(payload));
}

TEST(ContentLengthFraming, WritesTheLspBaseProtocolsHeader) {
  EXPECT_EQ(Framed(R"({"id":1})"), "Content-Length: 8\r\n\r\n{\"id\":1}");
  EXPECT_EQ(*ContentLengthFraming().EncodeClaiming("{}", 7), "Content-Length: 7\r\n\r\n{}");
  EXPECT_EQ(FindFraming("content-length")->name(), "content-length");
}

TEST(ContentLengthDecoder, ReassemblesFramesSplitAtEveryByteBoundary) {
  const std::string stream = Framed(R"({"a":1})") + Framed("[2,3]");
  const std::string expected = "Frame@0[{\"a\":1}]\nFrame@28[[2,3]]\n";
  for (std::size_t a = 0; a <= stream.size(); ++a) {
    for (std::size_t b = a; b <= stream.size(); ++b) {
      ContentLengthDecoder decoder(100);
      EXPECT_EQ(Describe(FeedCut(decoder, stream, {a, b})), expected) << "cuts " << a << "," << b;
    }
  }
}

TEST(ContentLengthDecoder, ReadsNamesInAnyCaseAndPastOtherFields) {
  const std::string stream =
      "content-length:2\r\n\r\n{}"
      "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nCONTENT-LENGTH:  3 \r\n\r\n[1]"
      "Content-Length: 0\r\n\r\n";
  ContentLengthDecoder decoder(100);
  EXPECT_EQ(Describe(FeedInPieces(decoder, stream, 7)),
            "Frame@0[{}]\nFrame@22[[1]]\nFrame@105[]\n");
  EXPECT_FALSE(decoder.stopped());
}

TEST(ContentLengthDecoder, StrayTextWhereAHeaderBelongsLosesTheStream) {
  ContentLengthDecoder decoder(100);
  const std::string stream = Framed("{}") + "starting up\n" + Framed("[]") + Framed("[]");
  EXPECT_EQ(Describe(FeedInPieces(decoder, stream, 5)),
            "Frame@0[{}]\nBadHeader@23 header=[starting up\\x0aContent-Length: 2\\x0d\\x0a\\x0d"
            "\\x0a] reason=[a header line is not `Name: value`]\n");
  EXPECT_TRUE(decoder.stopped());
  EXPECT_GT(decoder.discarded(), 0u);
}

TEST(ContentLengthDecoder, NamesWhatIsWrongWithAHeader) {
  auto reason = [](const std::string& header) {
    ContentLengthDecoder decoder(100);
    std::vector<Event> events = FeedCut(decoder, header + "\r\n\r\n{}", {});
    const auto* bad = events.empty() ? nullptr : std::get_if<BadHeader>(&events[0]);
    return bad ? bad->reason : Describe(events);
  };
  EXPECT_EQ(reason("Content-Type: text/plain"), "no Content-Length field");
  EXPECT_EQ(reason("Content-Length: two"), "Content-Length is not a number of bytes");
  EXPECT_EQ(reason("Content-Length: -2"), "Content-Length is not a number of bytes");
  EXPECT_EQ(reason("Content-Length: 99999999999999999999"),
            "Content-Length is not a number of bytes");
  EXPECT_EQ(reason("Content-Length: 2\r\nContent-Length: 2"), "Content-Length is given twice");
  EXPECT_EQ(reason(": 2"), "a header line is not `Name: value`");
}

TEST(ContentLengthDecoder, ReportsALengthOverTheLimitWithoutReservingIt) {
  ContentLengthDecoder decoder(10);
  std::vector<Event> events;
  decoder.Feed("Content-Length: 9999999999999999\r\n\r\n" + std::string(100, 'x'), &events);
  ASSERT_EQ(events.size(), 1u);
  const auto& o = std::get<Oversized>(events[0]);
  EXPECT_EQ(o.announced, 9999999999999999u);
  EXPECT_EQ(o.header, "Content-Length: 9999999999999999\r\n\r\n");
  EXPECT_TRUE(decoder.stopped());
  EXPECT_EQ(decoder.discarded(), 100u);
  EXPECT_LT(decoder.buffered_capacity(), 100u);
}

TEST(ContentLengthDecoder, GivesUpOnAHeaderWithoutAnEnd) {
  ContentLengthDecoder decoder(100);
  std::vector<Event> events;
  for (int i = 0; i < 100; ++i) decoder.Feed(std::string(100, 'h'), &events);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(std::get<BadHeader>(events[0]).reason, "no blank line within the first 1024 bytes");
  EXPECT_LE(decoder.buffered_capacity(), 2048u);
}

TEST(ContentLengthDecoder, ReportsAFrameCutShortWithWhatItNeeded) {
  ContentLengthDecoder body(100);
  EXPECT_EQ(Describe(FeedCut(body, "Content-Length: 10\r\n\r\n{\"id\"", {})),
            "TruncatedAtEof@0 expected=32 received=27 bytes=[Content-Length: "
            "10\\x0d\\x0a\\x0d\\x0a{\"id\"]\n");
  ContentLengthDecoder header(100);
  std::vector<Event> events = FeedCut(header, "Content-Len", {});
  EXPECT_EQ(Describe(events), "TruncatedAtEof@0 expected=0 received=11 bytes=[Content-Len]\n");
  EXPECT_EQ(ContentLengthFraming().ExpectedSize(std::get<TruncatedAtEof>(events[0])),
            "more than 11 (the header was not done)");
}

TEST(ContentLengthDecoder, KeepsItsPayloadBufferWithinTwiceWhatArrived) {
  ContentLengthDecoder decoder(1 << 20);
  std::vector<Event> events;
  decoder.Feed("Content-Length: 1000000\r\n\r\n", &events);
  decoder.Feed(std::string(1000, 'x'), &events);
  EXPECT_LE(decoder.buffered_capacity(), 2 * 1000u + 1024u + 64u);
  decoder.Feed(std::string(999000, 'x'), &events);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(std::get<Frame>(events[0]).payload.size(), 1000000u);
}

}  // namespace
}  // namespace fakehost::wire
