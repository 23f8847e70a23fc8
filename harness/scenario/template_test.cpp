#include "harness/scenario/template.hpp"

#include <map>

#include <gtest/gtest.h>

namespace fakehost::scenario {
namespace {

std::string Compact(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return buffer.GetString();
}

class SubstituteTest : public ::testing::Test {
 protected:
  SubstituteTest() {
    vars_.Parse(R"({"n":5,"name":"bob","obj":{"a":[1,2]},"f":1.5,"nul":null,
                   "item":{"args":{"x":"y"},"id":"cmd"}})");
  }

  // Resolves dotted paths in vars_, recording what was asked for.
  const rapidjson::Value* Find(std::string_view path) {
    asked_.emplace_back(path);
    const rapidjson::Value* v = &vars_;
    while (!path.empty()) {
      const std::size_t dot = path.find('.');
      const std::string key(path.substr(0, dot));
      if (!v->IsObject()) return nullptr;
      auto it = v->FindMember(key.c_str());
      if (it == v->MemberEnd()) return nullptr;
      v = &it->value;
      path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
    }
    return v;
  }

  // Substitutes `json` and returns the compact result, or "ERROR: ..." on failure.
  std::string Sub(const char* json) {
    rapidjson::Document in;
    in.Parse(json);
    EXPECT_FALSE(in.HasParseError()) << json;
    rapidjson::Document out;
    std::string error;
    if (!Substitute(
            in, [this](std::string_view p) { return Find(p); }, out.GetAllocator(), &out, &error)) {
      return "ERROR: " + error;
    }
    return Compact(out);
  }

  rapidjson::Document vars_;
  std::vector<std::string> asked_;
};

TEST_F(SubstituteTest, ReplacesAWholeStringWithTheTypedValue) {
  EXPECT_EQ(Sub(R"({"id":"${n}"})"), R"({"id":5})");
  EXPECT_EQ(Sub(R"("${obj}")"), R"({"a":[1,2]})");
  EXPECT_EQ(Sub(R"("${f}")"), "1.5");
  EXPECT_EQ(Sub(R"("${nul}")"), "null");
  EXPECT_EQ(Sub(R"("${name}")"), R"("bob")");
}

TEST_F(SubstituteTest, FollowsDottedPaths) {
  EXPECT_EQ(Sub(R"({"args":"${item.args}"})"), R"({"args":{"x":"y"}})");
  EXPECT_EQ(asked_, std::vector<std::string>{"item.args"});
}

TEST_F(SubstituteTest, SplicesTextIntoLongerStrings) {
  EXPECT_EQ(Sub(R"("hello ${name}!")"), R"("hello bob!")");
  EXPECT_EQ(Sub(R"("n=${n}, f=${f}")"), R"("n=5, f=1.5")");
  EXPECT_EQ(Sub(R"("o=${obj}")"), R"("o={\"a\":[1,2]}")");
  EXPECT_EQ(Sub(R"("${name}${name}")"), R"("bobbob")");
}

TEST_F(SubstituteTest, TreatsDollarDollarBraceAsALiteral) {
  EXPECT_EQ(Sub(R"("$${name}")"), R"("${name}")");
  EXPECT_EQ(Sub(R"("a $${b} ${name}")"), R"("a ${b} bob")");
  EXPECT_EQ(Sub(R"("costs $5")"), R"("costs $5")");
  EXPECT_TRUE(asked_.size() == 1u);
}

TEST_F(SubstituteTest, NamesAnUnknownVariable) {
  EXPECT_EQ(Sub(R"({"a":["x ${missing.path} y"]})"), "ERROR: unknown variable 'missing.path'");
}

TEST_F(SubstituteTest, RejectsBadSyntax) {
  EXPECT_EQ(Sub(R"("${name")").rfind("ERROR: unterminated '${'", 0), 0u);
  EXPECT_EQ(Sub(R"("${}")").rfind("ERROR: bad variable name ''", 0), 0u);
  EXPECT_EQ(Sub(R"("${a..b}")").rfind("ERROR: bad variable name 'a..b'", 0), 0u);
}

TEST_F(SubstituteTest, WalksObjectsAndArraysButLeavesKeysAlone) {
  EXPECT_EQ(Sub(R"({"${name}":["${n}",{"k":"${name}"}],"b":true,"c":1.0})"),
            R"({"${name}":[5,{"k":"bob"}],"b":true,"c":1.0})");
}

TEST(HasVariables, SeesVariablesAndEscapesAnywhere) {
  rapidjson::Document doc;
  doc.Parse(R"({"a":[1,{"b":"x ${y}"}]})");
  EXPECT_TRUE(HasVariables(doc));
  doc.Parse(R"({"a":[1,{"b":"$${y}"}]})");
  EXPECT_TRUE(HasVariables(doc));  // the escape still needs substituting
  doc.Parse(R"({"${k}":[1,{"b":"$ {y}"}]})");
  EXPECT_FALSE(HasVariables(doc));
  EXPECT_FALSE(HasVariables(std::string_view("plain")));
}

TEST(CheckTemplates, ReportsThePointerOfEachBadString) {
  rapidjson::Document doc;
  doc.Parse(R"({"ok":"${a.b}","bad":["x","${oops"],"k/1":"${}"})");
  std::vector<std::pair<std::string, std::string>> errors;
  CheckTemplates(doc, &errors);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].first, "/bad/1");
  EXPECT_EQ(errors[1].first, "/k~11");
}

}  // namespace
}  // namespace fakehost::scenario
