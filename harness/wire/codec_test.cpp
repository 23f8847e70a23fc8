#include "harness/wire/codec.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/wire/test_support.hpp"

namespace fakehost::wire {
namespace {

using testing::Describe;
using testing::FeedInPieces;
using testing::Printable;

TEST(ParseFraming, AcceptsTheTwoFramingNamesAndNothingElse) {
  Framing framing = Framing::kNdjson;
  ASSERT_TRUE(ParseFraming("length-prefixed", &framing));
  EXPECT_EQ(framing, Framing::kLengthPrefixed);
  ASSERT_TRUE(ParseFraming("ndjson", &framing));
  EXPECT_EQ(framing, Framing::kNdjson);
  EXPECT_FALSE(ParseFraming("NDJSON", &framing));
  EXPECT_FALSE(ParseFraming("", &framing));
  EXPECT_FALSE(ParseFraming("length_prefixed", &framing));
}

TEST(LengthHeader, WritesTheLengthLittleEndian) {
  EXPECT_EQ(Printable(LengthHeader(0x04030201u)), "\\x01\\x02\\x03\\x04");
  EXPECT_EQ(Printable(LengthHeader(0)), "\\x00\\x00\\x00\\x00");
  EXPECT_EQ(Printable(LengthHeader(0xFFFFFFFFu)), "\\xff\\xff\\xff\\xff");
}

TEST(Encode, FramesTheSpecsRimLogExampleWithHeader52000000) {
  const std::string payload =
      R"({"jsonrpc":"2.0","method":"rim.log","params":{"level":"info","message":"started"}})";
  ASSERT_EQ(payload.size(), 82u);
  const std::string frame = Encode(Framing::kLengthPrefixed, payload);
  ASSERT_EQ(frame.size(), 86u);
  EXPECT_EQ(frame.substr(0, 4), std::string("\x52\x00\x00\x00", 4));
  EXPECT_EQ(frame.substr(4), payload);
}

TEST(Encode, TerminatesAnNdjsonPayloadWithOneNewline) {
  EXPECT_EQ(Encode(Framing::kNdjson, R"({"ok":true})"), "{\"ok\":true}\n");
  EXPECT_EQ(Encode(Framing::kNdjson, ""), "\n");
}

TEST(MakeDecoder, DecodesWhatEncodeProducedForBothFramings) {
  for (Framing framing : {Framing::kLengthPrefixed, Framing::kNdjson}) {
    std::string stream;
    for (const char* payload : {"{\"id\":1}", "[]", "\"\xc3\xa9\""}) {
      stream += Encode(framing, payload);
    }
    auto decoder = MakeDecoder(framing, 100);
    const std::vector<Event> events = FeedInPieces(*decoder, stream, 5);
    const std::string expected =
        framing == Framing::kLengthPrefixed
            ? "Frame@0[{\"id\":1}]\nFrame@12[[]]\nFrame@18[\"\\xc3\\xa9\"]\n"
            : "Frame@0[{\"id\":1}]\nFrame@9[[]]\nFrame@12[\"\\xc3\\xa9\"]\n";
    EXPECT_EQ(Describe(events), expected);
  }
}

TEST(MakeDecoder, AppliesTheGivenLimitToBothFramings) {
  const std::string payload(11, 'x');
  for (Framing framing : {Framing::kLengthPrefixed, Framing::kNdjson}) {
    auto decoder = MakeDecoder(framing, 10);
    const std::vector<Event> events = FeedInPieces(*decoder, Encode(framing, payload), 64);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(std::get<Oversized>(events[0]).announced, 11u);
    EXPECT_EQ(decoder->stopped(), framing == Framing::kLengthPrefixed);
  }
}

}  // namespace
}  // namespace fakehost::wire
