// The fake host's answers to plugin->host calls, through the fakehost binary: a plugin whose
// catalog comes from host.process_table publishes under the default answer, fails under the
// old bare {ok: true}, is untested (never failed) when it disliked a stand-in answer, and passes
// with its own answer from fakehost.yaml; a trigger a plugin cannot have makes its scenarios
// not applicable, with the author's reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "harness/json/json.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;

struct Verdicts {
  CommandResult command;
  std::map<std::string, std::string> status, reason;
  std::string Dump() const { return command.out + command.err; }
};

// Runs `argv` (whose --out is `dir`), then reads each scenario's status and reason from the
// report and removes `dir`.
Verdicts RunVerdicts(const std::vector<std::string>& argv, const std::string& dir,
                     std::chrono::seconds deadline) {
  Verdicts v;
  v.command = RunCommand(argv, deadline);
  rapidjson::Document report;
  if (json::Parse(ReadFile(dir + "/report.json"), &report).ok && report.IsObject())
    for (const auto& s : json::Find(report, "scenarios")->GetArray()) {
      std::string id = json::Find(s, "id")->GetString();
      v.status[id] = json::Find(s, "status")->GetString();
      if (const auto* r = json::Find(s, "reason")) v.reason[id] = r->GetString();
    }
  fs::remove_all(dir);
  return v;
}

// Runs the Flash fixture `plugin` (under fixtures/flash-v1) on the scenarios `only`, with
// `config` as its fakehost.yaml ("": the plugin's own).
Verdicts RunFlash(const std::string& plugin, const std::string& config,
                  const std::vector<std::string>& only,
                  const std::vector<std::string>& flags = {}) {
  std::string dir = MakeTempDir();
  std::vector<std::string> argv = {
      FakehostBin(), "run", "--plugin",  FixturesDir() + "/flash-v1/" + plugin,
      "--out",       dir,   "--no-color"};
  if (!config.empty()) {
    std::ofstream(dir + "/fakehost.yaml") << config;
    argv.insert(argv.end(), {"--config", dir + "/fakehost.yaml"});
  }
  for (const auto& o : only) argv.insert(argv.end(), {"--only", o});
  argv.insert(argv.end(), flags.begin(), flags.end());
  return RunVerdicts(argv, dir, std::chrono::seconds(60));
}

const char* kVariant = "variants/catalog-from-process-table";
const char* kCatalog = "publish/catalog-is-valid";

TEST(FakeHost, ACatalogFromTheProcessTablePublishesUnderTheDefaultAnswer) {
  Verdicts v = RunFlash(kVariant, "", {kCatalog});
  ASSERT_FALSE(v.command.timed_out);
  EXPECT_EQ(v.status[kCatalog], "pass") << v.Dump();
  EXPECT_EQ(v.command.exit_code, 0) << v.Dump();
}

// What the fake host used to answer a granted call ("granted, but not implemented"): a bare
// {ok: true}. Given by the author, it is the plugin's answer, so the miss is a failure.
TEST(FakeHost, TheOldBareOkTableFailsTheCatalogScenario) {
  Verdicts v = RunFlash(
      kVariant, "host:\n  replies:\n    host.process_table: {result: {ok: true}}\n", {kCatalog});
  ASSERT_FALSE(v.command.timed_out);
  EXPECT_EQ(v.status[kCatalog], "fail") << v.Dump();
  EXPECT_EQ(v.command.exit_code, 1) << v.Dump();
}

// The plugin wants a process the default table does not list: it publishes nothing, after a
// stand-in answer. That is untested, with the method, why it is a stand-in and the YAML to add.
TEST(FakeHost, AMissAfterAStandInAnswerIsUntestedWithTheYamlToAdd) {
  Verdicts v = RunFlash(kVariant, "config: {process: notesd}\n", {kCatalog});
  ASSERT_FALSE(v.command.timed_out);
  EXPECT_EQ(v.status[kCatalog], "untested") << v.Dump();
  const std::string& why = v.reason[kCatalog];
  EXPECT_NE(why.find("host.process_table (the fake host lists made-up processes"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("host:\n    replies:\n      host.process_table: {result: {\"ok\":true,"),
            std::string::npos)
      << why;
  EXPECT_NE(v.command.exit_code, 3) << v.Dump();
}

TEST(FakeHost, ThePluginsOwnAnswerFromFakehostYamlMakesItPass) {
  Verdicts v = RunFlash(kVariant, R"(config: {process: notesd}
host:
  replies:
    host.process_table: {result: {ok: true, processes: [{pid: 812, comm: notesd}]}}
)",
                        {kCatalog});
  ASSERT_FALSE(v.command.timed_out);
  EXPECT_EQ(v.status[kCatalog], "pass") << v.Dump();
  EXPECT_EQ(v.command.exit_code, 0) << v.Dump();
}

// A host method the protocol does not have is bad input, at its line: nothing is run.
TEST(FakeHost, AReplyForAMethodTheProtocolLacksIsBadInput) {
  Verdicts v = RunFlash(kVariant, "host:\n  replies:\n    host.proc_table: {result: {ok: true}}\n",
                        {kCatalog});
  ASSERT_FALSE(v.command.timed_out);
  EXPECT_EQ(v.command.exit_code, 2) << v.Dump();
  EXPECT_NE(v.command.err.find("fakehost.yaml:3:5: host: replies: flash-v1 has no plugin->host "
                               "method 'host.proc_table'"),
            std::string::npos)
      << v.Dump();
}

// The reference plugin, told it never polls: the poll scenario is not applicable with that
// reason, so --fail-untested passes; without the declaration it is untested and fails the run.
TEST(FakeHost, ATriggerThePluginCannotHaveMakesItsScenariosNotApplicable) {
  const char* poll = "poll/registrations-are-valid";
  Verdicts none = RunFlash("reference", "triggers:\n  poll: {none: \"this plugin never polls\"}\n",
                           {poll, kCatalog}, {"--fail-untested"});
  ASSERT_FALSE(none.command.timed_out);
  EXPECT_EQ(none.status[poll], "skip") << none.Dump();
  EXPECT_NE(none.reason[poll].find("this plugin never polls"), std::string::npos)
      << none.reason[poll];
  EXPECT_EQ(none.command.exit_code, 0) << none.Dump();

  Verdicts missing =
      RunFlash("reference", "protocol: flash-v1\n", {poll, kCatalog}, {"--fail-untested"});
  ASSERT_FALSE(missing.command.timed_out);
  EXPECT_EQ(missing.status[poll], "untested") << missing.Dump();
  EXPECT_EQ(missing.command.exit_code, 1) << missing.Dump();
}

// The MCP fixture `plugin` run with its own fakehost.yaml, each trigger of `none` declared none:
// the verdicts of the scenarios `only`.
Verdicts RunMcpWithout(const std::string& plugin, const std::vector<std::string>& none,
                       const std::vector<std::string>& only) {
  const std::string folder = FixturesDir() + "/mcp-stdio/" + plugin;
  std::string config, line;
  std::istringstream in(ReadFile(folder + "/fakehost.yaml"));
  while (std::getline(in, line)) {
    if (line.rfind("command:", 0) == 0) line = "command: [" + folder + "/server]";
    for (const std::string& name : none)
      if (line.rfind("  " + name + ":", 0) == 0) line = "  " + name + ": {none: \"not here\"}";
    config += line + "\n";
  }
  const std::string dir = MakeTempDir();
  std::ofstream(dir + "/fakehost.yaml") << config;
  std::vector<std::string> argv = {
      FakehostBin(),          "run",   "--plugin", folder,       "--config",
      dir + "/fakehost.yaml", "--out", dir,        "--no-color", "--strict"};
  for (const auto& o : only) argv.insert(argv.end(), {"--only", o});
  return RunVerdicts(argv, dir, std::chrono::seconds(120));
}

// `triggers: any`: the round-trip scenarios judge each asking trigger a server gives, so one that
// gives only an elicitation (roots and sampling are deprecated in MCP 2026-07-28) is judged on it,
// and one that breaks the rule on it still fails; with none given they are not applicable.
TEST(FakeHost, AScenarioOfAnyTriggerJudgesTheTriggersThePluginGives) {
  const char* stdout_rule = "modern/no-requests-on-stdout";
  const std::vector<std::string> only = {"modern/input-requests-use-mrtr", stdout_rule};
  Verdicts one = RunMcpWithout("reference", {"asks_roots", "asks_sampling"}, only);
  ASSERT_FALSE(one.command.timed_out);
  EXPECT_EQ(one.status["modern/input-requests-use-mrtr"], "pass") << one.Dump();
  EXPECT_EQ(one.status[stdout_rule], "pass") << one.Dump();

  Verdicts broken = RunMcpWithout("broken/modern-server-request-on-stdout",
                                  {"asks_roots", "asks_sampling"}, only);
  ASSERT_FALSE(broken.command.timed_out);
  EXPECT_EQ(broken.status[stdout_rule], "fail") << broken.Dump();

  Verdicts none =
      RunMcpWithout("reference", {"asks_roots", "asks_sampling", "asks_elicitation"}, only);
  ASSERT_FALSE(none.command.timed_out);
  EXPECT_EQ(none.status[stdout_rule], "skip") << none.Dump();
  EXPECT_NE(none.reason[stdout_rule].find("none of the triggers 'asks_roots', 'asks_sampling', "
                                          "'asks_elicitation'"),
            std::string::npos)
      << none.reason[stdout_rule];
}

}  // namespace
}  // namespace fakehost::testing
