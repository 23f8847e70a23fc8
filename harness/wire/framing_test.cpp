#include "harness/wire/framing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/wire/test_support.hpp"

namespace fakehost::wire {
namespace {

using testing::Describe;
using testing::FeedInPieces;
using testing::Printable;

const Framing& Named(std::string_view name) {
  const Framing* framing = FindFraming(name);
  EXPECT_NE(framing, nullptr) << name;
  return *framing;
}

TEST(FindFraming, KnowsEachRegisteredNameAndNothingElse) {
  for (const std::string& name : FramingNames()) {
    ASSERT_NE(FindFraming(name), nullptr) << name;
    EXPECT_EQ(FindFraming(name)->name(), name);
  }
  EXPECT_NE(FindFraming("length-prefixed"), nullptr);
  EXPECT_NE(FindFraming("ndjson"), nullptr);
  EXPECT_EQ(FindFraming("NDJSON"), nullptr);
  EXPECT_EQ(FindFraming(""), nullptr);
  EXPECT_EQ(FindFraming("length_prefixed"), nullptr);
}

TEST(LengthPrefixedFraming, FramesTheSpecsRimLogExampleWithHeader52000000) {
  const std::string payload =
      R"({"jsonrpc":"2.0","method":"rim.log","params":{"level":"info","message":"started"}})";
  ASSERT_EQ(payload.size(), 82u);
  const std::string frame = Named("length-prefixed").Encode(payload);
  ASSERT_EQ(frame.size(), 86u);
  EXPECT_EQ(frame.substr(0, 4), std::string("\x52\x00\x00\x00", 4));
  EXPECT_EQ(frame.substr(4), payload);
}

TEST(LengthPrefixedFraming, ClaimsAnyU32LengthLittleEndian) {
  const Framing& lp = Named("length-prefixed");
  EXPECT_EQ(Printable(*lp.EncodeClaiming("ab", 0x04030201u)), "\\x01\\x02\\x03\\x04ab");
  EXPECT_EQ(Printable(*lp.EncodeClaiming("", 0)), "\\x00\\x00\\x00\\x00");
  EXPECT_EQ(Printable(*lp.EncodeClaiming("", 0xFFFFFFFFu)), "\\xff\\xff\\xff\\xff");
  EXPECT_EQ(lp.EncodeClaiming("", 0x100000000u), std::nullopt);
}

TEST(NdjsonFraming, TerminatesAPayloadWithOneNewlineAndClaimsNoLength) {
  const Framing& nd = Named("ndjson");
  EXPECT_EQ(nd.Encode(R"({"ok":true})"), "{\"ok\":true}\n");
  EXPECT_EQ(nd.Encode(""), "\n");
  EXPECT_EQ(nd.EncodeClaiming("{}", 2), std::nullopt);
}

TEST(Framing, DecodesWhatItsEncodeProduced) {
  for (const char* name : {"length-prefixed", "ndjson"}) {
    const Framing& framing = Named(name);
    std::string stream;
    for (const char* payload : {"{\"id\":1}", "[]", "\"\xc3\xa9\""})
      stream += framing.Encode(payload);
    auto decoder = framing.MakeDecoder(100);
    const std::vector<Event> events = FeedInPieces(*decoder, stream, 5);
    const std::string expected =
        std::string_view(name) == "length-prefixed"
            ? "Frame@0[{\"id\":1}]\nFrame@12[[]]\nFrame@18[\"\\xc3\\xa9\"]\n"
            : "Frame@0[{\"id\":1}]\nFrame@9[[]]\nFrame@12[\"\\xc3\\xa9\"]\n";
    EXPECT_EQ(Describe(events), expected) << name;
  }
}

// A frame written in pieces (sharing its document's strings) is the frame Encode makes.
TEST(Framing, WrapsAPayloadAsEncodeFramesIt) {
  for (const std::string& name : FramingNames()) {
    const Framing& framing = Named(name);
    for (const std::string& payload :
         {std::string(), std::string("{\"id\":1}"), std::string(70000, 'x')}) {
      const Framing::Wrapping wrap = framing.Wrap(payload.size());
      EXPECT_EQ(wrap.head + payload + wrap.tail, framing.Encode(payload)) << name;
    }
  }
  EXPECT_THROW(Named("length-prefixed").Wrap(std::uint64_t{1} << 32), std::length_error);
}

TEST(Framing, AppliesTheGivenLimitAndStopsExactlyWhenTheStreamIsLost) {
  const std::string payload(11, 'x');
  for (const std::string& name : FramingNames()) {
    const Framing& framing = Named(name);
    auto decoder = framing.MakeDecoder(10);
    const std::vector<Event> events = FeedInPieces(*decoder, framing.Encode(payload), 64);
    ASSERT_EQ(events.size(), 1u) << name;
    EXPECT_EQ(std::get<Oversized>(events[0]).announced, 11u) << name;
    EXPECT_EQ(decoder->stopped(), framing.resync() == Resync::kStreamLost) << name;
  }
}

// A payload reserved with kFrameHeadroom is framed in its own buffer: a 16 MiB send_raw is held
// once, not twice (the memory bench/run_cost measures).
TEST(Framing, FramesInPlaceWithTheHeadroomReserved) {
  for (const std::string& name : FramingNames()) {
    const Framing& framing = Named(name);
    for (bool claiming : {false, true}) {
      std::string payload(1 << 20, 'x');
      payload.reserve(payload.size() + kFrameHeadroom);
      const char* buffer = payload.data();
      std::optional<std::string> frame;
      if (claiming)
        frame = framing.EncodeClaiming(std::move(payload), 7);
      else
        frame = framing.Encode(std::move(payload));
      if (!frame) {  // a framing that announces no length leaves the payload as it was
        EXPECT_TRUE(claiming) << name;
        EXPECT_EQ(payload.size(), std::size_t{1} << 20) << name;
        continue;
      }
      EXPECT_GT(frame->size(), std::size_t{1} << 20) << name;
      EXPECT_EQ(frame->data(), buffer) << name << (claiming ? " claiming" : "");
    }
  }
}

TEST(LengthPrefixedFraming, DiagnosesATextHeaderAndABigEndianOne) {
  const Framing& lp = Named("length-prefixed");
  std::optional<Wording> text = lp.DiagnoseHeader({0, 0, "hell"}, 100);
  ASSERT_TRUE(text);
  EXPECT_EQ(text->check, "header-text");
  ASSERT_EQ(text->vars.size(), 2u);
  EXPECT_EQ(text->vars[0].second, "68 65 6c 6c");
  EXPECT_EQ(text->vars[1].second, "hell");
  std::optional<Wording> be = lp.DiagnoseHeader({0, 0, std::string("\0\0\0\x52", 4)}, 100);
  ASSERT_TRUE(be);
  EXPECT_EQ(be->check, "header-big-endian");
  EXPECT_EQ(be->vars.at(0).second, "82");
  EXPECT_FALSE(lp.DiagnoseHeader({0, 0, std::string("\xff\xff\xff\x01", 4)}, 100));
  EXPECT_FALSE(Named("ndjson").DiagnoseHeader({0, 0, "hell"}, 100));
}

TEST(Framing, EveryDiagnosisIsOneOfItsOwnChecks) {
  const Framing& lp = Named("length-prefixed");
  for (const std::string& header : {std::string("hell"), std::string("\0\0\0\x52", 4)}) {
    std::optional<Wording> w = lp.DiagnoseHeader({0, 0, header}, 100);
    ASSERT_TRUE(w);
    bool listed = false;
    for (const FramingCheck& check : lp.checks()) {
      if (w->check != check.id) continue;
      listed = true;
      for (const auto& [name, value] : w->vars)
        EXPECT_NE(std::find(check.vars.begin(), check.vars.end(), name), check.vars.end())
            << check.id << " " << name;
    }
    EXPECT_TRUE(listed) << w->check;
  }
}

TEST(Framing, RawFaultsLoseTheStreamExactlyWhenTheFramingCannotResynchronise) {
  for (const std::string& name : FramingNames()) {
    const Framing& framing = Named(name);
    EXPECT_FALSE(framing.raw_faults().empty()) << name;
    for (const RawFault& fault : framing.raw_faults()) {
      EXPECT_FALSE(fault.what.empty()) << name;
      if (fault.claim != RawFault::Claim::kHonest) {
        EXPECT_TRUE(fault.framed) << fault.what;
        EXPECT_TRUE(framing.EncodeClaiming("{}", 3)) << fault.what;
      }
      if (framing.resync() == Resync::kNextDelimiter) {
        EXPECT_FALSE(fault.loses_stream) << fault.what;
      }
    }
  }
}

TEST(Framing, SaysWhatATruncatedFrameNeeded) {
  EXPECT_EQ(Named("length-prefixed").ExpectedSize({0, 0, 2, "ab"}), "at least 4");
  EXPECT_EQ(Named("length-prefixed").ExpectedSize({0, 20, 9, "ab"}), "20");
  EXPECT_EQ(Named("ndjson").ExpectedSize({0, 0, 9, "{\"id\":1,\""}), "at least 10");
}

}  // namespace
}  // namespace fakehost::wire
