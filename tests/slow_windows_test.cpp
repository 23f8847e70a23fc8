// The slow variants prove that fakehost's windows come from the protocol: they are late in
// everything the protocol lets a plugin be late in (an answer at 80% of its deadline, the exit
// at 80% of the shutdown grace), so a window the suite cut shorter than the protocol would fail
// them. Each case copies a suite scenario into a temporary suite twice: unmodified, where the
// slow variant must pass, and with one window cut to half what the protocol gives, where it
// must fail. suite_test's All/Reference shows the whole suites pass the slow variants; this
// shows that passing them means something.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <string>
#include <vector>

#include "harness/json/json.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;

/// One window of one scenario, and the same window cut to half its deadline.
struct Cut {
  std::string scenario;  ///< the suite's id: scenarios/<protocol>/<id>.yaml
  std::string window;    ///< text of the scenario that holds the window (exactly once)
  std::string halved;    ///< what replaces it
  std::string why;       ///< the deadline or grace, and where the slow variant answers
};

struct Case {
  std::string protocol, plugin;  ///< plugin: below the fixtures' build folder
  std::vector<Cut> cuts;
};

const Cut kHeartbeat{"heartbeat/answers-within-5s", "    within: 5s\n", "    within: 2500ms\n",
                     "§13 5 s for a heartbeat; the answer comes at 4 s"};
const Cut kRimExit{"lifecycle/exits-on-eof", "    within: 1s\n", "    within: 500ms\n",
                   "§15 1 s grace; the exit comes 800 ms after stdin EOF"};

std::vector<Case> Cases() {
  return {
      {"rim-v1", "rim-v1/variants/slow", {kHeartbeat, kRimExit}},
      {"rim-v1", "rim-v1/reference-python-slow", {kHeartbeat, kRimExit}},
      {"flash-v1",
       "flash-v1/variants/slow",
       {{"liveness/ping-answers-ok", "      result: {ok: true}\n",
         "      result: {ok: true}\n    within: 5s\n",
         "ping 10 s (the request's deadline_ms); the answer comes at 8 s"},
        {"initialize/answers-within-startup", "    within: 5s\n", "    within: 2500ms\n",
         "startup 5 s from the spawn; the answer comes 4 s after the spawn"},
        {"shutdown/exit-code-zero", "    within: 1s\n", "    within: 500ms\n",
         "shutdown_grace 1 s; the exit comes 800 ms after stdin EOF"}}},
      {"flash-v1",
       "flash-v1/variants/slow-live",
       {{"search/live-source-answers", "      result: {ok: {$type: boolean}}\n",
         "      result: {ok: {$type: boolean}}\n    within: 500ms\n",
         "live 1000 ms; the answer comes at 800 ms"}}},
  };
}

void WriteFile(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

struct Played {
  CommandResult command;
  std::map<std::string, std::string> status;  ///< scenario id -> status
  std::string setup_error;                    ///< a cut that does not apply: the test's bug
};

/// Lays out the temporary suite (each cut's scenario as it is and halved, `<id>-halved`) and
/// plays it on the plugin.
Played Play(const Case& c) {
  Played p;
  std::string suite = MakeTempDir();
  for (const Cut& cut : c.cuts) {
    std::string text =
        ReadFile(SourceDir() + "/scenarios/" + c.protocol + "/" + cut.scenario + ".yaml");
    std::size_t at = text.find(cut.window);
    if (at == std::string::npos || text.find(cut.window, at + 1) != std::string::npos) {
      p.setup_error = cut.scenario + ": the window '" + cut.window + "' is not there exactly once";
      fs::remove_all(suite);
      return p;
    }
    WriteFile(fs::path(suite) / (cut.scenario + ".yaml"), text);
    WriteFile(fs::path(suite) / (cut.scenario + "-halved.yaml"),
              text.replace(at, cut.window.size(), cut.halved));
  }
  std::string out = MakeTempDir();
  p.command = RunCommand(
      {FakehostBin(), "run", "--protocol", c.protocol, "--plugin", FixturesDir() + "/" + c.plugin,
       "--suite", suite, "--jobs", std::to_string(2 * c.cuts.size()), "--out", out, "--no-color"},
      std::chrono::seconds(90));
  rapidjson::Document report;
  if (json::Parse(ReadFile(out + "/report.json"), &report).ok && report.IsObject())
    if (const auto* scenarios = json::Find(report, "scenarios"); scenarios && scenarios->IsArray())
      for (const auto& s : scenarios->GetArray())
        p.status[json::Find(s, "id")->GetString()] = json::Find(s, "status")->GetString();
  fs::remove_all(out);
  fs::remove_all(suite);
  return p;
}

TEST(SlowWindows, AWindowCutToHalfItsDeadlineFailsTheSlowVariants) {
  std::vector<Case> cases = Cases();
  // The runs mostly wait on the plugins' delays: all at once.
  std::vector<std::future<Played>> runs;
  for (const Case& c : cases) runs.push_back(std::async(std::launch::async, Play, c));
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    Played p = runs[i].get();
    ASSERT_TRUE(p.setup_error.empty()) << p.setup_error;
    std::string dump = c.plugin + ": exit " + std::to_string(p.command.exit_code) + "\n" +
                       p.command.out + p.command.err;
    ASSERT_FALSE(p.command.timed_out) << dump;
    EXPECT_EQ(p.command.exit_code, 1) << dump;
    for (const Cut& cut : c.cuts) {
      EXPECT_EQ(p.status[cut.scenario], "pass")
          << c.plugin << " must pass " << cut.scenario << " as the suite has it\n"
          << dump;
      EXPECT_EQ(p.status[cut.scenario + "-halved"], "fail")
          << c.plugin << " must fail " << cut.scenario << " with '" << cut.halved << "' ("
          << cut.why << ")\n"
          << dump;
    }
  }
}

}  // namespace
}  // namespace fakehost::testing
