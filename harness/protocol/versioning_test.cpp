#include "harness/protocol/versioning.hpp"

#include <gtest/gtest.h>

#include "harness/json/json.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/protocol/registry.hpp"

namespace fakehost::protocol {
namespace {

rapidjson::Document Doc(std::string_view text) {
  rapidjson::Document d;
  EXPECT_TRUE(json::Parse(text, &d).ok) << text;
  return d;
}

constexpr const char* kTable = R"({
  "version": 1,
  "profile": [{"pointer": "/limits", "topic": "limit", "direction": "both"}],
  "rules": [
    {"id": "grow", "section": "§1", "text": "May grow.", "verdict": "allowed",
     "when": {"area": "profile", "kinds": ["profile-increased"]}},
    {"id": "frozen", "section": "§2", "text": "Frozen.", "verdict": "breaking",
     "when": {"frozen": true}},
    {"id": "rest", "section": "chosen", "text": "Anything else.", "verdict": "breaking"}
  ]})";

TEST(ReadVersioning, ReadsRulesInOrder) {
  Versioning v;
  std::string error;
  ASSERT_TRUE(ReadVersioning(Doc(kTable), "p.json", &v, &error)) << error;
  EXPECT_EQ(v.version, 1);
  ASSERT_EQ(v.rules.size(), 3u);
  EXPECT_TRUE(v.rules[0].allowed);
  EXPECT_EQ(v.rules[1].when.frozen, true);
  ASSERT_EQ(v.profile.size(), 1u);
  EXPECT_EQ(v.profile[0].topic, "limit");
}

TEST(ReadVersioning, RefusesATableWithoutACatchAllRuleLast) {
  std::string text = kTable;
  text.replace(text.find(R"({"id": "rest")"), std::string::npos,
               R"({"id": "rest", "section": "s", "text": "t", "verdict": "breaking",
                   "when": {"area": "schema"}}]})");
  Versioning v;
  std::string error;
  EXPECT_FALSE(ReadVersioning(Doc(text), "p.json", &v, &error));
  EXPECT_EQ(error.rfind("p.json: /versioning/rules/2: the last rule must have no", 0), 0u) << error;
}

TEST(ReadVersioning, NamesTheBadMember) {
  Versioning v;
  std::string error;
  std::string text = kTable;
  text.replace(text.find("\"allowed\""), 9, "\"maybe\"");
  EXPECT_FALSE(ReadVersioning(Doc(text), "p.json", &v, &error));
  EXPECT_EQ(error, "p.json: /versioning/rules/0/verdict: expected \"allowed\" or \"breaking\"");
  text = kTable;
  text.replace(text.find("\"frozen\": true"), 14, "\"icy\": true");
  EXPECT_FALSE(ReadVersioning(Doc(text), "p.json", &v, &error));
  EXPECT_EQ(error, "p.json: /versioning/rules/1/when/icy: unknown condition");
}

TEST(Judge, TakesTheFirstRuleThatMatches) {
  Versioning v;
  std::string error;
  ASSERT_TRUE(ReadVersioning(Doc(kTable), "p.json", &v, &error));
  VersionChange c;
  c.area = "profile";
  c.kind = "profile-increased";
  c.frozen = true;
  EXPECT_EQ(Judge(v.rules, c).id, "grow");
  c.kind = "profile-decreased";
  EXPECT_EQ(Judge(v.rules, c).id, "frozen");
  c.frozen = false;
  EXPECT_EQ(Judge(v.rules, c).id, "rest");
}

TEST(DiffProfiles, ComparesTheNamedMembersKeyByKeySkippingComments) {
  auto o = Doc(R"({"limits": {"a": 1, "b": 2, "$comment": "x"}, "other": 1})");
  auto n = Doc(R"({"limits": {"a": 3, "c": 4, "$comment": "y"}, "other": 2})");
  auto changes = DiffProfiles(o, n, {{"/limits", "limit", "both"}});
  ASSERT_EQ(changes.size(), 3u);
  EXPECT_EQ(changes[0].pointer, "/limits/a");
  EXPECT_EQ(changes[0].kind, "profile-increased");
  EXPECT_EQ(changes[1].pointer, "/limits/b");
  EXPECT_EQ(changes[1].kind, "profile-removed");
  EXPECT_EQ(changes[2].pointer, "/limits/c");
  EXPECT_EQ(changes[2].kind, "profile-added");
  EXPECT_EQ(changes[2].topic, "limit");
}

TEST(Versioning, EveryShippedProfileCarriesAReadableTable) {
  ASSERT_FALSE(ProtocolNames(".").empty());
  for (const std::string& p : ProtocolNames(".")) {
    std::string error;
    auto profile = Profile::Load(ProfilePath(".", p), &error);
    ASSERT_TRUE(profile) << error;
    ASSERT_NE(profile->versioning(), nullptr) << p;
    const Versioning& v = *profile->versioning();
    // The table's version is the one the profile is of: a revision date's digits (MCP's
    // newest, the one it offers, 2025-11-25, is 20251125), else the N of a name ending in -vN.
    std::string expected;
    const std::string revision =
        profile->revisions() ? profile->revisions()->offer : profile->revision();
    for (char c : revision)
      if (c != '-') expected += c;
    if (expected.empty() && p.rfind("-v") != std::string::npos)
      expected = p.substr(p.rfind("-v") + 2);
    ASSERT_FALSE(expected.empty()) << p << ": neither a revision nor a -vN name";
    EXPECT_EQ(std::to_string(v.version), expected) << p;
    for (const auto& fact : v.profile)
      EXPECT_NE(json::Resolve(profile->document(), fact.pointer), nullptr)
          << p << ": " << fact.pointer << " names nothing in the profile";
  }
}

TEST(Versioning, TheLoaderRefusesAProfileWithABrokenTable) {
  std::string error;
  std::string text;
  {
    auto good = Profile::Load("schema/rim-v1/profile.json", &error);
    ASSERT_TRUE(good) << error;
    text = json::ToCompact(good->document());
  }
  text.replace(text.find("\"version\":1"), 11, "\"version\":0");
  EXPECT_EQ(Profile::LoadText(text, "p.json", &error), nullptr);
  EXPECT_NE(error.find("/versioning/version"), std::string::npos) << error;
}

}  // namespace
}  // namespace fakehost::protocol
