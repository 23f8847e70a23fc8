#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "harness/json/json.hpp"

namespace fakehost::json {
namespace {

using Strings = std::vector<std::string>;

ParseResult ParseText(std::string_view text, rapidjson::Document* doc,
                      const ParseLimits& limits = {}) {
  return Parse(text, doc, limits);
}

TEST(Parse, ParsesOneValueAndReportsNothing) {
  rapidjson::Document doc;
  const ParseResult r = ParseText(R"( {"id":1,"method":"m","params":[true,null]} )", &doc);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.error, "");
  EXPECT_TRUE(r.duplicate_keys.empty());
  EXPECT_EQ(ToCompact(doc), R"({"id":1,"method":"m","params":[true,null]})");
}

TEST(Parse, RejectsInvalidUtf8WithTheByteOffset) {
  for (const char* text : {"\"a\xff\"", "\"\xc0\xaf\"", "{\"k\xe2\x82\":1}", "\"\xed\xa0\x80\""}) {
    rapidjson::Document doc;
    const ParseResult r = ParseText(text, &doc);
    EXPECT_FALSE(r.ok) << text;
    EXPECT_NE(r.error.find("invalid encoding in string at byte "), std::string::npos) << r.error;
    EXPECT_TRUE(doc.IsNull());
  }
  rapidjson::Document doc;
  const ParseResult r = ParseText("[\"ok\", \"\xff\"]", &doc);
  EXPECT_EQ(r.error, "invalid encoding in string at byte 8");
  EXPECT_EQ(r.error_offset, 8u);
}

TEST(Parse, RejectsLoneSurrogateEscapesThatRapidJsonWouldStoreAsInvalidUtf8) {
  rapidjson::Document doc;
  ParseResult r = ParseText(R"(["\udc00"])", &doc);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "lone surrogate escape (\\uD800-\\uDFFF) in the string ending at byte 8");
  r = ParseText(R"({"\udfff":1})", &doc);
  EXPECT_FALSE(r.ok) << "in a key too";
  r = ParseText(R"("\ud800")", &doc);
  EXPECT_FALSE(r.ok) << "a lone high surrogate";
  EXPECT_EQ(r.error, "the surrogate pair in string is invalid at byte 1");
  r = ParseText(R"("\\udc00")", &doc);
  ASSERT_TRUE(r.ok) << "an escaped backslash, then text: " << r.error;
  EXPECT_EQ(std::string(doc.GetString()), "\\udc00");
  r = ParseText(R"("\ud83d\ude00")", &doc);
  ASSERT_TRUE(r.ok) << "a proper pair: " << r.error;
  EXPECT_EQ(std::string(doc.GetString(), doc.GetStringLength()), "\xf0\x9f\x98\x80");
}

TEST(Parse, RejectsAByteOrderMark) {
  rapidjson::Document doc;
  EXPECT_FALSE(ParseText("\xef\xbb\xbf{}", &doc).ok);
}

TEST(Parse, ReportsAHundredThousandNestedBracketsAsAnErrorNotACrash) {
  const std::string deep(100'000, '[');
  rapidjson::Document doc;
  const ParseResult r = ParseText(deep, &doc);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "nesting deeper than 128 levels at byte 128");
  EXPECT_EQ(r.error_offset, 128u);
}

TEST(Parse, ParsesDeepNestingIterativelyWhenTheCapIsRaised) {
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  rapidjson::Document doc;
  ParseLimits limits;
  limits.max_depth = 200'000;
  EXPECT_TRUE(ParseText(deep, &doc, limits).ok);
}

TEST(Parse, AcceptsNestingUpToTheCapAndNotOneLevelMore) {
  ParseLimits limits;
  limits.max_depth = 5;
  rapidjson::Document doc;
  EXPECT_TRUE(ParseText("[[[[[]]]]]", &doc, limits).ok);
  EXPECT_TRUE(ParseText(R"({"a":{"b":[{"c":[1]}]}})", &doc, limits).ok);
  ParseResult r = ParseText("[[[[[[]]]]]]", &doc, limits);
  EXPECT_EQ(r.error, "nesting deeper than 5 levels at byte 5");
  r = ParseText(R"({"a":{"b":[{"c":[{}]}]}})", &doc, limits);
  EXPECT_EQ(r.error, "nesting deeper than 5 levels at byte 17");
}

TEST(Parse, ReportsDuplicateKeysByPointerOnceEachAndKeepsEveryMember) {
  rapidjson::Document doc;
  const ParseResult r =
      ParseText(R"({"params":{"level":"info","level":"warn","level":"x"},"id":1,"id":2})", &doc);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.duplicate_keys, (Strings{"/params/level", "/id"}));
  EXPECT_EQ(doc["params"].MemberCount(), 3u);
  EXPECT_EQ(Find(doc["params"], "level")->GetString(), std::string("info"));
}

TEST(Parse, EscapesDuplicateKeyPointersAndCountsArrayIndices) {
  rapidjson::Document doc;
  const ParseResult r =
      ParseText(R"({"a/b":[0,{"~":1,"x":[],"~":2},{"~":1}],"a/b":0,"":{"":1,"":2}})", &doc);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.duplicate_keys, (Strings{"/a~1b/1/~0", "/a~1b", "//"}));
}

TEST(Parse, StartsAfreshAfterAParseThatFailedInsideAnObject) {
  rapidjson::Document doc;
  EXPECT_FALSE(ParseText(R"({"a":{"b":1,"b":[)", &doc).ok);
  const ParseResult r = ParseText(R"({"b":1,"c":{"b":2,"b":3}})", &doc);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.duplicate_keys, (Strings{"/c/b"}));
}

TEST(Parse, FindsDuplicatesInLargeObjectsToo) {
  std::string text = "{";
  for (int i = 0; i < 100; ++i) text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  text += R"("k5":0,"k99":0,"k5":1,"k100":0})";
  rapidjson::Document doc;
  const ParseResult r = ParseText(text, &doc);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.duplicate_keys, (Strings{"/k5", "/k99"}));
  EXPECT_EQ(doc.MemberCount(), 104u);
}

TEST(Parse, RejectsTrailingBytesButNotTrailingWhitespace) {
  rapidjson::Document doc;
  EXPECT_TRUE(ParseText("{} \r\n\t", &doc).ok);
  ParseResult r = ParseText("{} x", &doc);
  EXPECT_EQ(r.error, "unexpected bytes after the JSON value at byte 3");
  EXPECT_TRUE(doc.IsNull());
  EXPECT_FALSE(ParseText("1 2", &doc).ok);
  EXPECT_FALSE(ParseText("[1]]", &doc).ok);
  EXPECT_FALSE(ParseText(std::string_view("{}\0", 3), &doc).ok);
  EXPECT_FALSE(ParseText(std::string_view("[1,\0]", 5), &doc).ok);
}

TEST(Parse, ExplainsSyntaxErrorsInWords) {
  rapidjson::Document doc;
  EXPECT_EQ(ParseText("", &doc).error, "the document is empty at byte 0");
  EXPECT_EQ(ParseText("  ", &doc).error, "the document is empty at byte 2");
  EXPECT_EQ(ParseText(R"({"a" 1})", &doc).error,
            "missing a colon after a name of object member at byte 5");
  EXPECT_EQ(ParseText("[1,", &doc).error, "invalid value at byte 3");
}

TEST(Parse, KeepsIntegerRangesApart) {
  rapidjson::Document doc;
  ASSERT_TRUE(ParseText("9223372036854775807", &doc).ok);
  EXPECT_EQ(ClassifyId(&doc), IdKind::kInteger);
  ASSERT_TRUE(ParseText("-9223372036854775808", &doc).ok);
  EXPECT_EQ(ClassifyId(&doc), IdKind::kInteger);
  ASSERT_TRUE(ParseText("9223372036854775808", &doc).ok);
  EXPECT_TRUE(doc.IsUint64());
  EXPECT_STREQ(TypeName(doc), "integer");
  EXPECT_EQ(ClassifyId(&doc), IdKind::kOther);
  ASSERT_TRUE(ParseText("18446744073709551616", &doc).ok);  // 2^64: RapidJSON makes a double
  EXPECT_STREQ(TypeName(doc), "number");
  EXPECT_EQ(ClassifyId(&doc), IdKind::kOther);
}

TEST(Parse, ReadsDecimalsWithFullPrecision) {
  // RapidJSON's default fast path reads this one ulp off.
  const char* text = "1.3927926388013963e-143";
  rapidjson::Document doc;
  ASSERT_TRUE(ParseText(text, &doc).ok);
  EXPECT_EQ(doc.GetDouble(), std::strtod(text, nullptr));
}

TEST(Parse, KeepsEmbeddedNulCharacters) {
  rapidjson::Document doc;
  ASSERT_TRUE(ParseText(R"({"a\u0000b":"x\u0000"})", &doc).ok);
  const rapidjson::Value* v = Find(doc, std::string_view("a\0b", 3));
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->GetStringLength(), 2u);
  EXPECT_EQ(std::string(v->GetString(), v->GetStringLength()), std::string("x\0", 2));
  EXPECT_EQ(Find(doc, "a"), nullptr);
  EXPECT_EQ(ToCompact(doc), R"({"a\u0000b":"x\u0000"})");
}

}  // namespace
}  // namespace fakehost::json
