// Triggers and the verdicts that depend on them, through the fakehost binary: a scenario passes
// only if it checked what it claims, whatever a plugin's fakehost.yaml makes it do.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "harness/json/json.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;

struct Verdicts {
  CommandResult command;
  std::map<std::string, std::string> status, reason;
  std::map<std::string, std::vector<std::string>> checks;  ///< each failure's check, in order
};

// The RIM reference plugin, run with `config` as its fakehost.yaml.
Verdicts RunReference(const std::string& config, const std::vector<std::string>& only) {
  std::string dir = MakeTempDir();
  std::ofstream(dir + "/fakehost.yaml") << config;
  std::vector<std::string> argv = {FakehostBin(),
                                   "run",
                                   "--plugin",
                                   FixturesDir() + "/rim-v1/reference",
                                   "--config",
                                   dir + "/fakehost.yaml",
                                   "--out",
                                   dir,
                                   "--no-color",
                                   "--jobs",
                                   "2"};
  for (const auto& o : only) argv.insert(argv.end(), {"--only", o});
  Verdicts v;
  v.command = RunCommand(argv, std::chrono::seconds(60));
  rapidjson::Document report;
  if (json::Parse(ReadFile(dir + "/report.json"), &report).ok && report.IsObject())
    for (const auto& s : json::Find(report, "scenarios")->GetArray()) {
      std::string id = json::Find(s, "id")->GetString();
      v.status[id] = json::Find(s, "status")->GetString();
      if (const auto* r = json::Find(s, "reason")) v.reason[id] = r->GetString();
      for (const auto& f : json::Find(s, "failures")->GetArray())
        v.checks[id].push_back(json::Find(f, "check")->GetString());
    }
  fs::remove_all(dir);
  return v;
}

// A host_call trigger whose only call is rim.log, which the host answers itself: what the
// host scenarios script (a denial, a held call) never happens, so they are untested — never
// passed, and never a second answer to a request the host already answered.
TEST(Triggers, AHostCallTheHostAnswersItselfLeavesTheHostScenariosUntested) {
  Verdicts v = RunReference(R"(triggers:
  host_call:
    method: rim.command.execute
    params: {commandId: call_host, args: {method: rim.log, params: {level: info, message: x}},
             invoker: "${principal}", initiator: user, confirmed: false}
)",
                            {"host/capability-denied", "host/serves-while-waiting-for-host"});
  ASSERT_FALSE(v.command.timed_out);
  EXPECT_EQ(v.status["host/capability-denied"], "untested") << v.command.out;
  EXPECT_EQ(v.status["host/serves-while-waiting-for-host"], "untested") << v.command.out;
  EXPECT_NE(v.reason["host/capability-denied"].find("answers by itself"), std::string::npos);
  // Never a second answer to what the host answered: no host-frame-invalid failure anywhere.
  ASSERT_EQ(v.status.size(), 2u) << v.command.out;
  for (const auto& [id, checks] : v.checks)
    EXPECT_EQ(std::count(checks.begin(), checks.end(), "host-frame-invalid"), 0) << id;
}

// No fakehost.yaml triggers at all: every scenario that needs one says which, with the YAML.
TEST(Triggers, AMissingTriggerIsUntestedWithTheYamlToAdd) {
  Verdicts v = RunReference("protocol: rim-v1\n", {"heartbeat/answers-during-long-command"});
  ASSERT_FALSE(v.command.timed_out);
  EXPECT_EQ(v.status["heartbeat/answers-during-long-command"], "untested") << v.command.out;
  EXPECT_NE(v.reason["heartbeat/answers-during-long-command"].find("triggers:\n    slow:"),
            std::string::npos)
      << v.reason["heartbeat/answers-during-long-command"];
  // Nothing was checked about the plugin but its manifest: that is not a pass.
  EXPECT_EQ(v.command.exit_code, 1) << v.command.out << v.command.err;
}

// "perform 10 s (per-entry commands[].timeout_ms overrides)": a trigger's perform of a command
// whose manifest entry declares timeout_ms is sent as the real host sends it, with that deadline.
TEST(Triggers, ATriggersPerformCarriesItsManifestEntrysTimeoutMs) {
  std::string dir = MakeTempDir();
  std::ofstream(dir + "/fakehost.yaml") << R"(protocol: flash-v1
triggers:
  log: {method: perform, params: {kind: command, command: ref, subcommand: sync, args: [], raw: "ref sync"}}
)";
  CommandResult r =
      RunCommand({FakehostBin(), "run", "--plugin", FixturesDir() + "/flash-v1/reference",
                  "--config", dir + "/fakehost.yaml", "--out", dir, "--transcripts", dir + "/t",
                  "--no-color", "--only", "logs/trace-carried-back"},
                 std::chrono::seconds(60));
  ASSERT_FALSE(r.timed_out);
  std::string sent;
  for (const auto& file : fs::directory_iterator(dir + "/t")) {
    std::istringstream in(ReadFile(file.path().string()));
    for (std::string line; std::getline(in, line);) {
      rapidjson::Document entry;
      if (!json::Parse(line, &entry).ok || !entry.IsObject()) continue;
      const rapidjson::Value* method = json::Find(entry, "method");
      const rapidjson::Value* text = json::Find(entry, "text");  // the frame as sent
      rapidjson::Document frame;
      if (text && text->IsString() && json::Parse(json::View(*text), &frame).ok &&
          frame.IsObject() && json::Find(frame, "method") && method && method->IsString() &&
          json::View(*method) == "perform")
        sent = json::ToCompact(frame);
    }
  }
  EXPECT_NE(sent.find("\"deadline_ms\":1500"), std::string::npos) << sent << r.out;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fakehost::testing
