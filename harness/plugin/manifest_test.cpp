// The checker's machinery: locating pointers in text, path names, reading a plugin directory,
// detecting its protocol, and the profiles' rule lists.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "harness/json/json.hpp"
#include "harness/plugin/cross_rules.hpp"
#include "harness/plugin/json_locate.hpp"
#include "harness/plugin/test_support.hpp"
#include "harness/protocol/registry.hpp"

namespace fakehost::plugin::testing {
namespace {

namespace fs = std::filesystem;

TEST(LocatePointer, FindsValuesAndKeysThroughObjectsAndArrays) {
  const std::string text = R"({ "a" : [1, {"b\u0063": "x"}], "a~/b": true })";
  EXPECT_EQ(LocatePointer(text, ""), 0u);
  EXPECT_EQ(LocatePointer(text, "/a"), text.find('['));
  EXPECT_EQ(LocatePointer(text, "/a/1/bc"), text.find("\"x\""));
  EXPECT_EQ(LocatePointer(text, "/a/1/bc", true), text.find("\"b\\u"));
  EXPECT_EQ(LocatePointer(text, "/a~0~1b", true), text.find("\"a~/b\""));
  EXPECT_FALSE(LocatePointer(text, "/a/2"));
  EXPECT_FALSE(LocatePointer(text, "/zz"));
}

TEST(PointerToPath, PrintsTheLoadersPathForm) {
  rapidjson::Document d;
  ASSERT_TRUE(json::Parse(R"({"sources":[{"title":1}],"k":{"":1,"a.b":2,"0":3}})", &d).ok);
  EXPECT_EQ(PointerToPath(d, ""), "");
  EXPECT_EQ(PointerToPath(d, "/sources/0/title"), "sources[0].title");
  EXPECT_EQ(PointerToPath(d, "/k/"), R"(k[""])");
  EXPECT_EQ(PointerToPath(d, "/k/a.b"), R"(k["a.b"])");
  EXPECT_EQ(PointerToPath(d, "/k/0"), "k.0");
}

TEST(ExpandPointer, ExpandsStarsOverArraysAndObjects) {
  rapidjson::Document d;
  ASSERT_TRUE(json::Parse(R"({"c":[{"id":1},{"x":2},{"id":3}]})", &d).ok);
  EXPECT_EQ(ExpandPointer(d, "/c/*/id"), (std::vector<std::string>{"/c/0/id", "/c/2/id"}));
  EXPECT_EQ(ExpandPointer(d, "/*"), (std::vector<std::string>{"/c"}));
}

class PluginDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("plugin-dir-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
  }
  fs::path dir_;
  const std::vector<KnownProtocol> known_ = {{"flash-v1", "manifest.json"},
                                             {"rim-v1", "rim-plugin.json"}};
};

TEST_F(PluginDir, DetectsTheProtocolFromTheManifestFile) {
  std::string error;
  EXPECT_EQ(DetectProtocol(dir_.string(), known_, &error), "");
  EXPECT_NE(error.find("has no manifest (manifest.json or rim-plugin.json)"), std::string::npos)
      << error;
  Write("rim-plugin.json", "{}");
  EXPECT_EQ(DetectProtocol(dir_.string(), known_, &error), "rim-v1");
  Write("manifest.json", "{}");
  EXPECT_EQ(DetectProtocol(dir_.string(), known_, &error), "");
  EXPECT_NE(error.find("give --protocol"), std::string::npos) << error;
  EXPECT_EQ(DetectProtocol((dir_ / "nope").string(), known_, &error), "");
  EXPECT_NE(error.find("does not exist"), std::string::npos) << error;
}

TEST_F(PluginDir, SaysWhenThereIsNoManifestOrItCannotBeRead) {
  auto profile = LoadRealProfile("flash-v1");
  ManifestCheck c = CheckManifest(*profile, dir_.string());
  EXPECT_FALSE(c.readable);
  EXPECT_NE(c.error.find("has no manifest.json"), std::string::npos) << c.error;
  ASSERT_EQ(::mkfifo((dir_ / "manifest.json").c_str(), 0600), 0);
  c = CheckManifest(*profile, dir_.string());
  EXPECT_FALSE(c.readable);
  EXPECT_NE(c.error.find("not a regular file"), std::string::npos) << c.error;
}

TEST_F(PluginDir, ReadsTheManifestFromTheDirectory) {
  auto profile = LoadRealProfile("flash-v1");
  Write("manifest.json",
        "{\n  \"id\": \"a\",\n  \"name\": \"n\", \"version\": \"1\",\n"
        "  \"description\": \"d\", \"title\": 1\n}\n");
  ManifestCheck c = CheckManifest(*profile, dir_.string());
  ASSERT_TRUE(c.readable) << c.error;
  EXPECT_FALSE(c.loads);
  ASSERT_EQ(c.problems.size(), 1u) << Describe(c);
  EXPECT_EQ(c.problems[0].message, "manifest.json unknown field title");
  EXPECT_EQ(c.problems[0].line, 4);
  EXPECT_EQ(c.problems[0].column, 23);
  ASSERT_NE(c.manifest, nullptr);
  EXPECT_EQ(c.file, (dir_ / "manifest.json").string());
}

TEST(KnownRules, ListsStructuralSchemaAndProfileRulesWithTheirSources) {
  ASSERT_FALSE(protocol::ProtocolNames(".").empty());
  for (const std::string& protocol : protocol::ProtocolNames(".")) {
    auto profile = LoadRealProfile(protocol);
    std::vector<RuleInfo> rules;
    std::string error;
    ASSERT_TRUE(KnownRules(*profile, &rules, &error)) << error;
    std::set<std::string> ids;
    for (const auto& r : rules) {
      EXPECT_FALSE(r.source.empty()) << r.id;
      EXPECT_TRUE(ids.insert(r.id).second) << "listed twice: " << r.id;
    }
    // A protocol without manifests has nothing to check, so no rule at all.
    if (!profile->has_manifest()) {
      EXPECT_TRUE(ids.empty()) << protocol;
      continue;
    }
    EXPECT_TRUE(ids.count("unknown-field") && ids.count("json-syntax")) << protocol;
  }
}

TEST(ManifestProfile, ShowsTheScenarioTextForEachProtocol) {
  ASSERT_FALSE(protocol::ProtocolNames(".").empty());
  for (const std::string& protocol : protocol::ProtocolNames(".")) {
    auto profile = LoadRealProfile(protocol);
    ASSERT_TRUE(profile) << protocol;
    if (!profile->has_manifest()) continue;  // no manifest/loads-in-host to show
    EXPECT_FALSE(profile->manifest().spec.empty()) << protocol;
    EXPECT_FALSE(profile->manifest().requirement.empty()) << protocol;
  }
}

TEST(CrossRules, RefuseAnIncompleteRule) {
  rapidjson::Document d;
  ASSERT_TRUE(json::Parse(R"([{"rule":"r","kind":"unique","source":"s","message":"m"}])", &d).ok);
  std::string error;
  EXPECT_FALSE(CheckRuleData(d, &error));
  EXPECT_EQ(error, "/manifest/rules/0: incomplete unique rule (see cross_rules.hpp)");
  ASSERT_TRUE(json::Parse(R"([{"rule":"r","kind":"sometimes","source":"s"}])", &d).ok);
  EXPECT_FALSE(CheckRuleData(d, &error));
  EXPECT_EQ(error, "/manifest/rules/0: unknown kind 'sometimes'");
}

TEST(CrossRules, RefuseAPlaceholderTheyDoNotFill) {
  rapidjson::Document d;
  ASSERT_TRUE(json::Parse(R"([{"rule":"r","kind":"unique","source":"s","each":"/a/*",
                               "message":"repeats ${valeu}"}])",
                          &d)
                  .ok);
  std::string error;
  EXPECT_FALSE(CheckRuleData(d, &error));
  EXPECT_EQ(error.rfind("/manifest/rules/0: unknown placeholder ${valeu}", 0), 0u) << error;
  ASSERT_TRUE(json::Parse(R"([{"rule":"r","kind":"prefixed","source":"s","each":"/a/*",
                               "message":"m","when_prefix":"x.","prefix":"x.${plugin_id}."}])",
                          &d)
                  .ok);
  EXPECT_FALSE(CheckRuleData(d, &error));
  EXPECT_NE(error.find("unknown placeholder ${plugin_id}"), std::string::npos) << error;
  ASSERT_TRUE(json::Parse(R"([{"rule":"r","kind":"prefixed","source":"s","each":"/a/*",
                               "message":"m ${value}","when_prefix":"x.","prefix":"x.${/id"}])",
                          &d)
                  .ok);
  EXPECT_FALSE(CheckRuleData(d, &error));
  EXPECT_NE(error.find("unterminated '${'"), std::string::npos) << error;
  ASSERT_TRUE(json::Parse(R"([{"rule":"r","kind":"prefixed","source":"s","each":"/a/*",
                               "message":"m ${value}","when_prefix":"x.","prefix":"x.${/id}."}])",
                          &d)
                  .ok);
  EXPECT_TRUE(CheckRuleData(d, &error)) << error;
}

}  // namespace
}  // namespace fakehost::plugin::testing
