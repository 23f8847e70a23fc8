#include "harness/schema/violations.hpp"

#include <gtest/gtest.h>

#include "harness/json/json.hpp"

namespace fakehost::schema {
namespace {

rapidjson::Document Frame(std::string_view text) {
  rapidjson::Document doc;
  EXPECT_TRUE(json::Parse(text, &doc).ok) << text;
  return doc;
}

RawError E(std::vector<std::string> context, std::string description) {
  return {std::move(context), std::move(description)};
}

TEST(ContextToPointer, TurnsValijsonContextsIntoJsonPointers) {
  EXPECT_EQ(ContextToPointer({"<root>"}), "");
  EXPECT_EQ(ContextToPointer({"<root>", "[params]", "[0]"}), "/params/0");
  EXPECT_EQ(ContextToPointer({"<root>", "[a/b]", "[m~n]"}), "/a~1b/m~0n");
  EXPECT_EQ(ContextToPointer({"<root>", "[[x]]"}), "/[x]");  // only the outer brackets go
}

TEST(TargetViolations, DropsParentWrappersOfARealReason) {
  auto frame = Frame(R"({"params": {"level": "verbose"}})");
  const auto v = TargetViolations(
      {E({"<root>", "[params]", "[level]"}, "Failed to match against any enum values."),
       E({"<root>", "[params]"},
         "Failed to validate against schema associated with property name 'level'."),
       E({"<root>"}, "Failed to validate against schema associated with property name 'params'."),
       E({"<root>"}, "Failed to validate against child schema #0.")},
      frame);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].pointer, "/params/level");
  EXPECT_EQ(v[0].message, "Failed to match against any enum values (got string \"verbose\")");
}

TEST(TargetViolations, TurnsASilentFalseSchemaIntoItsPropertysViolation) {
  auto frame = Frame(R"({"result": {}, "error": {}})");
  const auto v = TargetViolations(
      {E({"<root>"}, "Failed to validate against schema associated with property name 'error'."),
       E({"<root>"},
         "Failed to validate against a conditional schema set by if-then-else "
         "constraints.")},
      frame);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].pointer, "/error");
  EXPECT_EQ(v[0].message, "property 'error' is not allowed here");
}

TEST(TargetViolations, KeepsOnlyTheDeepestSilentWrapper) {
  auto frame = Frame(R"({"params": {"x": 1}})");
  const auto v = TargetViolations(
      {E({"<root>", "[params]"},
         "Failed to validate against schema associated with property name 'x'."),
       E({"<root>"}, "Failed to validate against schema associated with property name 'params'.")},
      frame);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].pointer, "/params/x");
}

TEST(TargetViolations, MovesAdditionalPropertyAndMissingRequiredMessages) {
  auto frame = Frame(R"({"params": {"extra": 1}})");
  const auto v = TargetViolations(
      {E({"<root>", "[params]"},
         "Object contains a property that could not be validated using 'properties' or "
         "'additionalProperties' constraints: 'extra'."),
       E({"<root>", "[params]"}, "Missing required property 'level'.")},
      frame);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].pointer, "/params/extra");
  EXPECT_EQ(v[0].message, "unexpected property 'extra' (additionalProperties is false)");
  EXPECT_EQ(v[1].pointer, "/params");
  EXPECT_EQ(v[1].message, "missing required property 'level'");
}

TEST(TargetViolations, JoinsDistinctMessagesForOneValueAndDropsRepeats) {
  auto frame = Frame(R"({"id": null})");
  const auto v =
      TargetViolations({E({"<root>", "[id]"}, "Value type not permitted by 'type' constraint."),
                        E({"<root>", "[id]"}, "Value type not permitted by 'type' constraint."),
                        E({"<root>", "[id]"}, "Expected number greater than or equal to 1.000000")},
                       frame);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].pointer, "/id");
  EXPECT_EQ(v[0].message,
            "Value type not permitted by 'type' constraint (got null); Expected number greater "
            "than or equal to 1.000000 (got null)");
}

TEST(TargetViolations, KeepsASummaryThatNothingExplains) {
  auto frame = Frame(R"({"a": 1})");
  const auto v = TargetViolations(
      {E({"<root>"}, "Failed to validate against any schemas allowed by anyOf constraint.")},
      frame);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].pointer, "");
  EXPECT_EQ(v[0].message, "Failed to validate against any schemas allowed by anyOf constraint");
}

TEST(TargetViolations, PointsAtTheItemOfAFailedArrayItem) {
  auto frame = Frame(R"({"a": [1, "x"]})");
  const auto v = TargetViolations(
      {E({"<root>", "[a]", "[1]"}, "Value type not permitted by 'type' constraint."),
       E({"<root>", "[a]"}, "Failed to validate item #1 in array."),
       E({"<root>"}, "Failed to validate against schema associated with property name 'a'.")},
      frame);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].pointer, "/a/1");
}

}  // namespace
}  // namespace fakehost::schema
