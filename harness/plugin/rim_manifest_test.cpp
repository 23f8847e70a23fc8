// Every RIM manifest rule (§2, §9, §12, §19): one manifest that passes and one that fails,
// with its message and line:column.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "harness/plugin/test_support.hpp"

namespace fakehost::plugin::testing {
namespace {

namespace fs = std::filesystem;

class RimManifest : public ::testing::Test {
 protected:
  void SetUp() override {
    profile_ = LoadRealProfile("rim-v1");
    dir_ = fs::temp_directory_path() / ("rim-manifest-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    std::ofstream(dir_ / "main.py") << "#!/usr/bin/env python3\n";
    fs::permissions(dir_ / "main.py", fs::perms::owner_all);
    std::ofstream(dir_ / "data.txt") << "x";
  }
  void TearDown() override { fs::remove_all(dir_); }
  // §19's minimal manifest with `extra` members (each starting with a comma).
  static std::string M(const std::string& extra, const std::string& id = "dev.example.greeter",
                       const std::string& entry = "main.py") {
    return R"({"manifest_version":1,"plugin_id":")" + id +
           R"(","display_name":"Greeter","version":"0.1.0","description":"Says hello.",)"
           R"("runtime_kind":"DesktopLocalProcess","entrypoint":")" +
           entry + "\"" + extra + "}";
  }
  ::testing::AssertionResult Refuses(const std::string& text, const std::string& rule,
                                     const std::string& message, const std::string& needle) {
    return testing::Refuses(*profile_, text, rule, message, needle, dir_.string());
  }
  ::testing::AssertionResult Loads(const std::string& text) {
    return testing::Loads(*profile_, text, dir_.string());
  }
  std::unique_ptr<protocol::Profile> profile_;
  fs::path dir_;
};

TEST_F(RimManifest, LoadsTheMinimalManifestOfSection19) {
  EXPECT_TRUE(Loads(M(R"(,"commands":[{"id":"greet","title":"Greeter: Greet",)"
                      R"("description":"Greets someone by name.",)"
                      R"("arguments":[{"name":"name","type":"string","required":false}]}])")));
}

TEST_F(RimManifest, RefusesUnknownKeysAtEveryLevel) {
  EXPECT_TRUE(Refuses(M(R"(,"harness_hints":{})"), "unknown-field",
                      "rim-plugin.json unknown field harness_hints", "\"harness_hints\""));
  EXPECT_TRUE(Refuses(M(R"(,"commands":[{"id":"a","title":"A","dangerus":true}])"), "unknown-field",
                      "rim-plugin.json commands[0] unknown field dangerus", "\"dangerus\""));
}

TEST_F(RimManifest, RefusesAMissingRequiredKey) {
  EXPECT_TRUE(Refuses(M(R"(,"commands":[{"id":"a"}])"), "missing-field",
                      "rim-plugin.json commands[0] missing field title", "{\"id\":\"a\"}"));
}

TEST_F(RimManifest, WantsBooleanDangerousAndAiCallable) {
  EXPECT_TRUE(Refuses(
      M(R"(,"commands":[{"id":"a","title":"A","dangerous":"yes"}])"), "type",
      R"(rim-plugin.json commands[0].dangerous must be a boolean, not string "yes")", "\"yes\""));
  EXPECT_TRUE(Refuses(M(R"(,"commands":[{"id":"a","title":"A","ai_callable":1}])"), "type",
                      "rim-plugin.json commands[0].ai_callable must be a boolean, not integer 1",
                      "1}"));
}

TEST_F(RimManifest, ChecksManifestVersionAndRuntimeKind) {
  std::string t = M("");
  EXPECT_TRUE(Refuses(std::string(t).replace(t.find(":1,"), 3, ":2,"), "manifest-version",
                      "rim-plugin.json manifest_version must be 1", "2,"));
  t.replace(t.find("DesktopLocalProcess"), 19, "Daemon");
  EXPECT_TRUE(Refuses(t, "runtime-kind",
                      "rim-plugin.json runtime_kind must be DesktopLocalProcess or WebSandboxed",
                      "\"Daemon\""));
}

TEST_F(RimManifest, WantsAReverseDomainPluginId) {
  for (const char* good : {"dev.example.hello-world", "Com.Example.X1", "a.b.c.d"})
    EXPECT_TRUE(Loads(M("", good))) << good;
  for (const char* bad : {"dev.example", "dev.example.hello_world", "dev..x", "dev.ex.é"})
    EXPECT_TRUE(Refuses(M("", bad), "plugin-id",
                        "rim-plugin.json plugin_id must be reverse-domain: at least three "
                        "dot-separated segments of ASCII letters, digits and hyphens (no "
                        "underscores)",
                        "\"" + std::string(bad) + "\""))
        << bad;
  for (const char* reserved : {"dev.rim.x", "com.rim.tools", "Dev.Rim.x"})
    EXPECT_TRUE(Refuses(M("", reserved), "plugin-id-reserved",
                        "rim-plugin.json plugin_id is reserved (ids starting with dev.rim. or "
                        "com.rim. belong to RIM)",
                        "\"" + std::string(reserved) + "\""))
        << reserved;
}

TEST_F(RimManifest, WantsUniqueCommandIds) {
  std::string t =
      M(R"(,"commands":[{"id":"a","title":"A"},{"id":"b","title":"B"},{"id":"a","title":"C"}])");
  EXPECT_TRUE(Refuses(t, "command-id-unique",
                      R"(rim-plugin.json commands[2].id repeats the command id "a")",
                      "\"a\",\"title\":\"C\""));
}

TEST_F(RimManifest, AcceptsTheCapabilityNamesOfTheNewestHost) {
  EXPECT_TRUE(
      Loads(M(R"(,"capabilities":["ui.panel","ui.notify","chat.read","chat.write",)"
              R"("chat.read.encrypted","chat.write.encrypted",)"
              R"("plugin.dev.example.greeter.restart_pod","plugin.dev.example.greeter.a.b"])")));
}

TEST_F(RimManifest, RefusesOtherBuiltInNames) {
  for (const char* name : {"events.read", "local.process", "network", "fs.read", "fs.write"})
    EXPECT_TRUE(Refuses(M(R"(,"capabilities":[")" + std::string(name) + "\"]"), "capability-name",
                        "rim-plugin.json capabilities[0] is not a capability a manifest may "
                        "declare (ui.panel, ui.notify, chat.read, chat.write, "
                        "chat.read.encrypted, chat.write.encrypted or plugin.<pluginId>.<verb>)",
                        "\"" + std::string(name) + "\""))
        << name;
}

TEST_F(RimManifest, AllowsNetworkFetchOnlyToWebSandboxedPlugins) {
  EXPECT_TRUE(Refuses(M(R"(,"capabilities":["network.fetch"])"), "capability-web-only",
                      "rim-plugin.json capabilities[0] is for WebSandboxed plugins only",
                      "\"network.fetch\""));
  std::string web = M(R"(,"capabilities":["network.fetch"])");
  EXPECT_TRUE(Loads(web.replace(web.find("DesktopLocalProcess"), 19, "WebSandboxed")));
}

TEST_F(RimManifest, ChecksPluginScopedNames) {
  EXPECT_TRUE(Refuses(M(R"(,"capabilities":["plugin.dev.other.plugin.run"])"),
                      "capability-plugin-scope",
                      "rim-plugin.json capabilities[0] is not this plugin's own key "
                      "(plugin-scoped names are plugin.<plugin_id>.<verb>)",
                      "\"plugin."));
  for (const char* verb : {"Restart", ".x", "x.", "a..b", "kill-pod"})
    EXPECT_TRUE(
        Refuses(M(R"(,"capabilities":["plugin.dev.example.greeter.)" + std::string(verb) + "\"]"),
                "capability-verb",
                "rim-plugin.json capabilities[0] has a verb that is not [a-z0-9_.] "
                "without a leading, trailing or doubled dot",
                "\"plugin."))
        << verb;
}

TEST_F(RimManifest, ChecksCapabilityLengthAndReservedSegments) {
  EXPECT_TRUE(
      Refuses(M(R"(,"capabilities":["plugin.dev.example.greeter.)" + std::string(120, 'x') + "\"]"),
              "capability-length", "rim-plugin.json capabilities[0] must be 4 to 128 bytes long",
              "\"plugin."));
  EXPECT_TRUE(Refuses(M(R"(,"capabilities":["plugin.dev.example.greeter.admin"])"),
                      "capability-reserved-segment",
                      "rim-plugin.json capabilities[0] has a segment named system, internal, "
                      "admin or audit",
                      "\"plugin."));
}

TEST_F(RimManifest, RefusesAnEncryptedChatNameWithoutItsPlainOne) {
  EXPECT_TRUE(Refuses(M(R"(,"capabilities":["chat.read","chat.write.encrypted"])"),
                      "capability-encrypted-needs-plain",
                      "rim-plugin.json capabilities[1] is declared without chat.write",
                      "\"chat.write.encrypted\""));
}

TEST_F(RimManifest, WantsAnExecutableEntrypointInsideThePluginDirectory) {
  EXPECT_TRUE(Loads(M("", "dev.example.greeter", "./main.py")));
  for (const char* outside : {"/usr/bin/python3", "../main.py", "a/../../main.py"})
    EXPECT_TRUE(Refuses(M("", "dev.example.greeter", outside), "entrypoint-inside",
                        "rim-plugin.json entrypoint is outside the plugin directory (the host "
                        "executes <plugin dir>/<entrypoint>)",
                        "\"" + std::string(outside) + "\""))
        << outside;
  EXPECT_TRUE(Refuses(M("", "dev.example.greeter", "missing.py"), "entrypoint-exists",
                      "rim-plugin.json entrypoint names no file in the plugin directory",
                      "\"missing.py\""));
  EXPECT_TRUE(Refuses(M("", "dev.example.greeter", "data.txt"), "entrypoint-executable",
                      "rim-plugin.json entrypoint is not executable (chmod +x it)",
                      "\"data.txt\""));
  EXPECT_TRUE(Refuses(M("", "dev.example.greeter", ""), "non-empty-string",
                      "rim-plugin.json entrypoint must not be empty", "\"\"}"));
}

TEST_F(RimManifest, ListsEveryProblemAtOnce) {
  std::string t = M(
      R"(,"capabilities":["fs.read"],"commands":[{"id":"a","title":"A","dangerous":"yes"}],"extra":1)",
      "dev.rim.x", "../p");
  ManifestCheck c = CheckManifestText(*profile_, t, "t", dir_.string());
  std::vector<std::string> rules;
  for (const auto& p : c.problems) rules.push_back(p.rule);
  EXPECT_EQ(rules, (std::vector<std::string>{"plugin-id-reserved", "entrypoint-inside",
                                             "capability-name", "type", "unknown-field"}))
      << Describe(c);
}

}  // namespace
}  // namespace fakehost::plugin::testing
