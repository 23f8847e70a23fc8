// Triggers made from an MCP server's own tools (harness/run/derive.hpp), through the fakehost
// binary, on a server of the test's own (tests/derive/server.py): what is made from what, that a
// tool not annotated read-only is never called unless fakehost.yaml says so, and the name the
// server announced heading the report.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "harness/json/json.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;

struct ServerRun {
  CommandResult command;
  std::string id, version, derived;
  std::map<std::string, std::string> status;
  bool wiped = false;  // the server's non-read-only tool was called
};

ServerRun RunServer(const std::string& config) {
  std::string dir = MakeTempDir();
  std::ofstream(dir + "/fakehost.yaml") << "protocol: mcp-stdio\n" << config;
  // The whole suite: each trigger is looked for only when a selected scenario sends it.
  std::vector<std::string> argv = {FakehostBin(), "run",
                                   "--config",    dir + "/fakehost.yaml",
                                   "--env",       "DERIVE_WIPED=" + dir + "/wiped",
                                   "--out",       dir,
                                   "--no-color",  "--jobs",
                                   "2",           "--",
                                   "python3",     SourceDir() + "/tests/derive/server.py"};
  ServerRun r;
  r.command = RunCommand(argv, std::chrono::seconds(120));
  rapidjson::Document report;
  if (json::Parse(ReadFile(dir + "/report.json"), &report).ok && report.IsObject()) {
    const rapidjson::Value& plugin = report["plugin"];
    r.id = json::StringMember(plugin, "id");
    r.version = json::StringMember(plugin, "version");
    r.derived = json::StringMember(plugin, "derived");
    for (const auto& s : report["scenarios"].GetArray())
      r.status[s["id"].GetString()] = s["status"].GetString();
  }
  r.wiped = fs::exists(dir + "/wiped");
  fs::remove_all(dir);
  return r;
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Derive, AnEmptyFakehostYamlGetsTriggersFromTheReadOnlyToolsAndNeverCallsTheOthers) {
  ServerRun r = RunServer("");
  EXPECT_FALSE(r.wiped) << "fakehost called a tool not annotated readOnlyHint: true";
  EXPECT_TRUE(Has(r.derived, "tool_call = tools/call clock")) << r.derived;
  EXPECT_TRUE(Has(r.derived, "structured = tools/call forecast")) << r.derived;
  EXPECT_TRUE(Has(r.derived, "echo = tools/call shout")) << r.derived;
  EXPECT_TRUE(Has(r.derived, "tool_missing_argument = tools/call clock without zone")) << r.derived;
  EXPECT_TRUE(Has(r.derived, "tool_mistyped_argument = tools/call clock with zone")) << r.derived;
  // Made from a call seen to keep the promise: structured content, answered in 0.7 s.
  EXPECT_TRUE(Has(r.derived, "slow = tools/call forecast")) << r.derived;
  EXPECT_EQ(r.status["tools/structured-content-returned"], "pass");
  EXPECT_EQ(r.status["tools/structured-content-conforms"], "pass");
  EXPECT_EQ(r.status["tools/missing-argument-is-a-tool-error"], "pass");
  // Its one page, without a nextCursor, makes the paging scenario not applicable.
  EXPECT_EQ(r.status["tools/pages-follow-the-cursor"], "skip");
  // The clock tool takes any zone: the mistyped call the schema refuses shows it.
  EXPECT_EQ(r.status["tools/mistyped-argument-is-refused"], "fail");
  // Named as it announced itself, not as its command ("server").
  EXPECT_EQ(r.id, "derive-test-server");
  EXPECT_EQ(r.version, "2.1.0");
}

TEST(Derive, AToolListedInFakehostYamlIsCalledAndAGivenTriggerOrIdWins) {
  ServerRun r = RunServer(
      "plugin_id: my-server\n"
      "tools: {call: [wipe]}\n"
      "triggers:\n"
      "  tool_call: {method: tools/call, params: {name: shout, arguments: {text: hi}}}\n");
  EXPECT_TRUE(r.wiped) << "the test would not see a call of wipe";
  EXPECT_FALSE(Has(r.derived, "tool_call =")) << r.derived;
  EXPECT_EQ(r.id, "my-server");
}

}  // namespace
}  // namespace fakehost::testing
