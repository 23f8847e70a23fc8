#include "harness/json/compact_pieces.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "harness/json/json.hpp"

namespace fakehost::json {
namespace {

std::string Whole(const CompactPieces& pieces) { return pieces.Head(pieces.size()); }

rapidjson::Document Doc(std::string_view text) {
  rapidjson::Document doc;
  EXPECT_TRUE(Parse(text, &doc).ok) << text;
  return doc;
}

TEST(CompactPieces, IsToCompactsTextWithTheLongPlainStringsLeftInTheDocument) {
  const rapidjson::Document doc =
      Doc(R"({"id":1,"params":{"pad":"xxxxxxxxxx","esc":"a\"b\\c\nd____","k":[true,null,1.5]},)"
          R"("short":"xy","tail":"yyyyyyyyyy"})");
  CompactPieces pieces;
  ASSERT_TRUE(ToCompactPieces(doc, 10, 64, &pieces));
  EXPECT_EQ(Whole(pieces), ToCompact(doc));
  EXPECT_EQ(pieces.size(), ToCompact(doc).size());
  ASSERT_EQ(pieces.shared.size(), 2u) << "a string to escape or under 10 bytes is written";
  const rapidjson::Value& pad = doc["params"]["pad"];
  EXPECT_EQ(pieces.shared[0].bytes.data(), pad.GetString()) << "a view, not a copy";
  EXPECT_EQ(pieces.text.substr(pieces.shared[0].at - 7, 8), R"("pad":"")");
  EXPECT_GE(pieces.text.capacity(), pieces.text.size() + 64) << "room for a framing's header";
}

TEST(CompactPieces, WithNothingToShareIsOneText) {
  const rapidjson::Document doc = Doc(R"({"a":"xxxxxxxxxx","b":[1,2]})");
  CompactPieces pieces;
  ASSERT_TRUE(ToCompactPieces(doc, 1000, 0, &pieces));
  EXPECT_TRUE(pieces.shared.empty());
  EXPECT_EQ(pieces.text, ToCompact(doc));
  EXPECT_EQ(pieces.Head(5), R"({"a":)");
  EXPECT_EQ(pieces.Head(1000), pieces.text);
}

TEST(CompactPieces, HeadCutsInsideASharedString) {
  const rapidjson::Document doc = Doc(R"(["xxxxxxxxxx","zz"])");
  CompactPieces pieces;
  ASSERT_TRUE(ToCompactPieces(doc, 10, 0, &pieces));
  for (std::size_t n = 0; n <= pieces.size() + 1; ++n)
    EXPECT_EQ(pieces.Head(n), ToCompact(doc).substr(0, n)) << n;
}

TEST(CompactPieces, FailsOnWhatToCompactCannotWrite) {
  rapidjson::Document doc;
  doc.SetDouble(std::numeric_limits<double>::infinity());
  CompactPieces pieces;
  EXPECT_FALSE(ToCompactPieces(doc, 10, 0, &pieces));
}

}  // namespace
}  // namespace fakehost::json
