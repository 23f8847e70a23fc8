// Every Flash manifest rule: one manifest that passes and one that fails, with its message
// and line:column (flash-manifest.md; schema/flash-v1/manifest.schema.json and profile.json).
#include <gtest/gtest.h>

#include "harness/plugin/test_support.hpp"

namespace fakehost::plugin::testing {
namespace {

class FlashManifest : public ::testing::Test {
 protected:
  void SetUp() override { profile_ = LoadRealProfile("flash-v1"); }
  // The required keys plus `extra` (members, each starting with a comma).
  static std::string M(const std::string& extra, const std::string& exec = R"(["./p"])") {
    return R"({"id":"dev.example.tmux","name":"Tmux","version":"1.0.0","description":"d")" +
           (exec.empty() ? "" : ",\"exec\":" + exec) + extra + "}";
  }
  std::unique_ptr<protocol::Profile> profile_;
};

TEST_F(FlashManifest, LoadsTheTypicalManifest) {
  // Shaped like the typical one flash-manifest.md quotes.
  EXPECT_TRUE(Loads(*profile_, R"({
  "id": "tmux", "name": "tmux", "version": "0.3.0", "description": "tmux sessions and windows",
  "exec": ["./flash-plugin-tmux"],
  "capabilities": ["subprocess", "network_fetch"],
  "fetch_urls": ["https://example.com/api"],
  "listen": ["core:*", "core:apps.*"],
  "query": {}, "hints": {"fallback_on_empty": true},
  "commands": [{"command": "tmux", "subcommand": "session", "description": "Switch session"},
               {"command": "tmux", "subcommand": "*", "timeout_ms": 30000}],
  "sources": [{"name": "tmux.windows", "kind": "locations", "priority": "high"}],
  "bangs": {"command": "tmux", "items": [{"token": "w", "description": "windows", "source": "TMUX.windows"}]},
  "status": ["session", "window", "pane"],
  "navigation": ["tmux"], "actions": ["kill"],
  "verbs": [{"name": "split", "keystrokes": {"": "cmd-d", "com.apple.Terminal": "cmd-shift-d"}}],
  "mappings": [{"key": "ctrl-a", "mode": "insert", "command": ["tmux", "prefix"]}],
  "sandbox": {"exec": ["/usr/bin/tmux", "tmux"], "appleevents": false},
  "priority": 30, "only_bundle_ids": ["com.apple.Terminal"],
  "help": {"topics": [{"name": "tmux", "aliases": ["t"]}]}
})"));
}

TEST_F(FlashManifest, ReportsMalformedJsonWithLineAndColumn) {
  ManifestCheck c = CheckManifestText(*profile_, "{\n  \"id\": ,\n}", "test", "/");
  ASSERT_EQ(c.problems.size(), 1u) << Describe(c);
  EXPECT_EQ(c.problems[0].rule, "json-syntax");
  EXPECT_EQ(c.problems[0].message, "manifest.json is not valid JSON: invalid value");
  EXPECT_EQ(c.problems[0].line, 2);
  EXPECT_EQ(c.problems[0].column, 9);
}

TEST_F(FlashManifest, RefusesADuplicateKey) {
  std::string t = M(R"(,"listen":[],"listen":[])");
  EXPECT_TRUE(Refuses(*profile_, t, "duplicate-key", "manifest.json listen is given more than once",
                      "\"listen\""));
}

TEST_F(FlashManifest, NamesEveryUnknownKeyOfAnObjectAtOnce) {
  std::string t = M(R"(,"settings":{},"title":"x")");
  EXPECT_TRUE(Refuses(*profile_, t, "unknown-field",
                      "manifest.json unknown field(s) settings, title", "\"settings\""));
  t = M(R"(,"sources":[{"name":"a","title":"x"}])");
  EXPECT_TRUE(Refuses(*profile_, t, "unknown-field", "manifest.json sources[0] unknown field title",
                      "\"title\""));
  for (const char* nested :
       {R"(,"sandbox":{"x":1})", R"(,"hints":{"x":1})", R"(,"query":{"x":1})",
        R"(,"commands":[{"x":1}])", R"(,"mappings":[{"key":"k","command":[],"x":1}])",
        R"(,"verbs":[{"name":"v","x":1}])", R"(,"bangs":{"x":1})",
        R"(,"bangs":{"items":[{"token":"t","x":1}]})", R"(,"help":{"x":1})",
        R"(,"help":{"topics":[{"name":"n","x":1}]})"})
    EXPECT_FALSE(CheckManifestText(*profile_, M(nested), "t", "/").loads) << nested;
}

TEST_F(FlashManifest, RefusesAMissingRequiredKey) {
  std::string t = R"({"id":"a","name":"n","version":"1"})";
  EXPECT_TRUE(
      Refuses(*profile_, t, "missing-field", "manifest.json missing field description", "{"));
}

TEST_F(FlashManifest, RefusesAWrongType) {
  std::string t = M("", R"("./p")");
  EXPECT_TRUE(Refuses(*profile_, t, "type",
                      R"(manifest.json exec must be an array, not string "./p")", "\"./p\""));
}

TEST_F(FlashManifest, ChecksTheIdCharset) {
  for (const char* good : {"a", "dev.example_x-1", "a.b"})
    EXPECT_TRUE(Loads(*profile_, M("").replace(7, 16, good))) << good;
  for (const char* bad : {"Tmux", ".", "..", "a..b", "a/b", ""}) {
    std::string t = M("").replace(7, 16, bad);
    EXPECT_TRUE(Refuses(*profile_, t, "id-charset",
                        "manifest.json id must be lowercase [a-z0-9._-], not . or .. and without "
                        ".. (it names the data directory)",
                        "\"" + std::string(bad) + "\""))
        << bad;
  }
}

TEST_F(FlashManifest, RefusesABlankRequiredString) {
  std::string t = R"({"id":"a","name":"  ","version":"1","description":"d"})";
  EXPECT_TRUE(
      Refuses(*profile_, t, "non-empty-string", "manifest.json name must not be empty", "\"  \""));
}

TEST_F(FlashManifest, RefusesAnEmptyExecOrArgument) {
  EXPECT_TRUE(Refuses(*profile_, M("", "[]"), "exec-argv",
                      "manifest.json exec must be a non-empty argv array", "[]"));
  EXPECT_TRUE(Refuses(*profile_, M("", R"(["./p",""])"), "exec-argv",
                      "manifest.json exec[1] must not be an empty string", "\"\""));
}

TEST_F(FlashManifest, ChecksSandboxExecEntries) {
  EXPECT_TRUE(Loads(*profile_, M(R"(,"sandbox":{"exec":["/bin/sh","git"]})")));
  EXPECT_TRUE(Refuses(*profile_, M(R"(,"sandbox":{"exec":["bin/git"]})"), "sandbox-exec",
                      "manifest.json sandbox.exec[0] must be an absolute path or a bare tool name",
                      "\"bin/git\""));
}

TEST_F(FlashManifest, KnowsTheClosedCapabilitySet) {
  EXPECT_TRUE(Loads(*profile_, M(R"(,"capabilities":["wifi_info","clipboard","notify"])")));
  EXPECT_TRUE(Refuses(*profile_, M(R"(,"capabilities":["telepathy"])"), "capability-known",
                      R"(manifest.json capabilities[0] unknown capability "telepathy")",
                      "\"telepathy\""));
}

TEST_F(FlashManifest, WantsNetworkFetchExactlyWithFetchUrls) {
  EXPECT_TRUE(
      Refuses(*profile_, M(R"(,"capabilities":["network_fetch"])"), "network-fetch-iff-fetch-urls",
              "manifest.json capabilities[0] is network_fetch without a non-empty fetch_urls",
              "\"network_fetch\""));
  EXPECT_TRUE(Refuses(*profile_, M(R"(,"fetch_urls":["https://a"])"),
                      "network-fetch-iff-fetch-urls",
                      "manifest.json fetch_urls needs the network_fetch capability", "[\"https"));
  EXPECT_TRUE(Loads(*profile_, M(R"(,"capabilities":[],"fetch_urls":[])")));
}

TEST_F(FlashManifest, WantsHttpsFetchUrls) {
  std::string t = M(R"(,"capabilities":["network_fetch"],"fetch_urls":["http://a"])");
  EXPECT_TRUE(Refuses(*profile_, t, "fetch-url-https",
                      "manifest.json fetch_urls[0] must start with https://", "\"http://a\""));
}

TEST_F(FlashManifest, ChecksQueryPrefixes) {
  EXPECT_TRUE(Loads(*profile_, M(R"(,"query":{"prefixes":["=","calc:"]})")));
  EXPECT_TRUE(Refuses(*profile_, M(R"(,"query":{"prefixes":["a b"]})"), "query-prefix",
                      "manifest.json query.prefixes[0] must be non-empty without whitespace",
                      "\"a b\""));
}

TEST_F(FlashManifest, ChecksCommandsAndBangTokens) {
  EXPECT_TRUE(Refuses(*profile_, M(R"(,"commands":[{"command":""}])"), "command-non-empty",
                      "manifest.json commands[0].command must not be empty", "\"\""));
  EXPECT_TRUE(Refuses(*profile_, M(R"(,"bangs":{"items":[{"token":""}]})"), "bang-token",
                      "manifest.json bangs.items[0].token must not be empty", "\"\""));
}

TEST_F(FlashManifest, WantsBangSourcesDeclared) {
  std::string t = M(R"(,"sources":[{"name":"a"}],"bangs":{"items":[{"token":"t","source":"b"}]})");
  EXPECT_TRUE(Refuses(
      *profile_, t, "bang-source-declared",
      R"(manifest.json bangs.items[0].source names no declared source ("b" is not a sources[].name))",
      "\"b\""));
}

TEST_F(FlashManifest, ChecksStatusNames) {
  EXPECT_TRUE(Refuses(*profile_, M(R"(,"status":["ok","Bad"])"), "status-name",
                      "manifest.json status[1] must be a lowercase segment name [a-z0-9_-]",
                      "\"Bad\""));
}

TEST_F(FlashManifest, ChecksSourceKindPriorityAndMappingMode) {
  EXPECT_TRUE(Refuses(*profile_, M(R"(,"sources":[{"name":"a","kind":"files"}])"), "source-kind",
                      "manifest.json sources[0].kind must be default or locations", "\"files\""));
  EXPECT_TRUE(Refuses(*profile_, M(R"(,"sources":[{"name":"a","priority":"top"}])"),
                      "source-priority",
                      "manifest.json sources[0].priority must be low, normal, high, important or "
                      "urgent",
                      "\"top\""));
  EXPECT_TRUE(Refuses(
      *profile_, M(R"(,"mappings":[{"key":"k","command":[],"mode":"visual"}])"), "mapping-mode",
      "manifest.json mappings[0].mode must be all, normal or insert", "\"visual\""));
}

TEST_F(FlashManifest, RefusesALiveLocationsSource) {
  std::string t = M(R"(,"sources":[{"name":"a","kind":"locations","live":true}])");
  EXPECT_TRUE(Refuses(*profile_, t, "live-locations",
                      "manifest.json sources[0].kind cannot be locations for a live source",
                      "\"locations\""));
}

TEST_F(FlashManifest, WantsSourcesAllLiveOrAllWarm) {
  EXPECT_TRUE(Loads(*profile_, M(R"(,"sources":[{"name":"a","live":false},{"name":"b"}])")));
  std::string t = M(R"(,"sources":[{"name":"a"},{"name":"b","live":true}])");
  EXPECT_TRUE(Refuses(*profile_, t, "sources-all-live-or-warm",
                      "manifest.json sources[1].live differs from sources[0] (a plugin's sources "
                      "are all live or all warm)",
                      "true"));
}

TEST_F(FlashManifest, RefusesRuntimeKeysInAManifestOnlyPlugin) {
  EXPECT_TRUE(Loads(*profile_, M(R"(,"verbs":[{"name":"v","keystrokes":{"":"cmd-k"}}])", "")));
  EXPECT_TRUE(Refuses(*profile_, M(R"(,"listen":["core:*"])", ""), "manifest-only-keys",
                      "manifest.json listen is refused in a manifest-only plugin (no exec)",
                      "[\"core"));
  EXPECT_TRUE(Refuses(
      *profile_, M(R"(,"verbs":[{"name":"v","keystrokes":{"x":"k"}}])", ""),
      "manifest-only-verb-keystroke",
      R"(manifest.json verbs[0] needs a default keystroke (keystrokes[""]) in a manifest-only plugin (no exec))",
      "{\"name\":\"v\""));
}

TEST_F(FlashManifest, KeepsARelativeExecInsideThePluginDirectory) {
  for (const char* good : {R"(["/usr/bin/env","x"])", R"(["python3"])", R"(["./bin/../p"])"})
    EXPECT_TRUE(Loads(*profile_, M("", good))) << good;
  EXPECT_TRUE(Refuses(*profile_, M("", R"(["./a/../../p"])"), "exec-inside",
                      "manifest.json exec[0] leaves the plugin directory (a relative exec resolves "
                      "against the plugin root and must stay inside it)",
                      "\"./a"));
}

}  // namespace
}  // namespace fakehost::plugin::testing
