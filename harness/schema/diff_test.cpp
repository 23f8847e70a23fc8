#include "harness/schema/diff.hpp"

#include <gtest/gtest.h>

#include "harness/json/json.hpp"
#include "harness/schema/schema.hpp"

namespace fakehost::schema {
namespace {

rapidjson::Document Doc(std::string_view text) {
  rapidjson::Document d;
  EXPECT_TRUE(json::Parse(text, &d).ok) << text;
  return d;
}

// A two-entry schema: a host request that uses a shared Principal, and a plugin answer.
std::string Schema(std::string_view principal_extra = "", std::string_view result_extra = "",
                   std::string_view level_enum = R"(["info", "warn"])",
                   std::string_view code_enum = "[-32601, -32602]") {
  return std::string(R"({"definitions": {
    "Principal": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"})") +
         std::string(principal_extra) + R"(}, "additionalProperties": false},
    "Code": {"type": "integer", "if": {"minimum": -32768, "maximum": -32000}, "then": {"enum": )" +
         std::string(code_enum) + R"(}}},
  "$defs": {
    "go.request": {"x-direction": "host->plugin", "x-frozen": true, "x-closed-sets": ["/params/level"],
      "type": "object", "required": ["params"], "properties": {"params": {"type": "object",
        "properties": {"who": {"$ref": "#/definitions/Principal"}, "level": {"enum": )" +
         std::string(level_enum) + R"(}}}}},
    "go.response": {"x-direction": "plugin->host", "x-frozen": false, "x-closed-sets": [],
      "type": "object", "properties": {"result": {"type": "object", "required": ["ok"],
        "properties": {"ok": {"type": "boolean"}, "who": {"$ref": "#/definitions/Principal"})" +
         std::string(result_extra) + R"(}, "additionalProperties": false},
        "error": {"type": "object", "properties": {"code": {"$ref": "#/definitions/Code"}}}}}}})";
}

std::vector<SchemaChange> Diff(const std::string& old_text, const std::string& new_text) {
  rapidjson::Document o = Doc(old_text), n = Doc(new_text);
  return DiffSchemas(o, n);
}

TEST(DiffSchemas, FindsNothingBetweenASchemaAndItself) {
  EXPECT_TRUE(Diff(Schema(), Schema()).empty());
}

TEST(DiffSchemas, ReportsAnOptionalFieldAddedToAClosedResultAsWideningOnly) {
  auto changes = Diff(Schema(), Schema("", R"(, "debug": {"type": "string"})"));
  ASSERT_EQ(changes.size(), 1u);
  const SchemaChange& c = changes[0];
  EXPECT_EQ(c.kind, "property-added");
  EXPECT_EQ(c.detail, "optional field 'debug' added");
  ASSERT_EQ(c.locations.size(), 1u);
  EXPECT_EQ(c.locations[0].entry, "go.response");
  EXPECT_EQ(c.locations[0].pointer, "/result/debug");
  EXPECT_EQ(c.schema_pointer, "/$defs/go.response/properties/result/properties/debug");
  EXPECT_TRUE(c.widens);
  EXPECT_FALSE(c.narrows);  // the old result was closed: an old receiver rejects the field
  EXPECT_FALSE(c.frozen);
  EXPECT_EQ(c.direction, "plugin->host");
}

TEST(DiffSchemas, ReportsAChangeToASharedDefinitionOnceWithEveryFrameItShowsIn) {
  auto changes = Diff(Schema(), Schema(R"(, "name": {"type": "string"})"));
  ASSERT_EQ(changes.size(), 1u);
  const SchemaChange& c = changes[0];
  EXPECT_EQ(c.schema_pointer, "/definitions/Principal/properties/name");
  ASSERT_EQ(c.locations.size(), 2u);
  EXPECT_EQ(c.locations[0].entry, "go.request");
  EXPECT_EQ(c.locations[0].pointer, "/params/who/name");
  EXPECT_EQ(c.locations[1].entry, "go.response");
  EXPECT_EQ(c.locations[1].pointer, "/result/who/name");
  EXPECT_EQ(c.direction, "both");
  EXPECT_TRUE(c.frozen);  // one of its frames is frozen
}

TEST(DiffSchemas, MarksAValueAddedToAClosedSet) {
  auto changes = Diff(Schema(), Schema("", "", R"(["info", "warn", "trace"])"));
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].kind, "enum-value-added");
  EXPECT_EQ(changes[0].new_value, "\"trace\"");
  EXPECT_EQ(changes[0].locations[0].pointer, "/params/level");
  EXPECT_TRUE(changes[0].closed_set);
  EXPECT_TRUE(changes[0].widens);
  EXPECT_FALSE(changes[0].narrows);
}

TEST(DiffSchemas, FollowsAConditionWhoseTestIsUnchangedIntoItsBranches) {
  auto changes = Diff(Schema(), Schema("", "", R"(["info", "warn"])", "[-32601, -32602, -32004]"));
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].kind, "enum-value-added");
  EXPECT_EQ(changes[0].schema_pointer, "/definitions/Code/then/enum");
  EXPECT_EQ(changes[0].locations[0].pointer, "/error/code");
  EXPECT_FALSE(changes[0].closed_set);
}

TEST(DiffSchemas, TellsWideningFromNarrowingForTypesAndBounds) {
  const std::string old_text =
      R"({"$defs": {"x.notification": {"x-direction": "both", "x-frozen": false, "x-closed-sets": [],
          "properties": {"n": {"type": "integer", "maximum": 10}, "s": {"maxLength": 8}}}}})";
  const std::string new_text =
      R"({"$defs": {"x.notification": {"x-direction": "both", "x-frozen": false, "x-closed-sets": [],
          "properties": {"n": {"type": "number", "maximum": 10}, "s": {"maxLength": 4}}}}})";
  auto changes = Diff(old_text, new_text);
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0].kind, "type-widened");
  EXPECT_TRUE(changes[0].widens);
  EXPECT_EQ(changes[1].kind, "constraint-tightened");
  EXPECT_EQ(changes[1].detail, "maxLength 8 -> 4");
  EXPECT_TRUE(changes[1].narrows);
  EXPECT_FALSE(changes[1].widens);
}

TEST(DiffSchemas, ReportsRequirednessBothWays) {
  const std::string a =
      R"({"$defs": {"x.request": {"x-direction": "host->plugin", "x-frozen": false,
          "x-closed-sets": [], "properties": {"q": {}}, "required": ["q"]}}})";
  const std::string b =
      R"({"$defs": {"x.request": {"x-direction": "host->plugin", "x-frozen": false,
          "x-closed-sets": [], "properties": {"q": {}}}}})";
  auto optional = Diff(a, b);
  ASSERT_EQ(optional.size(), 1u);
  EXPECT_EQ(optional[0].kind, "property-became-optional");
  EXPECT_TRUE(optional[0].widens);
  EXPECT_FALSE(optional[0].narrows);
  auto required = Diff(b, a);
  ASSERT_EQ(required.size(), 1u);
  EXPECT_EQ(required[0].kind, "property-became-required");
  EXPECT_FALSE(required[0].widens);
}

TEST(DiffSchemas, ReportsEntriesAddedAndRemovedAndAnnotationChanges) {
  const std::string a = Schema();
  std::string b = Schema();
  b.replace(b.find(R"("x-frozen": false)"), 17, R"("x-frozen": true)");
  b.replace(b.find("\"go.response\""), 13, "\"go2.response\"");
  auto changes = Diff(a, b);
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0].kind, "entry-added");
  EXPECT_TRUE(changes[0].frozen);  // the new entry's own annotation
  EXPECT_EQ(changes[1].kind, "entry-removed");
  EXPECT_FALSE(changes[1].frozen);

  std::string c = Schema();
  c.replace(c.find(R"("x-frozen": false)"), 17, R"("x-frozen": true)");
  auto flipped = Diff(a, c);
  ASSERT_EQ(flipped.size(), 1u);
  EXPECT_EQ(flipped[0].kind, "frozen-changed");
  EXPECT_EQ(flipped[0].old_value, "false");
}

TEST(ReadAnnotations, NamesTheMissingAnnotation) {
  EntryAnnotations notes;
  std::string error;
  EXPECT_FALSE(ReadAnnotations(Doc(R"({"x-direction": "host->plugin"})"), &notes, &error));
  EXPECT_EQ(error, "x-frozen: missing (true or false)");
  EXPECT_FALSE(ReadAnnotations(Doc(R"({"x-direction": "sideways"})"), &notes, &error));
  EXPECT_NE(error.find("sideways"), std::string::npos);
  EXPECT_FALSE(
      ReadAnnotations(Doc(R"({"x-direction": "both", "x-frozen": true})"), &notes, &error));
  EXPECT_NE(error.find("x-closed-sets: missing"), std::string::npos);
  EXPECT_TRUE(ReadAnnotations(
      Doc(R"({"x-direction": "both", "x-frozen": true, "x-closed-sets": ["/a/*/b"]})"), &notes,
      &error));
  EXPECT_EQ(notes.closed_sets, std::vector<std::string>{"/a/*/b"});
}

TEST(AnnotationProblems, AcceptsAClosedSetInsideABranchAndRefusesOneThatNamesNoEnum) {
  std::string error;
  auto s = FrameSchema::LoadText(
      R"({"$defs": {"e.notification": {"x-direction": "host->plugin", "x-frozen": false,
          "x-closed-sets": ["/params/name", "/params/rows/*/kind", "/params/free"],
          "examples": [{}], "x-invalid-examples": [{"frame": 1, "pointer": "", "why": "x"}],
          "properties": {"params": {"properties": {
            "name": {"type": "string", "if": {"pattern": "^core:poll:"}, "else": {"enum": ["a"]}},
            "rows": {"items": {"properties": {"kind": {"const": "k"}}}},
            "free": {"type": "string"}}}}}}})",
      &error);
  ASSERT_TRUE(s) << error;
  auto problems = AnnotationProblems(*s, "e.notification");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "x-closed-sets: /params/free names no enum or const in the frame");
}

TEST(PointerMatches, MatchesStarsTokenByToken) {
  EXPECT_TRUE(PointerMatches("/a/*/b", "/a/7/b"));
  EXPECT_TRUE(PointerMatches("/a/*/b", "/a/*/b"));
  EXPECT_FALSE(PointerMatches("/a/*/b", "/a/b"));
  EXPECT_FALSE(PointerMatches("/a", "/ab"));
  EXPECT_TRUE(PointerMatches("", ""));
}

}  // namespace
}  // namespace fakehost::schema
