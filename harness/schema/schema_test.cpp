#include "harness/schema/schema.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "harness/json/json.hpp"

namespace fakehost::schema {
namespace {

rapidjson::Document ParseOrDie(std::string_view text) {
  rapidjson::Document doc;
  const json::ParseResult r = json::Parse(text, &doc);
  EXPECT_TRUE(r.ok) << r.error << " in " << text;
  return doc;
}

std::unique_ptr<FrameSchema> LoadOrDie(std::string_view text) {
  std::string error;
  std::unique_ptr<FrameSchema> schema = FrameSchema::LoadText(text, &error);
  EXPECT_NE(schema, nullptr) << error;
  return schema;
}

std::string LoadError(std::string_view text) {
  std::string error;
  EXPECT_EQ(FrameSchema::LoadText(text, &error), nullptr) << "loaded: " << text;
  return error;
}

constexpr std::string_view kSmall = R"({
  "definitions": {"Level": {"enum": ["info", "warn"]}},
  "$defs": {
    "log.notification": {
      "type": "object", "required": ["method", "params"],
      "properties": {
        "method": {"const": "log"},
        "params": {"type": "object", "required": ["level"],
                   "properties": {"level": {"$ref": "#/definitions/Level"}},
                   "additionalProperties": false}},
      "examples": [{"method": "log", "params": {"level": "info"}}],
      "x-invalid-examples": [
        {"frame": {"method": "log", "params": {"level": "loud"}}, "pointer": "/params/level",
         "why": "closed set"}]},
    "envelope.notification": {"type": "object", "required": ["method"],
                              "examples": [{"method": "x"}],
                              "x-invalid-examples": [{"frame": {}, "pointer": "", "why": "no method"}]}
  }
})";

TEST(FrameSchemaLoad, ListsItsEntriesInDocumentOrder) {
  auto schema = LoadOrDie(kSmall);
  ASSERT_NE(schema, nullptr);
  EXPECT_EQ(schema->DefNames(),
            (std::vector<std::string>{"log.notification", "envelope.notification"}));
  EXPECT_TRUE(schema->Has("log.notification"));
  EXPECT_FALSE(schema->Has("Level"));  // parts under "definitions" are not entries
  ASSERT_NE(schema->Def("log.notification"), nullptr);
  EXPECT_NE(json::Find(*schema->Def("log.notification"), "examples"), nullptr);
  EXPECT_EQ(schema->Def("nope"), nullptr);
}

TEST(FrameSchemaLoad, ReportsBadJsonWithLineAndColumn) {
  const std::string error = LoadError("{\n  \"$defs\": {,}\n}");
  EXPECT_EQ(error.rfind("2:", 0), 0u) << error;
  EXPECT_NE(error.find("invalid JSON"), std::string::npos) << error;
}

TEST(FrameSchemaLoad, ReportsADuplicateKeyByPointer) {
  const std::string error = LoadError(R"({"$defs": {"a": {"type": "object", "type": "array"}}})");
  EXPECT_NE(error.find("/$defs/a"), std::string::npos) << error;
  EXPECT_NE(error.find("duplicate"), std::string::npos) << error;
}

TEST(FrameSchemaLoad, RejectsARefToNowhereNamingItsPointer) {
  const std::string error =
      LoadError(R"({"$defs": {"a": {"properties": {"x": {"$ref": "#/definitions/Nope"}}}}})");
  EXPECT_EQ(error.rfind("/$defs/a/properties/x/$ref: ", 0), 0u) << error;
  EXPECT_NE(error.find("does not resolve"), std::string::npos) << error;
}

TEST(FrameSchemaLoad, RejectsARefCycleThatValijsonWouldFollowForever) {
  const std::string error = LoadError(
      R"({"definitions": {"A": {"$ref": "#/definitions/B"}, "B": {"$ref": "#/definitions/A"}},
          "$defs": {"a": {"$ref": "#/definitions/A"}}})");
  EXPECT_NE(error.find("$ref cycle"), std::string::npos) << error;
  EXPECT_NE(LoadError(R"({"$defs": {"a": {"$ref": "#/$defs/a"}}})").find("$ref cycle"),
            std::string::npos);
}

TEST(FrameSchemaLoad, AcceptsARecursiveSchema) {
  auto schema = LoadOrDie(R"({"definitions": {"Tree": {"type": "object",
      "properties": {"kids": {"type": "array", "items": {"$ref": "#/definitions/Tree"}}}}},
      "$defs": {"tree": {"$ref": "#/definitions/Tree"}}})");
  ASSERT_NE(schema, nullptr);
  auto good = ParseOrDie(R"({"kids": [{"kids": []}, {}]})");
  EXPECT_TRUE(schema->Validate("tree", good).empty());
  auto bad = ParseOrDie(R"({"kids": [{"kids": [3]}]})");
  const auto v = schema->Validate("tree", bad);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].pointer, "/kids/0/kids/0");
}

TEST(FrameSchemaLoad, RejectsARemoteRef) {
  const std::string error = LoadError(R"({"$defs": {"a": {"$ref": "other.json#/x"}}})");
  EXPECT_EQ(error.rfind("/$defs/a/$ref: ", 0), 0u) << error;
}

TEST(FrameSchemaLoad, RejectsKeywordsValijsonWouldSilentlyIgnore) {
  for (const char* keyword : {"unevaluatedProperties", "prefixItems", "dependentRequired",
                              "minContains", "format", "$id", "id", "$anchor", "nullable"}) {
    const std::string text = std::string(R"({"$defs": {"a": {"type": "object", "properties": )") +
                             R"({"b": {")" + keyword + R"(": false}}}}})";
    const std::string error = LoadError(text);
    EXPECT_EQ(error.rfind(std::string("/$defs/a/properties/b/") + keyword + ": ", 0), 0u) << error;
    EXPECT_NE(error.find("silently ignored"), std::string::npos) << error;
  }
}

TEST(FrameSchemaLoad, RejectsKeywordsBesideARef) {
  const std::string error = LoadError(
      R"({"definitions": {"A": {}}, "$defs": {"a": {"$ref": "#/definitions/A", "required": ["x"]}}})");
  EXPECT_EQ(error.rfind("/$defs/a/required: ", 0), 0u) << error;
  EXPECT_NE(error.find("allOf"), std::string::npos) << error;
}

TEST(FrameSchemaLoad, AcceptsAnnotationsBesideARef) {
  LoadOrDie(R"({"definitions": {"A": {}}, "$defs": {"a": {"$ref": "#/definitions/A",
               "$comment": "c", "title": "t", "examples": [1], "x-anything": {"$ref": 5}}}})");
}

TEST(FrameSchemaLoad, RejectsThenWithoutIfAndMisplacedSchemaKeyword) {
  EXPECT_EQ(LoadError(R"({"$defs": {"a": {"then": {}}}})").rfind("/$defs/a/then: ", 0), 0u);
  EXPECT_EQ(LoadError(R"({"$defs": {"a": {"items": {}, "additionalItems": false}}})")
                .rfind("/$defs/a/additionalItems: ", 0),
            0u);
  EXPECT_EQ(LoadError(R"({"$defs": {"a": {"not": {"$schema": "x"}}}})").rfind("/$defs/a/not/", 0),
            0u);
}

TEST(FrameSchemaLoad, RejectsValuesOfTheWrongType) {
  EXPECT_EQ(LoadError(R"({"$defs": {"a": {"type": "int"}}})").rfind("/$defs/a/type: ", 0), 0u);
  EXPECT_EQ(LoadError(R"({"$defs": {"a": {"minLength": -1}}})").rfind("/$defs/a/minLength", 0), 0u);
  EXPECT_EQ(LoadError(R"({"$defs": {"a": {"exclusiveMinimum": true}}})")
                .rfind("/$defs/a/exclusiveMinimum", 0),
            0u);
  EXPECT_EQ(LoadError(R"({"$defs": {"a": {"pattern": "("}}})").rfind("/$defs/a/pattern: ", 0), 0u);
  EXPECT_EQ(LoadError(R"({"$defs": {"a": {"properties": {"b": 3}}}})")
                .rfind("/$defs/a/properties/b: ", 0),
            0u);
}

TEST(FrameSchemaLoad, NeedsDefs) {
  EXPECT_NE(LoadError(R"({"definitions": {}})").find("$defs"), std::string::npos);
  EXPECT_NE(LoadError(R"([])").find("object"), std::string::npos);
}

TEST(FrameSchemaLoad, ReportsAMissingFileWithItsPath) {
  std::string error;
  EXPECT_EQ(FrameSchema::Load("no/such/schema.json", &error), nullptr);
  EXPECT_EQ(error.rfind("no/such/schema.json: ", 0), 0u) << error;
}

TEST(FrameSchemaValidate, AcceptsAValidFrameWithNoViolations) {
  auto schema = LoadOrDie(kSmall);
  auto frame = ParseOrDie(R"({"method": "log", "params": {"level": "warn"}})");
  EXPECT_TRUE(schema->Validate("log.notification", frame).empty());
  EXPECT_TRUE(schema->IsValid("log.notification", frame));
}

TEST(FrameSchemaValidate, ReportsOneTargetedViolationThroughARef) {
  auto schema = LoadOrDie(kSmall);
  auto frame = ParseOrDie(R"({"method": "log", "params": {"level": "loud"}})");
  const auto v = schema->Validate("log.notification", frame);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].pointer, "/params/level");
  EXPECT_NE(v[0].message.find("\"loud\""), std::string::npos) << v[0].message;
  EXPECT_FALSE(schema->IsValid("log.notification", frame));
}

TEST(FrameSchemaValidate, MovesAnUnexpectedPropertyToItsOwnPointer) {
  auto schema = LoadOrDie(kSmall);
  auto frame = ParseOrDie(R"({"method": "log", "params": {"level": "info", "x/y": 1}})");
  const auto v = schema->Validate("log.notification", frame);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].pointer, "/params/x~1y");
  EXPECT_NE(v[0].message.find("unexpected property 'x/y'"), std::string::npos) << v[0].message;
}

TEST(FrameSchemaValidate, ReportsAnUnknownEntry) {
  auto schema = LoadOrDie(kSmall);
  auto frame = ParseOrDie("{}");
  const auto v = schema->Validate("nope.request", frame);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].message.find("nope.request"), std::string::npos);
  EXPECT_FALSE(schema->IsValid("nope.request", frame));
}

TEST(FrameSchemaValidate, IsSafeToCallFromManyThreads) {
  auto schema = LoadOrDie(kSmall);
  auto good = ParseOrDie(R"({"method": "log", "params": {"level": "info"}})");
  auto bad = ParseOrDie(R"({"method": "log", "params": {"level": "loud"}})");
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 500; ++i) {
        if (!schema->Validate("log.notification", good).empty()) ++wrong;
        const auto v = schema->Validate("log.notification", bad);
        if (v.size() != 1 || v[0].pointer != "/params/level") ++wrong;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(RouteDef, PicksTheMethodsEntryOrTheEnvelopeFallback) {
  auto schema = LoadOrDie(kSmall);
  EXPECT_EQ(RouteDef(*schema, FrameKind::kNotification, "log"), "log.notification");
  EXPECT_EQ(RouteDef(*schema, FrameKind::kRequest, "log"), "envelope.request");
  EXPECT_EQ(RouteDef(*schema, FrameKind::kNotification, "other"), "envelope.notification");
  EXPECT_EQ(RouteDef(*schema, "response", "log"), "envelope.response");
  EXPECT_EQ(RouteDef(*schema, "notification", "log"), "log.notification");
  EXPECT_EQ(RouteDef(*schema, "event", "log"), "");
}

TEST(PointerAtOrBelow, ComparesWholeTokens) {
  EXPECT_TRUE(PointerAtOrBelow("/a/b", "/a"));
  EXPECT_TRUE(PointerAtOrBelow("/a", "/a"));
  EXPECT_TRUE(PointerAtOrBelow("/a", ""));
  EXPECT_FALSE(PointerAtOrBelow("/ab", "/a"));
  EXPECT_FALSE(PointerAtOrBelow("/a", "/a/b"));
  EXPECT_FALSE(PointerAtOrBelow("", "/a"));
}

TEST(CheckSchema, CountsExamplesAndCaughtCounterexamples) {
  auto schema = LoadOrDie(kSmall);
  const auto rows = CheckSchema(*schema);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].def, "log.notification");
  EXPECT_EQ(rows[0].examples, 1);
  EXPECT_EQ(rows[0].passed, 1);
  EXPECT_EQ(rows[0].counterexamples, 1);
  EXPECT_EQ(rows[0].caught, 1);
  EXPECT_TRUE(rows[0].problems.empty());
  EXPECT_TRUE(rows[1].problems.empty());
}

TEST(CheckSchema, ReportsFailingExamplesMissedCounterexamplesAndMissingLists) {
  auto schema = LoadOrDie(R"({"$defs": {
    "a.request": {"type": "object", "required": ["id"],
      "examples": [{"id": 1}, {}],
      "x-invalid-examples": [
        {"frame": {"id": 1}, "pointer": "", "why": "passes, so it is not caught"},
        {"frame": {}, "pointer": "/id", "why": "fails at the root, not at /id"},
        {"frame": {}, "why": "no pointer"}]},
    "b.request": {"type": "object"}}})");
  ASSERT_NE(schema, nullptr);
  const auto rows = CheckSchema(*schema);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].examples, 2);
  EXPECT_EQ(rows[0].passed, 1);
  EXPECT_EQ(rows[0].counterexamples, 3);
  EXPECT_EQ(rows[0].caught, 0);
  ASSERT_EQ(rows[0].problems.size(), 4u);
  EXPECT_NE(rows[0].problems[0].find("example #1"), std::string::npos) << rows[0].problems[0];
  EXPECT_NE(rows[0].problems[1].find("validates"), std::string::npos) << rows[0].problems[1];
  EXPECT_NE(rows[0].problems[2].find("must fail at '/id'"), std::string::npos)
      << rows[0].problems[2];
  EXPECT_NE(rows[0].problems[3].find("not {frame"), std::string::npos) << rows[0].problems[3];
  EXPECT_EQ(rows[1].problems.size(), 2u);  // neither list
}

}  // namespace
}  // namespace fakehost::schema

namespace fakehost::schema {
namespace {

// std::regex recurses per character: without the guard in LoadText, matching `pattern` against
// a 100,000-character string from a hostile plugin overflows the stack.
TEST(FrameSchemaValidate, AHugeStringWhereThereIsAPatternIsAViolationNotACrash) {
  std::string error;
  auto schema = FrameSchema::LoadText(
      R"({"$defs": {"x.request": {"type": "object",
                                  "properties": {"id": {"type": "string", "pattern": "^[a-z]+$"}}}}})",
      &error);
  ASSERT_NE(schema, nullptr) << error;
  rapidjson::Document frame;
  frame.SetObject();
  std::string huge(100000, 'a');
  frame.AddMember("id", rapidjson::Value(huge.c_str(), frame.GetAllocator()), frame.GetAllocator());
  std::vector<Violation> v = schema->Validate("x.request", frame);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].pointer, "/id");
  rapidjson::Document ok;
  ASSERT_TRUE(json::Parse(R"({"id": "abc"})", &ok).ok);
  EXPECT_TRUE(schema->Validate("x.request", ok).empty());
  rapidjson::Document bad;
  ASSERT_TRUE(json::Parse(R"({"id": "ABC"})", &bad).ok);
  EXPECT_EQ(schema->Validate("x.request", bad).size(), 1u);
}

}  // namespace
}  // namespace fakehost::schema
