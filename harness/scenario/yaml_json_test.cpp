#include "harness/scenario/yaml_json.hpp"

#include <gtest/gtest.h>

namespace fakehost::scenario {
namespace {

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

std::string Compact(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return buffer.GetString();
}

// Converts a YAML text to compact JSON, or "ERROR file:line:col: message" for the first error.
std::string ToJson(const std::string& yaml) {
  std::vector<LoadError> errors;
  rapidjson::Document doc;
  if (!ParseYamlToJson(yaml, "f.yaml", &doc, nullptr, &errors)) {
    return "ERROR " + errors.at(0).ToString();
  }
  return Compact(doc);
}

TEST(YamlToJson, TypesOnlyPlainScalars) {
  EXPECT_EQ(ToJson("[1, \"1\", '1', 1.0, true, \"true\", yes, no, on, off]"),
            R"([1,"1","1",1.0,true,"true","yes","no","on","off"])");
}

TEST(YamlToJson, ReadsNullsTheCoreSchemaWay) {
  EXPECT_EQ(ToJson("{a: null, b: ~, c: , d: \"null\", e: '', f: Null, g: NULL}"),
            R"({"a":null,"b":null,"c":null,"d":"null","e":"","f":null,"g":null})");
}

TEST(YamlToJson, ReadsBooleansTheCoreSchemaWay) {
  EXPECT_EQ(ToJson("[true, True, TRUE, false, False, FALSE, tRUE, y, n]"),
            R"([true,true,true,false,false,false,"tRUE","y","n"])");
}

TEST(YamlToJson, ReadsIntegersAndFloats) {
  EXPECT_EQ(ToJson("[0, -7, +7, 0x1F, 0o17, 1e3, .5, -1.25, 1., 2E-2, 1_000, 1.2.3, 0x]"),
            R"([0,-7,7,31,15,1000.0,0.5,-1.25,1.0,0.02,"1_000","1.2.3","0x"])");
  EXPECT_EQ(ToJson("[9223372036854775807, -9223372036854775808]"),
            "[9223372036854775807,-9223372036854775808]");
}

TEST(YamlToJson, RejectsIntegersOutsideInt64AtTheirPlace) {
  EXPECT_EQ(ToJson("a: 1\nb: [2, 9223372036854775808]"),
            "ERROR f.yaml:2:8: integer 9223372036854775808 is outside the 64-bit signed range");
  EXPECT_PRED2(StartsWith, ToJson("-9223372036854775809"), "ERROR f.yaml:1:1: ");
  EXPECT_EQ(ToJson("\"9223372036854775808\""), R"("9223372036854775808")");
}

TEST(YamlToJson, RejectsInfinityAndNan) {
  EXPECT_PRED2(StartsWith, ToJson("x: .inf"), "ERROR f.yaml:1:4: ");
  EXPECT_PRED2(StartsWith, ToJson("x: -.NaN"), "ERROR f.yaml:1:4: ");
  EXPECT_EQ(ToJson("x: '.inf'"), R"({"x":".inf"})");
}

TEST(YamlToJson, KeepsBlockScalarsAndStrTagsAsStrings) {
  EXPECT_EQ(ToJson("a: >-\n  12\nb: |\n  true\nc: !!str 5"), R"({"a":"12","b":"true\n","c":"5"})");
}

TEST(YamlToJson, RejectsOtherTags) {
  EXPECT_EQ(ToJson("a: !!int 5"),
            "ERROR f.yaml:1:4: unsupported YAML tag 'tag:yaml.org,2002:int' (only !!str is "
            "understood)");
  EXPECT_PRED2(StartsWith, ToJson("a: !custom x"), "ERROR f.yaml:1:4: ");
}

TEST(ParseYaml, RejectsDuplicateKeysAtTheSecondKey) {
  EXPECT_EQ(ToJson("a: 1\nb:\n  c: 1\n  c: 2\n"), "ERROR f.yaml:4:3: duplicate key 'c'");
  EXPECT_EQ(ToJson("x: [{k: 1, k: 2}]"), "ERROR f.yaml:1:12: duplicate key 'k'");
  EXPECT_EQ(ToJson("1: a\n\"1\": b"), "ERROR f.yaml:2:1: duplicate key '1'");
}

TEST(ParseYaml, ReportsEveryDuplicateAndStillBuildsTheTree) {
  std::vector<LoadError> errors;
  YamlTree tree;
  ASSERT_TRUE(ParseYaml("a: 1\na: 2\nb: {c: 1, c: 2}\n", "f.yaml", &tree, &errors));
  EXPECT_EQ(tree.root().size(), 3u);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].ToString(), "f.yaml:2:1: duplicate key 'a'");
  EXPECT_EQ(errors[1].ToString(), "f.yaml:3:11: duplicate key 'c'");
}

TEST(ParseYaml, RejectsKeysThatAreNotStrings) {
  EXPECT_EQ(ToJson("? [1, 2]\n: x"),
            "ERROR f.yaml:1:3: a key must be a plain string, not a list, map or null");
}

TEST(ParseYaml, RefusesAnchorsAndAliasesWhereTheyAppear) {
  EXPECT_TRUE(
      StartsWith(ToJson("a: &x [*x]"), "ERROR f.yaml:1:4: an anchor (&x) is not supported"));
  EXPECT_TRUE(
      StartsWith(ToJson("a: [1,\n  *x]"), "ERROR f.yaml:2:3: an alias (*x) is not supported"));
  EXPECT_NE(ToJson("a: &x 1").find("write the value out, or put shared steps in a fragment"),
            std::string::npos);
}

TEST(ParseYaml, ReportsSyntaxErrorsOneBased) {
  EXPECT_EQ(ToJson("a: [1\nb: 2"),
            "ERROR f.yaml:2:2: YAML syntax: did not find expected ',' or ']' (while parsing a "
            "flow sequence)");
  EXPECT_EQ(ToJson("a: b: c"),
            "ERROR f.yaml:1:5: YAML syntax: mapping values are not allowed in this context");
}

TEST(ParseYaml, StopsAtTheFirstLevelTooDeep) {
  EXPECT_EQ(ToJson("a: " + std::string(100000, '[')),
            "ERROR f.yaml:1:67: nesting deeper than 64 levels");
  EXPECT_EQ(ToJson(std::string(63, '[') + std::string(63, ']')),
            std::string(62, '[') + "[]" + std::string(62, ']'));
}

TEST(ParseYaml, RejectsMoreThanOneDocument) {
  EXPECT_EQ(ToJson("a: 1\n---\nb: 2"),
            "ERROR f.yaml:2:1: a file holds one YAML document, not several");
}

TEST(ParseYaml, GivesNullForAnEmptyDocument) {
  EXPECT_EQ(ToJson(""), "null");
  EXPECT_EQ(ToJson("# only a comment\n"), "null");
}

TEST(MarkAt, FindsKeysValuesAndElements) {
  std::vector<LoadError> errors;
  YamlTree tree;
  ASSERT_TRUE(ParseYaml("a:\n  b: [x, {c/d: 1}]\n  e~f: 2\n", "f.yaml", &tree, &errors));
  auto at = [&](const char* pointer, bool key) {
    const result::SourceLoc loc = LocOf("f.yaml", MarkAt(tree.root(), pointer, key));
    return std::to_string(loc.line) + ":" + std::to_string(loc.column);
  };
  EXPECT_EQ(at("/a/b", true), "2:3");
  EXPECT_EQ(at("/a/b", false), "2:6");
  EXPECT_EQ(at("/a/b/1/c~1d", true), "2:11");
  EXPECT_EQ(at("/a/b/1/c~1d", false), "2:16");
  EXPECT_EQ(at("/a/e~0f", false), "3:8");
  EXPECT_EQ(at("/a/zzz", false), "2:3");  // the deepest node reached
}

TEST(ParseYamlToJson, ConvertsAndLocatesValuesAndKeysByPointer) {
  rapidjson::Document doc;
  YamlLocator where;
  std::vector<LoadError> errors;
  ASSERT_TRUE(ParseYamlToJson("plugin:\n  argv: [a, \"b\"]\n  env: {X: 1}\n", "fakehost.yaml", &doc,
                              &where, &errors));
  EXPECT_EQ(Compact(doc), R"({"plugin":{"argv":["a","b"],"env":{"X":1}}})");
  EXPECT_EQ(where.At("/plugin/argv/1").ToString(), "fakehost.yaml:2:13");
  EXPECT_EQ(where.At("/plugin/env/X").ToString(), "fakehost.yaml:3:12");
  EXPECT_EQ(where.At("/plugin/env/X", true).ToString(), "fakehost.yaml:3:9");
  EXPECT_EQ(where.At("/plugin/nothing").ToString(), "fakehost.yaml:2:3");
  EXPECT_EQ(where.At("").ToString(), "fakehost.yaml:1:1");
}

TEST(ParseYamlToJson, ReportsEveryProblemAndStillLocates) {
  rapidjson::Document doc;
  YamlLocator where;
  std::vector<LoadError> errors;
  EXPECT_FALSE(ParseYamlToJson("a: 1\na: .inf\nb:\n  c: 99999999999999999999\n", "f.yaml", &doc,
                               &where, &errors));
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors[0].ToString(), "f.yaml:2:1: duplicate key 'a'");
  EXPECT_PRED2(StartsWith, errors[1].ToString(), "f.yaml:2:4: '.inf' has no JSON representation");
  EXPECT_PRED2(StartsWith, errors[2].ToString(), "f.yaml:4:6: integer 99999999999999999999");
  EXPECT_EQ(where.At("/b/c").ToString(), "f.yaml:4:6");
}

TEST(ParseYamlToJson, FailsWithoutATreeOnHostileInput) {
  for (const char* yaml : {",", "#\xff\n,", "a: &x 1"}) {
    rapidjson::Document doc;
    YamlLocator where;
    std::vector<LoadError> errors;
    EXPECT_FALSE(ParseYamlToJson(yaml, "f.yaml", &doc, &where, &errors)) << yaml;
    ASSERT_EQ(errors.size(), 1u) << yaml;
    EXPECT_PRED2(StartsWith, errors[0].ToString(), "f.yaml:1:") << yaml;
    EXPECT_TRUE(doc.IsNull());
    EXPECT_EQ(where.At("/a").file, "f.yaml");
  }
}

}  // namespace
}  // namespace fakehost::scenario
