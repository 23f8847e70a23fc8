#include "harness/scenario/matcher.hpp"

#include <gtest/gtest.h>

namespace fakehost::scenario {
namespace {

rapidjson::Document J(const char* text) {
  rapidjson::Document doc;
  doc.Parse(text);
  EXPECT_FALSE(doc.HasParseError()) << text;
  return doc;
}

bool M(const char* pattern, const char* actual) {
  const rapidjson::Document a = J(actual);
  return Match(J(pattern), &a, nullptr);
}

// The single mismatch message of a failed match (the match must fail with exactly one).
std::string Why(const char* pattern, const char* actual, std::string_view base = {}) {
  std::vector<Mismatch> out;
  const rapidjson::Document p = J(pattern), a = J(actual);
  EXPECT_FALSE(Match(p, &a, &out, base)) << pattern << " vs " << actual;
  EXPECT_EQ(out.size(), 1u);
  return out.empty() ? "" : out[0].ToString();
}

TEST(Match, MatchesObjectsAsSubsets) {
  EXPECT_TRUE(M(R"({"a":1})", R"({"a":1,"b":2})"));
  EXPECT_TRUE(M(R"({})", R"({"b":2})"));
  EXPECT_TRUE(M(R"({"a":{"b":true}})", R"({"a":{"b":true,"c":null}})"));
  EXPECT_FALSE(M(R"({"a":1})", R"({"b":2})"));
  EXPECT_FALSE(M(R"({})", R"([])"));
  EXPECT_EQ(Why(R"({"a":1})", R"({"b":2})"), "/a: expected integer 1, got nothing (absent)");
}

TEST(Match, MatchesArraysExactlyWithElementsAsPatterns) {
  EXPECT_TRUE(M("[1,2]", "[1,2]"));
  EXPECT_FALSE(M("[1,2]", "[2,1]"));
  EXPECT_FALSE(M("[1,2]", "[1,2,3]"));
  EXPECT_FALSE(M("[]", "[1]"));
  EXPECT_TRUE(M(R"([{"a":1}])", R"([{"a":1,"b":2}])"));
  EXPECT_EQ(Why("[1,2]", "[1,2,3]"),
            "expected an array of 2 elements, got an array of 3 elements [1,2,3]");
  EXPECT_EQ(Why(R"({"x":[1,2]})", R"({"x":[1,5]})"), "/x/1: expected 2, got 5");
}

TEST(Match, ComparesScalarsByTypeAndValue) {
  EXPECT_TRUE(M("1", "1"));
  EXPECT_FALSE(M("1", "1.0"));
  EXPECT_FALSE(M("1", "true"));
  EXPECT_FALSE(M("1", R"("1")"));
  EXPECT_FALSE(M("1.0", "1"));
  EXPECT_TRUE(M("1.5", "1.5"));
  EXPECT_TRUE(M("null", "null"));
  EXPECT_FALSE(M("null", R"("null")"));
  EXPECT_FALSE(M(R"("null")", "null"));
  EXPECT_FALSE(M("false", "0"));
  EXPECT_TRUE(M("18446744073709551615", "18446744073709551615"));
  EXPECT_FALSE(M("-1", "18446744073709551615"));
  EXPECT_TRUE(M(R"("a\u0000b")", R"("a\u0000b")"));
  EXPECT_FALSE(M(R"("a\u0000b")", R"("a\u0000c")"));
}

TEST(Match, WordsScalarMismatchesWithTypesWhenTheyDiffer) {
  EXPECT_EQ(Why(R"({"id":1})", R"({"id":"1"})"), "/id: expected integer 1, got string \"1\"");
  EXPECT_EQ(Why(R"({"accepted":false})", R"({"accepted":true})", "/result"),
            "/result/accepted: expected false, got true");
  EXPECT_EQ(Why("1", "1.0"), "expected integer 1, got number 1.0");
  EXPECT_EQ(Why(R"("null")", "null"), "expected string \"null\", got null");
  EXPECT_EQ(Why(R"({"a":1})", "[]"), "expected an object, got array []");
}

TEST(Match, EscapesKeysInMismatchPointers) {
  EXPECT_EQ(Why(R"({"a/b":{"c~d":1}})", R"({"a/b":{"c~d":2}})"), "/a~1b/c~0d: expected 1, got 2");
}

TEST(Match, TypeOperatorAcceptsANameOrAList) {
  EXPECT_TRUE(M(R"({"$type":"string"})", R"("x")"));
  EXPECT_FALSE(M(R"({"$type":"string"})", "1"));
  EXPECT_TRUE(M(R"({"$type":"integer"})", "-3"));
  EXPECT_FALSE(M(R"({"$type":"integer"})", "1.0"));
  EXPECT_TRUE(M(R"({"$type":"number"})", "1"));
  EXPECT_TRUE(M(R"({"$type":"number"})", "1.5"));
  EXPECT_TRUE(M(R"({"$type":"null"})", "null"));
  EXPECT_TRUE(M(R"({"$type":"boolean"})", "false"));
  EXPECT_TRUE(M(R"({"$type":"array"})", "[]"));
  EXPECT_TRUE(M(R"({"$type":"object"})", "{}"));
  EXPECT_TRUE(M(R"({"$type":["string","null"]})", "null"));
  EXPECT_FALSE(M(R"({"$type":["string","null"]})", "0"));
  EXPECT_EQ(Why(R"({"v":{"$type":["string","null"]}})", R"({"v":0})"),
            "/v: expected a string or null, got integer 0");
}

TEST(Match, TypeAndLengthTogetherReadAsOnePhrase) {
  EXPECT_EQ(Why(R"({"error":{"$type":"string","$min_length":1}})", R"({"error":null})", "/result"),
            "/result/error: expected a string of at least 1 byte, got null");
  EXPECT_EQ(Why(R"({"$type":"array","$min_length":1,"$max_length":3})", "[]"),
            "expected an array of 1 to 3 elements, got array []");
}

TEST(Match, OneOfMatchesIfAnyAlternativeDoes) {
  const char* p = R"({"$one_of":["a", {"$type":"integer"}]})";
  EXPECT_TRUE(M(p, R"("a")"));
  EXPECT_TRUE(M(p, "7"));
  EXPECT_FALSE(M(p, R"("b")"));
  EXPECT_EQ(Why(p, R"("b")"), "expected one of (\"a\" | an integer), got string \"b\"");
}

TEST(Match, AbsentRequiresTheMemberToBeMissing) {
  const char* p = R"({"error":{"$absent":true}})";
  EXPECT_TRUE(M(p, R"({"result":1})"));
  EXPECT_FALSE(M(p, R"({"error":null})"));
  EXPECT_EQ(Why(p, R"({"error":null})"), "/error: expected nothing (absent), got null");
  EXPECT_TRUE(M(R"({"x":{"$absent":false}})", R"({"x":null})"));
  EXPECT_FALSE(M(R"({"x":{"$absent":false}})", "{}"));
}

TEST(Match, OptionalMemberIsOneOfAbsentOrAType) {
  const char* p = R"({"note":{"$one_of":[{"$absent":true},{"$type":"string"}]}})";
  EXPECT_TRUE(M(p, "{}"));
  EXPECT_TRUE(M(p, R"({"note":"x"})"));
  EXPECT_FALSE(M(p, R"({"note":1})"));
}

TEST(Match, AnyAcceptsEveryPresentValue) {
  const char* p = R"({"id":{"$any":true}})";
  EXPECT_TRUE(M(p, R"({"id":null})"));
  EXPECT_TRUE(M(p, R"({"id":[1]})"));
  EXPECT_FALSE(M(p, "{}"));
  EXPECT_EQ(Why(p, "{}"), "/id: expected any value, got nothing (absent)");
}

TEST(Match, RegexSearchesStrings) {
  EXPECT_TRUE(M(R"({"$regex":"^\\d+\\.\\d+"})", R"("1.2.3")"));
  EXPECT_TRUE(M(R"({"$regex":"b"})", R"("abc")"));
  EXPECT_FALSE(M(R"({"$regex":"^b"})", R"("abc")"));
  EXPECT_FALSE(M(R"({"$regex":"1"})", "1"));
  EXPECT_EQ(Why(R"({"$regex":"^v"})", R"("1.0")"),
            "expected a string matching /^v/, got string \"1.0\"");
}

TEST(Match, RegexOnAHugeStringFailsInsteadOfCrashing) {
  // libstdc++'s std::regex overflows the stack here; the matcher must return.
  rapidjson::Document pattern = J(R"({"$regex":"^(a|b)*$"})");
  rapidjson::Value huge;
  std::string text(200000, 'a');
  huge.SetString(text.data(), static_cast<rapidjson::SizeType>(text.size()),
                 pattern.GetAllocator());
  EXPECT_FALSE(Match(pattern, &huge, nullptr));
}

TEST(Match, MinAndMaxCompareNumbersInclusively) {
  EXPECT_TRUE(M(R"({"$min":1,"$max":3})", "1"));
  EXPECT_TRUE(M(R"({"$min":1,"$max":3})", "3"));
  EXPECT_TRUE(M(R"({"$min":1,"$max":3})", "2.5"));
  EXPECT_FALSE(M(R"({"$min":1,"$max":3})", "0"));
  EXPECT_FALSE(M(R"({"$min":1,"$max":3})", "3.01"));
  EXPECT_FALSE(M(R"({"$min":1})", R"("5")"));
  EXPECT_TRUE(M(R"({"$min":-9223372036854775808})", "-9223372036854775808"));
  EXPECT_EQ(Why(R"({"$min":1,"$max":3})", "0"), "expected a number >= 1 and <= 3, got integer 0");
}

TEST(Match, LengthsCountBytesElementsAndMembers) {
  EXPECT_TRUE(M(R"({"$len":2})", R"("\u00e9")"));  // one character, two UTF-8 bytes
  EXPECT_TRUE(M(R"({"$len":3})", "[1,2,3]"));
  EXPECT_TRUE(M(R"({"$len":1})", R"({"a":1})"));
  EXPECT_FALSE(M(R"({"$len":1})", "1"));
  EXPECT_TRUE(M(R"({"$min_length":1})", R"("x")"));
  EXPECT_FALSE(M(R"({"$min_length":1})", R"("")"));
  EXPECT_TRUE(M(R"({"$max_length":1})", "[]"));
  EXPECT_FALSE(M(R"({"$max_length":1})", "[1,2]"));
  EXPECT_EQ(Why(R"({"$type":"string","$len":3})", R"("ab")"),
            "expected a string of exactly 3 bytes, got string \"ab\"");
  EXPECT_EQ(Why(R"({"$min_length":1})", "null"), "expected a value of length at least 1, got null");
}

TEST(Match, EachAppliesAPatternToEveryElement) {
  const char* p = R"({"items":{"$each":{"$type":"integer"}}})";
  EXPECT_TRUE(M(p, R"({"items":[]})"));
  EXPECT_TRUE(M(p, R"({"items":[1,2]})"));
  EXPECT_FALSE(M(p, R"({"items":{}})"));
  EXPECT_EQ(Why(p, R"({"items":[1,"x"]})"), "/items/1: expected an integer, got string \"x\"");
  EXPECT_TRUE(M(R"({"$each":{"id":{"$type":"string"}}})", R"([{"id":"a","n":1},{"id":"b"}])"));
}

// $unique: the values at a pointer in the elements all differ, by JSON type and value; an element
// without the pointer is not compared, and "" compares the elements themselves.
TEST(Match, UniqueWantsTheElementsToDifferAtThePointer) {
  const char* p = R"({"tools":{"$unique":"/name"}})";
  EXPECT_TRUE(M(p, R"({"tools":[{"name":"a"},{"name":"b"},{"title":"no name"}]})"));
  EXPECT_TRUE(M(p, R"({"tools":[{"name":1},{"name":"1"}]})"));
  EXPECT_FALSE(M(p, R"({"tools":[{"name":"a"},{"name":"b"},{"name":"a","x":1}]})"));
  EXPECT_FALSE(M(p, R"({"tools":{}})"));
  EXPECT_EQ(Why(p, R"({"tools":[{"name":"a"},{"name":"a"}]})"),
            "/tools: expected an array whose elements differ at /name, got "
            "array [{\"name\":\"a\"},{\"name\":\"a\"}]");
  EXPECT_TRUE(M(R"({"$unique":""})", "[1,2,3]"));
  EXPECT_FALSE(M(R"({"$unique":""})", R"([{"a":1},{"a":1}])"));
}

// $equals compares as JSON, never as a pattern: an object is not a subset, "$..." keys are data.
TEST(Match, EqualsComparesAValueExactly) {
  EXPECT_TRUE(M(R"({"$equals":[{"name":"a"},{"name":"b"}]})", R"([{"name":"a"},{"name":"b"}])"));
  EXPECT_FALSE(M(R"({"$equals":[{"name":"a"},{"name":"b"}]})", R"([{"name":"b"},{"name":"a"}])"));
  EXPECT_FALSE(M(R"({"$equals":{"a":1}})", R"({"a":1,"b":2})"));
  EXPECT_TRUE(M(R"({"$equals":{"$ref":"#/x"}})", R"({"$ref":"#/x"})"));
  EXPECT_FALSE(M(R"({"$equals":1})", "1.0"));
  EXPECT_FALSE(M(R"({"v":{"$equals":null}})", "{}"));
}

TEST(Match, ContainsLooksForAnElementOrASubstring) {
  EXPECT_TRUE(M(R"({"$contains":2})", "[1,2,3]"));
  EXPECT_FALSE(M(R"({"$contains":4})", "[1,2,3]"));
  EXPECT_TRUE(M(R"({"$contains":{"id":"b"}})", R"([{"id":"a"},{"id":"b","x":1}])"));
  EXPECT_TRUE(M(R"({"$contains":"ell"})", R"("hello")"));
  EXPECT_FALSE(M(R"({"$contains":"xyz"})", R"("hello")"));
  EXPECT_FALSE(M(R"({"$contains":"1"})", "1"));
  EXPECT_EQ(Why(R"({"$contains":"unknown method"})", R"("bad")"),
            "expected a value containing \"unknown method\", got string \"bad\"");
}

TEST(Match, NotInvertsAPattern) {
  EXPECT_TRUE(M(R"({"$not":{"$type":"null"}})", "1"));
  EXPECT_FALSE(M(R"({"$not":{"$type":"null"}})", "null"));
  EXPECT_TRUE(M(R"({"$not":0})", "1"));
  EXPECT_FALSE(M(R"({"$not":0})", "0"));
  EXPECT_TRUE(M(R"({"x":{"$not":{"$type":"string"}}})", "{}"));  // absent is not a string
  EXPECT_EQ(Why(R"({"$not":0})", "0"), "expected not 0, got integer 0");
}

TEST(Match, AllOperatorsOfANodeMustHold) {
  const char* p = R"({"$type":"string","$regex":"^a","$max_length":3})";
  EXPECT_TRUE(M(p, R"("abc")"));
  EXPECT_FALSE(M(p, R"("abcd")"));
  EXPECT_FALSE(M(p, R"("bcd")"));
  EXPECT_FALSE(M(p, "1"));
}

TEST(Match, StopsCollectingAfterTenMismatches) {
  std::string pattern = "{", actual = "{";
  for (int i = 0; i < 20; ++i) {
    const std::string key = "\"k" + std::to_string(i) + "\":";
    if (i > 0) pattern.append(","), actual.append(",");
    pattern.append(key).append("1");
    actual.append(key).append("2");
  }
  pattern.append("}"), actual.append("}");
  std::vector<Mismatch> out;
  const rapidjson::Document p = J(pattern.c_str()), a = J(actual.c_str());
  EXPECT_FALSE(Match(p, &a, &out));
  EXPECT_EQ(out.size(), kMaxMismatches);
  EXPECT_EQ(out[0].pointer, "/k0");
}

TEST(Match, ReportsEveryDifferingMemberUpToTheCap) {
  std::vector<Mismatch> out;
  const rapidjson::Document p = J(R"({"a":1,"b":2,"c":3})"), a = J(R"({"a":1,"b":0,"c":0})");
  EXPECT_FALSE(Match(p, &a, &out));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].pointer, "/b");
  EXPECT_EQ(out[1].pointer, "/c");
}

TEST(Match, TreatsAMalformedNodeAsAMismatch) {
  // Only reachable after substitution (CheckPattern rejects these at load time).
  EXPECT_FALSE(M(R"({"$min":"x"})", "1"));
  EXPECT_FALSE(M(R"({"$type":"int"})", "1"));
  EXPECT_FALSE(M(R"({"$bogus":1})", "1"));
  EXPECT_FALSE(M(R"({"$regex":"("})", R"("(")"));
}

TEST(Match, MatchesAnAbsentValueOnlyWithAbsentOrNotPatterns) {
  EXPECT_FALSE(Match(J("1"), nullptr, nullptr));
  EXPECT_FALSE(Match(J("{}"), nullptr, nullptr));
  EXPECT_TRUE(Match(J(R"({"$absent":true})"), nullptr, nullptr));
}

// --- CheckPattern

std::vector<PatternError> Check(const char* pattern) {
  std::vector<PatternError> errors;
  CheckPattern(J(pattern), &errors);
  return errors;
}

// A match's notes of what its operators could not judge.
std::vector<std::string> Unjudged(const char* pattern, const char* actual, bool* matched) {
  std::vector<std::string> notes;
  const rapidjson::Document p = J(pattern), a = J(actual);
  *matched = Match(p, &a, nullptr, "/result", &notes);
  return notes;
}

TEST(Match, JsonSchemaAcceptsAValidSchemaAndNamesWhatIsWrongInABadOne) {
  EXPECT_TRUE(M(R"({"$json_schema":true})", R"({"type":"object","required":["a"]})"));
  EXPECT_TRUE(M(R"({"$json_schema":true})", "true"));
  EXPECT_EQ(Why(R"({"$json_schema":true})", R"({"type":"objekt"})", "/s"),
            "/s: expected a valid JSON Schema, got a schema that is wrong at /type: unknown type "
            "name \"objekt\" (null, boolean, object, array, number, string or integer)");
  EXPECT_FALSE(M(R"({"s":{"$json_schema":true}})", "{}"));  // absent
}

TEST(Match, JsonSchemaOfAnUnknownDialectHoldsWithANote) {
  bool matched = false;
  const auto notes = Unjudged(R"({"$json_schema":true})",
                              R"({"$schema":"http://json-schema.org/draft-04/schema#"})", &matched);
  EXPECT_TRUE(matched);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].rfind("/result: the schema declares $schema", 0), 0u) << notes[0];
}

TEST(Match, ConformsJudgesAgainstAGivenSchemaOrOneFoundInAList) {
  EXPECT_TRUE(M(R"({"$conforms":{"schema":{"type":"string"}}})", R"("x")"));
  EXPECT_EQ(Why(R"({"$conforms":{"schema":{"required":["a"]}}})", "{}"),
            "expected a value that conforms to the schema, got missing required property 'a'");
  const char* listed = R"({"$conforms":{"schema_in":[{"name":"a","out":{"type":"string"}},
      {"name":"b","out":{"type":"integer"}}],"where":{"name":"b"},"at":"/out"}})";
  EXPECT_TRUE(M(listed, "7"));
  EXPECT_FALSE(M(listed, R"("7")"));
}

TEST(Match, ConformsThatCannotJudgeHoldsWithANoteNamingTheKeyword) {
  bool matched = false;
  auto notes = Unjudged(R"({"x":{"$conforms":{"schema":{"prefixItems":[{"type":"string"}]}}}})",
                        R"({"x":[1]})", &matched);
  EXPECT_TRUE(matched);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("/result/x: the schema uses 'prefixItems' at /prefixItems"),
            std::string::npos)
      << notes[0];
  // No item of the list names the tool: nothing to judge against.
  notes = Unjudged(R"({"$conforms":{"schema_in":[{"name":"a"}],"where":{"name":"z"},"at":"/o"}})",
                   "1", &matched);
  EXPECT_TRUE(matched);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("no item of the list matches"), std::string::npos) << notes[0];
}

TEST(Match, UncertainMatchesInsideOneOfNotAndContains) {
  const char* unknown = R"({"$conforms":{"schema":{"prefixItems":[true]}}})";
  bool matched = false;
  // A certain alternative wins: no note.
  std::string one_of = std::string(R"({"$one_of":[)") + unknown + R"(,{"$type":"integer"}]})";
  EXPECT_TRUE(Unjudged(one_of.c_str(), "1", &matched).empty());
  EXPECT_TRUE(matched);
  // Only the uncertain one: it holds, with its note.
  EXPECT_EQ(Unjudged(one_of.c_str(), R"("x")", &matched).size(), 1u);
  EXPECT_TRUE(matched);
  // $not of an uncertain match is uncertain too.
  std::string negated = std::string(R"({"$not":)") + unknown + "}";
  EXPECT_EQ(Unjudged(negated.c_str(), "1", &matched).size(), 1u);
  EXPECT_TRUE(matched);
  std::string contains = std::string(R"({"$contains":)") + unknown + "}";
  EXPECT_EQ(Unjudged(contains.c_str(), "[1]", &matched).size(), 1u);
  EXPECT_TRUE(matched);
}

TEST(CheckPattern, AcceptsEveryOperatorWithAGoodArgument) {
  EXPECT_TRUE(Check(R"({"a":{"$type":["string","null"]},"b":{"$one_of":[1,{"$type":"string"}]},
      "c":{"$absent":true},"d":{"$any":true},"e":{"$regex":"^x+$"},"f":{"$min":0,"$max":1.5},
      "g":{"$min_length":0,"$max_length":2,"$len":1},"h":{"$each":{"$type":"integer"}},
      "i":{"$contains":"x"},"j":{"$not":{"$type":"null"}},"k":[{"$any":true}],
      "l":{"$json_schema":true},"m":{"$conforms":{"schema":{"type":"string"}}},
      "n":{"$conforms":{"schema_in":"${list.tools}","where":{"name":"${call.params.name}"},
      "at":"/outputSchema"}}})")
                  .empty());
}

TEST(CheckPattern, RejectsAnUnknownOperatorAtItsKey) {
  const auto errors = Check(R"({"result":{"x":{"$typo":"string"}}})");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].pointer, "/result/x/$typo");
  EXPECT_TRUE(errors[0].at_key);
  EXPECT_NE(errors[0].message.find("unknown matcher operator '$typo'"), std::string::npos);
}

TEST(CheckPattern, RejectsOperatorsMixedWithMemberKeys) {
  const auto errors = Check(R"({"x":{"$type":"string","name":"a"}})");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].pointer, "/x/name");
  EXPECT_TRUE(errors[0].at_key);
  EXPECT_NE(errors[0].message.find("either all operators"), std::string::npos);
}

TEST(CheckPattern, RejectsBadArguments) {
  const char* bad[] = {
      R"({"$type":"int"})",
      R"({"$type":[]})",
      R"({"$type":["string",1]})",
      R"({"$one_of":[]})",
      R"({"$one_of":1})",
      R"({"$absent":"yes"})",
      R"({"$any":false})",
      R"({"$regex":1})",
      R"({"$regex":"(unclosed"})",
      R"({"$min":"1"})",
      R"({"$max":null})",
      R"({"$len":-1})",
      R"({"$min_length":1.5})",
      R"({"$each":{"$nope":1}})",
      R"({"$not":{"$len":"x"}})",
      R"({"$json_schema":false})",
      R"({"$unique":"name"})",
      R"({"$unique":1})",
      R"({"$conforms":{}})",
      R"({"$conforms":{"schema_in":[],"at":"x"}})",
      R"({"$conforms":{"schema":{},"schema_in":[]}})",
      R"({"$conforms":{"schema":{},"where":{}}})",
  };
  for (const char* pattern : bad) {
    const auto errors = Check(pattern);
    EXPECT_EQ(errors.size(), 1u) << pattern;
    if (!errors.empty()) {
      EXPECT_FALSE(errors[0].pointer.empty()) << pattern;
    }
  }
  EXPECT_EQ(Check(R"({"$regex":"(unclosed"})")[0].pointer, "/$regex");
  EXPECT_FALSE(Check(R"({"$regex":"(unclosed"})")[0].at_key);
  EXPECT_EQ(Check(R"({"$each":{"$nope":1}})")[0].pointer, "/$each/$nope");
}

TEST(CheckPattern, TakesVariablesOnTrust) {
  EXPECT_TRUE(Check(R"({"$min":"${limit}","$regex":"${re}","$type":"${t}"})").empty());
}

TEST(CheckPattern, ReportsEveryProblem) {
  EXPECT_EQ(Check(R"({"a":{"$x":1},"b":{"$y":1},"c":[{"$z":1}]})").size(), 3u);
}

// A match is cut off by the deadline in scope (the player's: the scenario's hard limit): one
// that would visit more values than fit before it stops and says why; without one, or before
// it, the same match holds.
TEST(MatchDeadline, StopsAMatchPastItAndSaysSo) {
  std::string items = "[";
  for (int i = 0; i < 5000; ++i)
    items += (i ? "," : "") + std::string("{\"name\":\"t") + std::to_string(i) + "\"}";
  items += "]";
  rapidjson::Document pattern, actual;
  pattern.Parse(R"({"tools": {"$each": {"name": {"$type": "string"}}}})");
  ASSERT_FALSE(pattern.HasParseError());
  actual.Parse(("{\"tools\":" + items + "}").c_str());
  ASSERT_FALSE(actual.HasParseError());
  EXPECT_TRUE(Match(pattern, &actual, nullptr));
  {
    MatchDeadline later(std::chrono::steady_clock::now() + std::chrono::hours(1));
    EXPECT_TRUE(Match(pattern, &actual, nullptr));
    EXPECT_FALSE(MatchDeadline::Passed());
  }
  {
    MatchDeadline past(std::chrono::steady_clock::now() - std::chrono::seconds(1));
    std::vector<Mismatch> why;
    EXPECT_FALSE(Match(pattern, &actual, &why, "/result"));
    EXPECT_TRUE(MatchDeadline::Passed());
    ASSERT_FALSE(why.empty());
    EXPECT_EQ(why.back().actual, "the hard limit passed while the frame was being matched");
  }
  EXPECT_FALSE(MatchDeadline::Passed());
  EXPECT_TRUE(Match(pattern, &actual, nullptr));  // the scope ended: no deadline
}

}  // namespace
}  // namespace fakehost::scenario
