#include "harness/schema/supplied.hpp"

#include <gtest/gtest.h>

#include <string>

#include "harness/json/json.hpp"

namespace fakehost::schema {
namespace {

rapidjson::Document Json(std::string_view text) {
  rapidjson::Document doc;
  EXPECT_TRUE(json::Parse(text, &doc).ok) << text;
  return doc;
}

SuppliedVerdict Valid(std::string_view schema) { return CheckSuppliedSchema(Json(schema)); }
SuppliedVerdict Conforms(std::string_view schema, std::string_view value) {
  return CheckConformance(Json(schema), Json(value));
}

TEST(SuppliedSchema, DialectIsTheDeclaredOneOr2020Without) {
  EXPECT_EQ(DialectOf(Json(R"({"type": "object"})"), nullptr), Dialect::k2020_12);
  EXPECT_EQ(DialectOf(Json(R"(true)"), nullptr), Dialect::k2020_12);
  EXPECT_EQ(
      DialectOf(Json(R"({"$schema": "https://json-schema.org/draft/2020-12/schema"})"), nullptr),
      Dialect::k2020_12);
  EXPECT_EQ(DialectOf(Json(R"({"$schema": "http://json-schema.org/draft-07/schema#"})"), nullptr),
            Dialect::kDraft07);
  EXPECT_EQ(DialectOf(Json(R"({"$schema": "http://json-schema.org/draft-04/schema#"})"), nullptr),
            Dialect::kUnknown);
}

TEST(SuppliedSchema, AToolSchemaOfEveryDayKeywordsIsValid) {
  const SuppliedVerdict v = Valid(R"({
    "type": "object",
    "properties": {"city": {"type": "string", "minLength": 1.0, "pattern": "^[A-Z]"},
                   "days": {"type": ["integer", "null"], "minimum": 1, "maximum": 14}},
    "required": ["city"], "additionalProperties": false, "x-vendor": {"type": 7}})");
  EXPECT_EQ(v.judgement, Judgement::kHolds) << (v.problems.empty() ? "" : v.problems[0].message);
  EXPECT_EQ(Valid("true").judgement, Judgement::kHolds);
  EXPECT_EQ(Valid(R"({"prefixItems": [{"type": "string"}], "$defs": {"a": {}}})").judgement,
            Judgement::kHolds);
}

TEST(SuppliedSchema, AKeywordOfTheWrongTypeMakesItInvalidAtItsPointer) {
  SuppliedVerdict v = Valid(R"({"type": "object", "properties": {"a": {"type": "objekt"}}})");
  ASSERT_EQ(v.judgement, Judgement::kFails);
  EXPECT_EQ(v.problems[0].pointer, "/properties/a/type");
  v = Valid(R"({"type": "object", "required": "x"})");
  ASSERT_EQ(v.judgement, Judgement::kFails);
  EXPECT_EQ(v.problems[0].pointer, "/required");
  EXPECT_EQ(Valid(R"({"required": ["a", "a"]})").judgement, Judgement::kFails);
  EXPECT_EQ(Valid(R"({"minLength": -1})").judgement, Judgement::kFails);
  EXPECT_EQ(Valid(R"({"anyOf": []})").judgement, Judgement::kFails);
  EXPECT_EQ(Valid(R"(null)").judgement, Judgement::kFails);
  // 2020-12 has no array form of items; draft-07 has.
  EXPECT_EQ(Valid(R"({"items": [{"type": "string"}]})").judgement, Judgement::kFails);
  EXPECT_EQ(Valid(R"({"$schema": "http://json-schema.org/draft-07/schema#",
                      "items": [{"type": "string"}]})")
                .judgement,
            Judgement::kHolds);
}

TEST(SuppliedSchema, AnUnknownDialectIsUntested) {
  const SuppliedVerdict v = Valid(R"({"$schema": "http://json-schema.org/draft-04/schema#"})");
  EXPECT_EQ(v.judgement, Judgement::kUntested);
  EXPECT_NE(v.untested.find("draft-04"), std::string::npos) << v.untested;
}

TEST(SuppliedConformance, ADraft07CompatibleSchemaIsJudged) {
  const char* schema = R"({"type": "object",
    "properties": {"temperature": {"type": "number"}, "conditions": {"type": "string"}},
    "required": ["temperature", "conditions"]})";
  EXPECT_EQ(Conforms(schema, R"({"temperature": 21.5, "conditions": "cloudy"})").judgement,
            Judgement::kHolds);
  const SuppliedVerdict v = Conforms(schema, R"({"temperature": 21.5})");
  ASSERT_EQ(v.judgement, Judgement::kFails);
  EXPECT_NE(v.problems[0].message.find("conditions"), std::string::npos) << v.problems[0].message;
}

TEST(SuppliedConformance, NumbersCompareByValueAsJsonSchemaSays) {
  EXPECT_EQ(Conforms(R"({"type": "integer"})", "1.0").judgement, Judgement::kHolds);
  EXPECT_EQ(Conforms(R"({"const": 1})", "1.0").judgement, Judgement::kHolds);
  EXPECT_EQ(Conforms(R"({"type": "integer"})", "1.5").judgement, Judgement::kFails);
}

TEST(SuppliedConformance, FormatIsAnAnnotation) {
  EXPECT_EQ(Conforms(R"({"type": "string", "format": "date"})", R"("not a date")").judgement,
            Judgement::kHolds);
}

TEST(SuppliedConformance, A2020KeywordValijsonDoesNotImplementIsUntestedNamingIt) {
  for (const char* schema : {
           R"({"type": "array", "prefixItems": [{"type": "string"}]})",
           R"({"properties": {"a": {"unevaluatedProperties": false}}})",
           R"({"dependentRequired": {"a": ["b"]}})",
           R"({"contains": {"type": "string"}, "minContains": 2})",
           R"({"$dynamicRef": "#meta"})",
       }) {
    const SuppliedVerdict v = Conforms(schema, R"(["x", 1])");
    EXPECT_EQ(v.judgement, Judgement::kUntested) << schema;
    EXPECT_NE(v.untested.find("' at /"), std::string::npos) << v.untested;
  }
  const SuppliedVerdict v =
      Conforms(R"({"properties": {"list": {"prefixItems": [true]}}})", R"({"list": [1]})");
  EXPECT_NE(v.untested.find("'prefixItems' at /properties/list/prefixItems"), std::string::npos)
      << v.untested;
}

TEST(SuppliedConformance, RefsAreJudgedOnlyWhenLocalAndAlone) {
  const char* local =
      R"({"$defs": {"n": {"type": "number"}}, "properties": {"a": {"$ref": "#/$defs/n"}}})";
  EXPECT_EQ(Conforms(local, R"({"a": 1})").judgement, Judgement::kHolds);
  EXPECT_EQ(Conforms(local, R"({"a": "x"})").judgement, Judgement::kFails);
  // Remote: never fetched.
  EXPECT_EQ(Conforms(R"({"$ref": "https://example.com/s.json"})", "1").judgement,
            Judgement::kUntested);
  // Beside validation keywords: draft-07 ignores them, 2020-12 applies them.
  EXPECT_EQ(
      Conforms(R"({"$defs": {"n": {}}, "$ref": "#/$defs/n", "maxItems": 1})", "[1, 2]").judgement,
      Judgement::kUntested);
  // A cycle of bare $refs would make valijson recurse forever.
  EXPECT_EQ(Conforms(R"({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
                         "$ref": "#/$defs/a"})",
                     "1")
                .judgement,
            Judgement::kUntested);
}

TEST(SuppliedConformance, ADeclaredDraft07SchemaIsJudgedAsDraft07) {
  const char* tuple = R"({"$schema": "http://json-schema.org/draft-07/schema#",
    "items": [{"type": "string"}], "additionalItems": false})";
  EXPECT_EQ(Conforms(tuple, R"(["a"])").judgement, Judgement::kHolds);
  EXPECT_EQ(Conforms(tuple, R"(["a", "b"])").judgement, Judgement::kFails);
}

TEST(SuppliedConformance, AnInvalidSchemaOrAnUnsafePatternIsUntested) {
  EXPECT_EQ(Conforms(R"({"type": "objekt"})", "{}").judgement, Judgement::kUntested);
  const std::string long_text = "\"" + std::string(5000, 'a') + "\"";
  EXPECT_EQ(Conforms(R"({"pattern": "^a*$"})", long_text).judgement, Judgement::kUntested);
  EXPECT_EQ(Conforms(R"({"pattern": "^\\p{Letter}+$"})", R"("abc")").judgement,
            Judgement::kUntested);
  EXPECT_EQ(Conforms(R"({"pattern": "^a+$"})", R"("aaa")").judgement, Judgement::kHolds);
}

}  // namespace
}  // namespace fakehost::schema
