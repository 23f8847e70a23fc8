#include "harness/run/plugin_config.hpp"

#include <gtest/gtest.h>

#include "harness/json/json.hpp"

namespace fakehost::run {
namespace {

std::string Errors(const std::vector<scenario::LoadError>& errors) {
  std::string out;
  for (const auto& e : errors) out += e.ToString() + "\n";
  return out;
}

std::unique_ptr<protocol::Profile> LoadProfile(const char* name) {
  std::string error;
  auto p = protocol::Profile::Load(std::string("schema/") + name + "/profile.json", &error);
  EXPECT_TRUE(p) << error;
  return p;
}

TEST(PluginConfig, ReadsEnvConfigAndTriggers) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  ASSERT_TRUE(ParsePluginConfig(R"(protocol: flash-v1
env: {NOTES_LOG: debug, RETRIES: 3}
config: {units: metric}
triggers:
  slow: {method: perform, params: {kind: command, command: notes, subcommand: sync, args: [], raw: "notes sync"}}
)",
                                "fakehost.yaml", &c, &errors))
      << Errors(errors);
  EXPECT_EQ(c.protocol, "flash-v1");
  EXPECT_EQ(c.env, (std::vector<std::string>{"NOTES_LOG=debug", "RETRIES=3"}));
  ASSERT_TRUE(c.config);
  EXPECT_EQ(json::ToCompact(*c.config), R"({"units":"metric"})");
  ASSERT_TRUE(c.triggers.count("slow"));
  EXPECT_EQ(json::ToCompact(*json::Find(*c.triggers["slow"], "method")), R"("perform")");
  auto profile = LoadProfile("flash-v1");
  EXPECT_TRUE(CheckPluginConfig(c, *profile, &errors)) << Errors(errors);
}

TEST(PluginConfig, JsonIsValidYamlToo) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  ASSERT_TRUE(ParsePluginConfig(R"({"triggers": {"log": {"method": "perform", "params": {}}}})",
                                "fakehost.yaml", &c, &errors))
      << Errors(errors);
  EXPECT_TRUE(c.triggers.count("log"));
}

TEST(PluginConfig, UnknownKeysAndWrongTypesAreErrorsWithLineAndColumn) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  EXPECT_FALSE(ParsePluginConfig("env: {A: [1]}\ntriggers:\n  slow: {methd: x}\ncolour: red\n",
                                 "f.yaml", &c, &errors));
  std::string all = Errors(errors);
  EXPECT_NE(all.find("f.yaml:1:"), std::string::npos) << all;
  EXPECT_NE(all.find("env values are strings"), std::string::npos) << all;
  EXPECT_NE(all.find("f.yaml:3:10: unknown key 'methd' in a trigger"), std::string::npos) << all;
  EXPECT_NE(all.find("a trigger needs method"), std::string::npos) << all;
  EXPECT_NE(all.find("f.yaml:4:1: unknown key 'colour'"), std::string::npos) << all;
}

TEST(PluginConfig, AnUnknownTriggerNameListsTheProtocolsNames) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  ASSERT_TRUE(ParsePluginConfig("triggers:\n  slowly: {method: rim.command.execute}\n", "f.yaml",
                                &c, &errors))
      << Errors(errors);
  auto profile = LoadProfile("rim-v1");
  EXPECT_FALSE(CheckPluginConfig(c, *profile, &errors));
  std::string all = Errors(errors);
  EXPECT_NE(all.find("f.yaml:2:3: unknown trigger 'slowly' for rim-v1 (known: "), std::string::npos)
      << all;
  EXPECT_NE(all.find("slow"), std::string::npos) << all;
}

TEST(PluginConfig, ConfigIsRefusedWhereTheHostPassesNone) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  ASSERT_TRUE(ParsePluginConfig("config: {a: 1}\nprotocol: flash-v1\n", "f.yaml", &c, &errors));
  auto rim = LoadProfile("rim-v1");
  EXPECT_FALSE(CheckPluginConfig(c, *rim, &errors));
  std::string all = Errors(errors);
  EXPECT_NE(all.find("config: is not passed to a rim-v1 plugin"), std::string::npos) << all;
  EXPECT_NE(all.find("protocol: flash-v1, but the run is rim-v1"), std::string::npos) << all;
}

TEST(PluginConfig, AnEmptyFileSaysNothing) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  EXPECT_TRUE(ParsePluginConfig("", "f.yaml", &c, &errors)) << Errors(errors);
  EXPECT_TRUE(c.triggers.empty());
}

}  // namespace
}  // namespace fakehost::run
