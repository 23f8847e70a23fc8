#include "harness/json/json.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace fakehost::json {
namespace {

rapidjson::Document Doc(std::string_view text) {
  rapidjson::Document doc;
  const ParseResult r = Parse(text, &doc);
  EXPECT_TRUE(r.ok) << text << ": " << r.error;
  return doc;
}

IdKind KindOf(std::string_view text) {
  const rapidjson::Document doc = Doc(text);
  return ClassifyId(&doc);
}

TEST(MergeInto, LaysObjectsMemberByMemberAndReplacesEverythingElse) {
  rapidjson::Document into = Doc(R"({"a": 1, "o": {"x": 1, "y": [1]}, "s": "k"})");
  const rapidjson::Document over = Doc(R"({"o": {"y": [2], "z": null}, "s": {"n": 1}, "b": true})");
  MergeInto(over, &into, into.GetAllocator());
  EXPECT_EQ(ToCompact(into), R"({"a":1,"o":{"x":1,"y":[2],"z":null},"s":{"n":1},"b":true})");
  rapidjson::Document list = Doc("[1]");
  MergeInto(over, &list, list.GetAllocator());
  EXPECT_EQ(ToCompact(list), "[1]") << "only objects merge";
}

TEST(StrictEqual, TellsOneFromOnePointZeroFromTrueFromTheStringOne) {
  const std::vector<std::string> texts = {"1", "1.0", "true", "\"1\"", "null", "[1]", "{\"1\":1}"};
  for (std::size_t i = 0; i < texts.size(); ++i) {
    for (std::size_t j = 0; j < texts.size(); ++j) {
      EXPECT_EQ(StrictEqual(Doc(texts[i]), Doc(texts[j])), i == j)
          << texts[i] << " vs " << texts[j];
    }
  }
}

TEST(StrictEqual, ComparesNumbersByValueWithinTheirType) {
  EXPECT_TRUE(StrictEqual(Doc("-5"), Doc("-5")));
  EXPECT_FALSE(StrictEqual(Doc("1"), Doc("2")));
  EXPECT_TRUE(StrictEqual(Doc("18446744073709551615"), Doc("18446744073709551615")));
  EXPECT_FALSE(StrictEqual(Doc("-1"), Doc("18446744073709551615")));
  EXPECT_TRUE(StrictEqual(Doc("2.5"), Doc("25e-1")));
  EXPECT_FALSE(StrictEqual(Doc("false"), Doc("true")));
}

TEST(StrictEqual, ComparesObjectsAsMemberSetsAndArraysInOrder) {
  EXPECT_TRUE(
      StrictEqual(Doc(R"({"a":1,"b":[2,{"c":null}]})"), Doc(R"({"b":[2,{"c":null}],"a":1})")));
  EXPECT_FALSE(StrictEqual(Doc(R"({"a":1})"), Doc(R"({"a":1,"b":2})")));
  EXPECT_FALSE(StrictEqual(Doc(R"({"a":1})"), Doc(R"({"a":1.0})")));
  EXPECT_FALSE(StrictEqual(Doc("[1,2]"), Doc("[2,1]")));
  EXPECT_FALSE(StrictEqual(Doc(R"("a\u0000b")"), Doc(R"("a\u0000c")")));
}

TEST(StrictEqual, PairsRepeatedKeysByRankSoADocumentEqualsItself) {
  const rapidjson::Document a = Doc(R"({"k":1,"x":0,"k":2})");
  EXPECT_TRUE(StrictEqual(a, a));
  EXPECT_TRUE(StrictEqual(a, Doc(R"({"k":1,"x":0,"k":2})")));
  EXPECT_FALSE(StrictEqual(a, Doc(R"({"k":2,"x":0,"k":1})")));
  EXPECT_FALSE(StrictEqual(a, Doc(R"({"k":1,"x":0,"y":2})")));
}

TEST(TypeName, NamesEachJsonType) {
  EXPECT_STREQ(TypeName(Doc("null")), "null");
  EXPECT_STREQ(TypeName(Doc("false")), "boolean");
  EXPECT_STREQ(TypeName(Doc("1")), "integer");
  EXPECT_STREQ(TypeName(Doc("-1")), "integer");
  EXPECT_STREQ(TypeName(Doc("1.0")), "number");
  EXPECT_STREQ(TypeName(Doc("1e2")), "number");
  EXPECT_STREQ(TypeName(Doc("\"\"")), "string");
  EXPECT_STREQ(TypeName(Doc("[]")), "array");
  EXPECT_STREQ(TypeName(Doc("{}")), "object");
}

TEST(ClassifyId, AcceptsOnlyInt64IntegersAndStringsAsIds) {
  EXPECT_EQ(ClassifyId(nullptr), IdKind::kAbsent);
  EXPECT_EQ(KindOf("null"), IdKind::kNull);
  EXPECT_EQ(KindOf("7"), IdKind::kInteger);
  EXPECT_EQ(KindOf("-7"), IdKind::kInteger);
  EXPECT_EQ(KindOf("\"7\""), IdKind::kString);
  for (const char* other : {"7.0", "true", "[7]", "{}", "1e3"}) {
    EXPECT_EQ(KindOf(other), IdKind::kOther) << other;
  }
}

TEST(IdKey, KeepsIntegerStringDoubleAndBooleanIdsApart) {
  EXPECT_EQ(IdKey(Doc("1")), "i:1");
  EXPECT_EQ(IdKey(Doc("-2")), "i:-2");
  EXPECT_EQ(IdKey(Doc("\"1\"")), "s:1");
  const std::vector<std::string> keys = {IdKey(Doc("1")), IdKey(Doc("1.0")), IdKey(Doc("true")),
                                         IdKey(Doc("\"1\"")), IdKey(Doc("null"))};
  for (std::size_t i = 0; i < keys.size(); ++i) {
    for (std::size_t j = i + 1; j < keys.size(); ++j) EXPECT_NE(keys[i], keys[j]);
  }
  EXPECT_EQ(IdKey(Doc(R"("a\u0000b")")), std::string("s:a\0b", 5));
}

TEST(Find, ReturnsTheFirstMemberOrNullptrWithoutAsserting) {
  const rapidjson::Document doc = Doc(R"({"a":1,"a":2,"b":3})");
  ASSERT_NE(Find(doc, "a"), nullptr);
  EXPECT_EQ(Find(doc, "a")->GetInt(), 1);
  EXPECT_EQ(Find(doc, "missing"), nullptr);
  EXPECT_EQ(Find(Doc("[1]"), "a"), nullptr);
  EXPECT_EQ(Find(doc, ""), nullptr);
}

TEST(EscapePointerToken, EscapesTildeBeforeSlash) {
  EXPECT_EQ(EscapePointerToken("a/b~c"), "a~1b~0c");
  EXPECT_EQ(EscapePointerToken("~1"), "~01");
  EXPECT_EQ(EscapePointerToken(""), "");
}

TEST(Resolve, FollowsRfc6901Pointers) {
  const rapidjson::Document doc = Doc(R"({"p":{"a/b":[10,{"~x":true}]},"":5})");
  EXPECT_EQ(Resolve(doc, ""), &doc);
  EXPECT_EQ(ToCompact(*Resolve(doc, "/p/a~1b/0")), "10");
  EXPECT_EQ(ToCompact(*Resolve(doc, "/p/a~1b/1/~0x")), "true");
  EXPECT_EQ(ToCompact(*Resolve(doc, "/")), "5");
  for (const char* bad : {"p", "/q", "/p/a~1b/2", "/p/a~1b/01", "/p/a~1b/-", "/p/a~1b/x", "/p/a~2b",
                          "/p/a~", "/p/a~1b/0/deeper", "/p/a~1b/99999999999"}) {
    EXPECT_EQ(Resolve(doc, bad), nullptr) << bad;
  }
}

TEST(ToCompact, RefusesNanInsteadOfWritingTruncatedJson) {
  rapidjson::Document doc;
  doc.SetArray();
  doc.PushBack(1, doc.GetAllocator());
  doc.PushBack(std::numeric_limits<double>::quiet_NaN(), doc.GetAllocator());
  std::string out;
  EXPECT_FALSE(ToCompact(doc, &out));
  EXPECT_EQ(ToCompact(doc), "<unserialisable>");
  EXPECT_EQ(ToPretty(doc), "<unserialisable>");
}

TEST(ToPretty, IndentsByTwoSpaces) {
  EXPECT_EQ(ToPretty(Doc(R"({"a":[1,2],"b":{}})")),
            "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}");
}

TEST(Abbreviate, LeavesShortTextAlone) {
  EXPECT_EQ(Abbreviate("hello", 5), "hello");
  EXPECT_EQ(Abbreviate("", 0), "");
}

TEST(Abbreviate, CutsOnACharacterBoundaryAndSaysHowLongTheTextWas) {
  EXPECT_EQ(Abbreviate("abcdef", 3), "abc\xE2\x80\xA6(6 bytes)");
  EXPECT_EQ(Abbreviate("ab\xC3\xA9z", 3), "ab\xE2\x80\xA6(5 bytes)");        // does not split é
  EXPECT_EQ(Abbreviate("a\xF0\x9F\x98\x80z", 4), "a\xE2\x80\xA6(6 bytes)");  // nor an emoji
  EXPECT_EQ(Abbreviate("a\xF0\x9F\x98\x80z", 5), "a\xF0\x9F\x98\x80\xE2\x80\xA6(6 bytes)");
  const std::string junk(10, '\x80');  // not UTF-8 at all: cut where asked
  EXPECT_EQ(Abbreviate(junk, 6), std::string(6, '\x80') + "\xE2\x80\xA6(10 bytes)");
}

}  // namespace
}  // namespace fakehost::json
