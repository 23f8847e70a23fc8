// Triggers and the verdicts that depend on them, through the fakehost binary: a scenario passes
// only if it checked what it claims, whatever a plugin's fakehost.yaml makes it do.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "harness/json/json.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;

struct Verdicts {
  CommandResult command;
  std::map<std::string, std::string> status, reason;
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
  EXPECT_EQ(v.command.out.find("host-frame-invalid"), std::string::npos) << v.command.out;
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

}  // namespace
}  // namespace fakehost::testing
