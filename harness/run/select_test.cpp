// Selection by id and tag, and suites loaded side by side (ids, fragments).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/run/runner.hpp"

namespace fakehost::run {
namespace {

namespace fs = std::filesystem;

scenario::Scenario Make(std::string id, std::vector<std::string> tags) {
  scenario::Scenario s;
  s.id = std::move(id);
  s.tags = std::move(tags);
  return s;
}

std::vector<std::string> Ids(const std::vector<const scenario::Scenario*>& selected) {
  std::vector<std::string> out;
  for (const auto* s : selected) out.push_back(s->id);
  return out;
}

const std::vector<scenario::Scenario> kAll = {
    Make("handshake/accepts", {"handshake"}),
    Make("handshake/refuses", {"handshake", "refusal"}),
    Make("ids/string", {"ids"}),
    Make("shutdown/prompt", {"shutdown", "exit"}),
};

TEST(Select, TakesEveryScenarioWhenNothingIsAsked) { EXPECT_EQ(Ids(Select(kAll, {})).size(), 4u); }

TEST(Select, TakesScenariosWithAnyOfTheTags) {
  Selection s;
  s.tags = {"refusal", "exit"};
  EXPECT_EQ(Ids(Select(kAll, s)),
            (std::vector<std::string>{"handshake/refuses", "shutdown/prompt"}));
}

TEST(Select, NeedsBothAnIdGlobAndATagWhenBothAreGiven) {
  Selection s;
  s.only = {"handshake/*", "ids/*"};
  s.tags = {"handshake"};
  EXPECT_EQ(Ids(Select(kAll, s)),
            (std::vector<std::string>{"handshake/accepts", "handshake/refuses"}));
}

TEST(Select, DropsScenariosWithASkippedTagEvenWhenSelectedOtherwise) {
  Selection s;
  s.only = {"handshake/*"};
  s.skip_tags = {"refusal"};
  EXPECT_EQ(Ids(Select(kAll, s)), (std::vector<std::string>{"handshake/accepts"}));
  s = {};
  s.tags = {"handshake"};
  s.skip = {"*/accepts"};
  EXPECT_EQ(Ids(Select(kAll, s)), (std::vector<std::string>{"handshake/refuses"}));
}

TEST(Select, ComparesTagsExactly) {
  Selection s;
  s.tags = {"hand*"};
  EXPECT_TRUE(Select(kAll, s).empty());
}

class Suites : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    profile_ = protocol::Profile::Load("schema/rim-v1/profile.json", &error);
    ASSERT_TRUE(profile_) << error;
    dir_ = fs::temp_directory_path() /
           ("fakehost-suites-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& relative, const std::string& text) {
    fs::path p = dir_ / relative;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
  std::unique_ptr<protocol::Profile> profile_;
  fs::path dir_;
};

constexpr const char* kUsesHandshake = R"(title: Mine
spec: "§7"
requirement: A custom check.
level: must
tags: [custom]
steps:
  - use: handshake
  - shutdown: {}
)";

TEST_F(Suites, ACustomScenarioUsesTheStandardSuitesFragments) {
  Write("mine/custom/uses-handshake.yaml", kUsesHandshake);
  std::vector<scenario::Scenario> out;
  std::vector<std::string> errors;
  ASSERT_TRUE(LoadSuites({(dir_ / "mine").string()}, "scenarios/rim-v1", *profile_, &out, &errors))
      << (errors.empty() ? "" : errors.front());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].id, "custom/uses-handshake");
  ASSERT_GE(out[0].steps.size(), 3u);  // the handshake's send and expect, then the shutdown
  EXPECT_TRUE(out[0].steps[0].from_fragment);
  EXPECT_EQ(out[0].steps[0].loc.file, "scenarios/rim-v1/fragments/handshake.yaml");
}

TEST_F(Suites, ASuitesOwnFragmentComesBeforeTheStandardOne) {
  Write("mine/fragments/handshake.yaml", "- close_stdin: {}\n");
  Write("mine/custom/uses-handshake.yaml", kUsesHandshake);
  std::vector<scenario::Scenario> out;
  std::vector<std::string> errors;
  ASSERT_TRUE(LoadSuites({(dir_ / "mine").string()}, "scenarios/rim-v1", *profile_, &out, &errors))
      << (errors.empty() ? "" : errors.front());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].steps.front().kind, "close_stdin");
}

TEST_F(Suites, StandardAndCustomScenariosLoadTogetherInIdOrder) {
  Write("mine/aaa/first.yaml", kUsesHandshake);
  std::vector<scenario::Scenario> out;
  std::vector<std::string> errors;
  ASSERT_TRUE(LoadSuites(SuiteDirs({"standard", (dir_ / "mine").string()}, "scenarios/rim-v1"),
                         "scenarios/rim-v1", *profile_, &out, &errors))
      << (errors.empty() ? "" : errors.front());
  std::vector<scenario::Scenario> standard;
  ASSERT_TRUE(LoadSuite("scenarios/rim-v1", *profile_, &standard, &errors));
  EXPECT_EQ(out.size(), standard.size() + 1);
  EXPECT_EQ(out.front().id, "aaa/first");
  EXPECT_TRUE(std::is_sorted(out.begin(), out.end(),
                             [](const auto& a, const auto& b) { return a.id < b.id; }));
}

TEST_F(Suites, AnIdInTwoSuitesIsAnErrorNamingBothFiles) {
  std::string mine = Write("mine/handshake/accepts-offered-version.yaml", kUsesHandshake);
  std::vector<scenario::Scenario> out;
  std::vector<std::string> errors;
  EXPECT_FALSE(LoadSuites({"scenarios/rim-v1", (dir_ / "mine").string()}, "scenarios/rim-v1",
                          *profile_, &out, &errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find(mine), std::string::npos) << errors[0];
  EXPECT_NE(errors[0].find("scenarios/rim-v1/handshake/accepts-offered-version.yaml"),
            std::string::npos)
      << errors[0];
}

TEST_F(Suites, TheManifestChecksIdIsTaken) {
  Write("mine/manifest/loads-in-host.yaml", kUsesHandshake);
  std::vector<scenario::Scenario> out;
  std::vector<std::string> errors;
  EXPECT_FALSE(
      LoadSuites({(dir_ / "mine").string()}, "scenarios/rim-v1", *profile_, &out, &errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("manifest check"), std::string::npos) << errors[0];
}

TEST(SuiteDirs, StandardByDefaultAndByNameEachDirectoryOnce) {
  EXPECT_EQ(SuiteDirs({}, "scenarios/rim-v1"), (std::vector<std::string>{"scenarios/rim-v1"}));
  EXPECT_EQ(SuiteDirs({"mine", "standard", "./scenarios/rim-v1", "mine/"}, "scenarios/rim-v1"),
            (std::vector<std::string>{"mine", "scenarios/rim-v1"}));
}

}  // namespace
}  // namespace fakehost::run
