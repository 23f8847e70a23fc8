#include <gtest/gtest.h>

#include <cmath>
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
  ASSERT_TRUE(ParseText("18446744073709551615", &doc).ok);  // 2^64 - 1
  EXPECT_EQ(doc.GetUint64(), 18446744073709551615u);
  const ParseResult r = ParseText("18446744073709551616", &doc);  // 2^64: the nearest double
  ASSERT_TRUE(r.ok);
  EXPECT_STREQ(TypeName(doc), "number");
  EXPECT_EQ(ClassifyId(&doc), IdKind::kOther);
  EXPECT_EQ(ToCompact(doc, r.lexemes), "18446744073709551616");
  ASSERT_TRUE(ParseText("-9223372036854775809", &doc).ok);  // -2^63 - 1
  EXPECT_TRUE(doc.IsDouble());
}

// The number paths RapidJSON gets wrong: its full-precision strtod reads out of bounds on this
// one (a SIGSEGV when a plugin sent it), and flags UB on "0e38"; its fast path refuses 1e400.
TEST(Parse, ReadsNumbersThatCrashOrDefeatRapidJson) {
  const std::string tiny = "0." + std::string(348, '0') + "1";
  ASSERT_EQ(tiny.size(), 351u);
  rapidjson::Document doc;
  ParseResult r = ParseText(R"({"id":1,"result":{"v":)" + tiny + "}}", &doc);
  ASSERT_TRUE(r.ok) << r.error;
  const rapidjson::Value* v = Resolve(doc, "/result/v");
  EXPECT_EQ(v->GetDouble(), 0.0) << "below the double range: zero";
  EXPECT_EQ(ToCompact(doc, r.lexemes), R"({"id":1,"result":{"v":)" + tiny + "}}");
  EXPECT_EQ(ToCompact(doc), R"({"id":1,"result":{"v":0.0}})");

  ASSERT_TRUE(ParseText("0e38", &doc).ok);
  EXPECT_EQ(doc.GetDouble(), 0.0);
  const std::string long_mantissa = "1." + std::string(5000, '3') + "e-5000";
  ASSERT_TRUE(ParseText(long_mantissa, &doc).ok);
  EXPECT_EQ(doc.GetDouble(), std::strtod(long_mantissa.c_str(), nullptr));
  const std::string huge_integer(400, '9');
  r = ParseText("[" + huge_integer + "]", &doc);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(std::isinf(doc[0].GetDouble()));
  EXPECT_EQ(ToCompact(doc, r.lexemes), "[" + huge_integer + "]");
}

TEST(Parse, KeepsNumbersOutsideTheDoubleRangeAsTheyWereSent) {
  rapidjson::Document doc;
  for (const char* text : {"1e400", "-1e400", "1E+999999999999999999999", "1.5e309"}) {
    const ParseResult r = ParseText(text, &doc);
    ASSERT_TRUE(r.ok) << text << ": " << r.error;
    EXPECT_TRUE(std::isinf(doc.GetDouble())) << text;
    EXPECT_EQ(std::signbit(doc.GetDouble()), text[0] == '-') << text;
    EXPECT_EQ(ToCompact(doc, r.lexemes), text);
    EXPECT_EQ(ToCompact(doc), "<unserialisable>") << "without the lexemes, inf cannot be written";
  }
  for (const char* text : {"1e-400", "-1e-400", "1e-99999999999999999999", "2.4e-324"}) {
    const ParseResult r = ParseText(text, &doc);
    ASSERT_TRUE(r.ok) << text << ": " << r.error;
    EXPECT_EQ(doc.GetDouble(), 0.0) << text;
    EXPECT_EQ(std::signbit(doc.GetDouble()), text[0] == '-') << text;
    EXPECT_EQ(ToCompact(doc, r.lexemes), text);
  }
  ASSERT_TRUE(ParseText("4.9e-324", &doc).ok) << "the smallest subnormal is in range";
  EXPECT_GT(doc.GetDouble(), 0.0);
}

TEST(Parse, ReadsAValidNumberRapidJsonCallsTooBigWhereverItIs) {
  rapidjson::Document doc;
  const ParseResult r =
      ParseText(R"({"a":[1e400,"1e400 \" 2e400",{"b":-3E+500}],"c":1.5,"d":1e400})", &doc);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(Resolve(doc, "/a/1")->GetString(), std::string("1e400 \" 2e400"));
  EXPECT_EQ(Resolve(doc, "/c")->GetDouble(), 1.5);
  EXPECT_EQ(ToCompact(doc, r.lexemes),
            R"({"a":[1e400,"1e400 \" 2e400",{"b":-3E+500}],"c":1.5,"d":1e400})");
  ASSERT_EQ(r.lexemes.size(), 3u);
}

TEST(Parse, StillRefusesMalformedNumbersNextToOnesTooBigForRapidJson) {
  rapidjson::Document doc;
  EXPECT_EQ(ParseText("[1e400, 1.]", &doc).error, "miss fraction part in number at byte 10");
  EXPECT_FALSE(ParseText("[1e400, 01]", &doc).ok);
  EXPECT_FALSE(ParseText("[1e400, -]", &doc).ok);
  EXPECT_FALSE(ParseText("[1e400, +1]", &doc).ok);
  EXPECT_FALSE(ParseText("[1e400e5]", &doc).ok);
  EXPECT_FALSE(ParseText("1e400 1", &doc).ok);
  EXPECT_FALSE(ParseText("[1e400, 2e]", &doc).ok);
  EXPECT_FALSE(ParseText("[1e400,]", &doc).ok);
  EXPECT_EQ(ParseText("[1e400, tru]", &doc).error, ParseText("[1    , tru]", &doc).error);
  EXPECT_EQ(ParseText("1e400 x", &doc).error, "unexpected bytes after the JSON value at byte 6");
}

TEST(Parse, KeepsTheSpellingOfNumbersTheWriterWouldChange) {
  rapidjson::Document doc;
  const ParseResult r = ParseText("[-0,3.0,3.00,1E2,1e2,0.1,-0.0,100]", &doc);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(ToCompact(doc), "[0,3.0,3.0,100.0,100.0,0.1,-0.0,100]");
  EXPECT_EQ(ToCompact(doc, r.lexemes), "[-0,3.0,3.00,1E2,1e2,0.1,-0.0,100]");
  EXPECT_EQ(r.lexemes.size(), 4u) << "only -0, 3.00, 1E2 and 1e2 print differently";
  EXPECT_TRUE(doc[0].IsInt64()) << "-0 is the integer 0";
  EXPECT_EQ(LexemeOf(doc[1], r.lexemes), nullptr);
  ASSERT_NE(LexemeOf(doc[2], r.lexemes), nullptr);
  EXPECT_EQ(*LexemeOf(doc[2], r.lexemes), "3.00");
}

TEST(Parse, ReadsTwentyDigitIntegersAsIntegersOnlyWithinSixtyFourBits) {
  rapidjson::Document doc;
  ASSERT_TRUE(ParseText("12345678901234567890", &doc).ok);  // 20 digits, < 2^64
  EXPECT_TRUE(doc.IsUint64());
  EXPECT_EQ(doc.GetUint64(), 12345678901234567890u);
  ASSERT_TRUE(ParseText("99999999999999999999", &doc).ok);  // 20 digits, >= 2^64
  EXPECT_TRUE(doc.IsDouble());
  ASSERT_TRUE(ParseText("-12345678901234567890", &doc).ok);
  EXPECT_TRUE(doc.IsDouble());
}

TEST(Parse, KeepsIdsThatArrivedAsDifferentNumbersApart) {
  rapidjson::Document a, b, c;
  const ParseResult ra = ParseText(R"({"id":18446744073709551616})", &a);
  const ParseResult rb = ParseText(R"({"id":18446744073709551617})", &b);
  const ParseResult rc = ParseText(R"({"id":18446744073709551616.0})", &c);
  ASSERT_TRUE(ra.ok && rb.ok && rc.ok);
  const rapidjson::Value& ia = *Find(a, "id");
  const rapidjson::Value& ib = *Find(b, "id");
  const rapidjson::Value& ic = *Find(c, "id");
  EXPECT_EQ(ia.GetDouble(), ib.GetDouble()) << "one double apart from nothing";
  EXPECT_EQ(IdKey(ia, ra.lexemes), "x:18446744073709551616");
  EXPECT_NE(IdKey(ia, ra.lexemes), IdKey(ib, rb.lexemes));
  EXPECT_NE(IdKey(ia, ra.lexemes), IdKey(ic, rc.lexemes));
  EXPECT_NE(IdKey(ia, ra.lexemes), "i:0");
  EXPECT_EQ(ClassifyId(&ia), IdKind::kOther) << "never an integer id equal to another";
  rapidjson::Document f;
  const ParseResult rf = ParseText(R"({"id":1e400})", &f);
  ASSERT_TRUE(rf.ok);
  EXPECT_EQ(ToCompact(*Find(f, "id"), rf.lexemes), "1e400");
  EXPECT_EQ(IdKey(*Find(f, "id"), rf.lexemes), "x:1e400");
  EXPECT_EQ(ToCompact(f, rf.lexemes), R"({"id":1e400})");
}

TEST(Parse, KeepsStrictEqualityBetweenIntegersDecimalsBooleansAndStrings) {
  rapidjson::Document doc;
  ASSERT_TRUE(ParseText(R"([1,1.0,true,"1",1E0,-0,0,1e400,1e400])", &doc).ok);
  EXPECT_FALSE(StrictEqual(doc[0], doc[1]));
  EXPECT_FALSE(StrictEqual(doc[0], doc[2]));
  EXPECT_FALSE(StrictEqual(doc[0], doc[3]));
  EXPECT_FALSE(StrictEqual(doc[0], doc[4])) << "1E0 is a decimal";
  EXPECT_TRUE(StrictEqual(doc[1], doc[4]));
  EXPECT_TRUE(StrictEqual(doc[5], doc[6])) << "-0 and 0 are the same integer";
  EXPECT_TRUE(StrictEqual(doc[7], doc[8]));
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
// A kept message costs about its size: a small one draws no 64 KiB chunk (an inbox of 256 of
// them held 16 MiB), and a large one still parses whole.
TEST(NewDocument, SizesItsAllocatorToThePayload) {
  const std::string small = R"({"method":"log","params":{"level":"info"}})";
  std::shared_ptr<rapidjson::Document> doc = json::NewDocument(small.size());
  ASSERT_TRUE(json::Parse(small, doc.get()).ok);
  EXPECT_LE(doc->GetAllocator().Capacity(), 1024u);
  EXPECT_EQ(json::StringMember((*doc)["params"], "level"), "info");

  std::string large = "[";
  for (int i = 0; i < 100000; ++i) large += (i ? ",\"" : "\"") + std::to_string(i) + "\"";
  large += "]";
  doc = json::NewDocument(large.size());
  ASSERT_TRUE(json::Parse(large, doc.get()).ok);
  EXPECT_EQ(doc->Size(), 100000u);
}

}  // namespace fakehost::json
