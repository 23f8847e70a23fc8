#include "harness/schema/instance.hpp"

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

std::string Made(std::string_view schema) {
  rapidjson::Document out;
  std::string why;
  if (!MakeConforming(Json(schema), "m", &out, &why)) return "none: " + why;
  return json::ToCompact(out);
}

TEST(Instance, RequiredMembersOnlyEachOfItsType) {
  EXPECT_EQ(Made(R"({"type": "object", "properties": {"a": {"type": "string"},
                    "b": {"type": "integer", "minimum": 3}, "c": {"type": "boolean"}},
                    "required": ["a", "b"]})"),
            R"({"a":"m","b":3})");
  EXPECT_EQ(Made(R"({"type": "object"})"), "{}");
}

TEST(Instance, GivenValuesWinOverMadeOnes) {
  EXPECT_EQ(Made(R"({"type": "object", "properties": {"unit": {"enum": ["C", "F"]},
                    "city": {"type": "string", "examples": ["Oslo"]},
                    "n": {"type": "number", "default": 2.5}}, "required": ["unit", "city", "n"]})"),
            R"({"unit":"C","city":"Oslo","n":2.5})");
}

TEST(Instance, FormatsBoundsRefsAndBranches) {
  EXPECT_EQ(Made(R"({"type": "string", "format": "date"})"), R"("2026-01-01")");
  EXPECT_EQ(Made(R"({"type": "string", "minLength": 3})"), R"("mxx")");
  EXPECT_EQ(Made(R"({"type": "integer", "exclusiveMaximum": 0})"), "-1");
  EXPECT_EQ(Made(R"({"type": "array", "items": {"type": "integer"}, "minItems": 2})"), "[1,1]");
  EXPECT_EQ(Made(R"({"$defs": {"p": {"type": "integer"}}, "type": "object",
                    "properties": {"x": {"$ref": "#/$defs/p"}}, "required": ["x"]})"),
            R"({"x":1})");
  EXPECT_EQ(Made(R"({"anyOf": [{"type": "null"}, {"type": "string"}]})"), "null");
}

TEST(Instance, ASchemaItCannotMeetGivesNothing) {
  EXPECT_EQ(Made(R"({"type": "string", "pattern": "^[0-9]+$"})").rfind("none: ", 0), 0u);
  EXPECT_EQ(Made("false").rfind("none: ", 0), 0u);
  // A keyword the gate cannot judge: nothing offered as conforming.
  EXPECT_EQ(Made(R"({"type": "array", "prefixItems": [{"type": "string"}]})").rfind("none: ", 0),
            0u);
}

TEST(Instance, BrokenVariantsAreRefusedByTheSchema) {
  rapidjson::Document schema = Json(R"({"type": "object", "properties": {"a": {"type": "string"},
      "b": {"type": "integer"}}, "required": ["a", "b"]})");
  rapidjson::Document ok, out;
  std::string why, member;
  ASSERT_TRUE(MakeConforming(schema, "m", &ok, &why)) << why;
  ASSERT_TRUE(MakeMissingMember(schema, ok, &out, &member));
  EXPECT_EQ(member, "a");
  EXPECT_EQ(json::ToCompact(out), R"({"b":1})");
  ASSERT_TRUE(MakeMistypedMember(schema, ok, &out, &member));
  EXPECT_EQ(member, "a");
  EXPECT_EQ(json::ToCompact(out), R"({"b":1,"a":42})");
  // Nothing required, nothing typed: no broken variant.
  rapidjson::Document loose = Json(R"({"type": "object"})");
  ASSERT_TRUE(MakeConforming(loose, "m", &ok, &why));
  EXPECT_FALSE(MakeMissingMember(loose, ok, &out, &member));
  EXPECT_FALSE(MakeMistypedMember(loose, ok, &out, &member));
}

}  // namespace
}  // namespace fakehost::schema
