// Merging shard reports: the run they are parts of, or a clear refusal.
#include "harness/run/merge.hpp"

#include <gtest/gtest.h>

#include "harness/run/manifest_scenario.hpp"

namespace fakehost::run {
namespace {

using scenario::Status;

scenario::ScenarioResult Result(std::string id, Status status) {
  scenario::ScenarioResult r;
  r.id = std::move(id);
  r.status = status;
  return r;
}

RunReport Shard(std::vector<scenario::ScenarioResult> results, double ms, std::string started) {
  RunReport r;
  r.tool_version = "0.1.0";
  r.protocol = "rim-v1";
  r.suite = "scenarios/rim-v1";
  r.suites = {"scenarios/rim-v1", "mine"};
  r.started_at = std::move(started);
  r.jobs = 2;
  r.plugin = {
      "dev.fakehost.reference", "1.0.0", "/plugins/reference", {"/plugins/reference/run"}, {}};
  r.scenarios = std::move(results);
  r.summary.duration_ms = ms;
  Summarise(&r);
  return r;
}

std::vector<std::string> Ids(const RunReport& r) {
  std::vector<std::string> out;
  for (const auto& s : r.scenarios) out.push_back(s.id);
  return out;
}

TEST(MergeReports, PutsScenariosInRunOrderAndCountsThemAgain) {
  std::vector<ShardReport> shards = {
      {"1.json",
       Shard({Result(kManifestScenarioId, Status::kPass), Result("shutdown/prompt", Status::kFail)},
             900, "2026-12-02T05:00:03Z")},
      {"2.json",
       Shard({Result("handshake/accepts", Status::kPass), Result("ids/string", Status::kUntested)},
             1500, "2026-12-02T05:00:01Z")},
      {"3.json", Shard({}, 10, "2026-12-02T05:00:02Z")},
  };
  shards[1].report.jobs = 4;
  RunReport merged;
  std::string error;
  ASSERT_TRUE(MergeReports(shards, &merged, &error)) << error;
  EXPECT_EQ(Ids(merged), (std::vector<std::string>{kManifestScenarioId, "handshake/accepts",
                                                   "ids/string", "shutdown/prompt"}));
  EXPECT_EQ(merged.summary.total, 4);
  EXPECT_EQ(merged.summary.passed, 2);
  EXPECT_EQ(merged.summary.failed, 1);
  EXPECT_EQ(merged.summary.untested, 1);
  EXPECT_EQ(merged.summary.duration_ms, 1500);
  EXPECT_EQ(merged.started_at, "2026-12-02T05:00:01Z");
  EXPECT_EQ(merged.jobs, 4);
  EXPECT_EQ(merged.suites, shards[0].report.suites);
  EXPECT_EQ(merged.plugin.argv, shards[0].report.plugin.argv);
}

TEST(MergeReports, KeepsRepeatsOfAScenarioWithinOneReport) {
  std::vector<ShardReport> shards = {
      {"1.json", Shard({Result("a", Status::kPass), Result("a", Status::kFail)}, 1, "")},
      {"2.json", Shard({Result("b", Status::kPass)}, 1, "")},
  };
  RunReport merged;
  std::string error;
  ASSERT_TRUE(MergeReports(shards, &merged, &error)) << error;
  ASSERT_EQ(Ids(merged), (std::vector<std::string>{"a", "a", "b"}));
  EXPECT_EQ(merged.scenarios[0].status, Status::kPass);
  EXPECT_EQ(merged.scenarios[1].status, Status::kFail);
}

TEST(MergeReports, RefusesAScenarioInTwoReports) {
  std::vector<ShardReport> shards = {
      {"one.json", Shard({Result("a", Status::kPass)}, 1, "")},
      {"two.json", Shard({Result("a", Status::kPass)}, 1, "")},
  };
  RunReport merged;
  std::string error;
  EXPECT_FALSE(MergeReports(shards, &merged, &error));
  EXPECT_NE(error.find("a is in both one.json and two.json"), std::string::npos) << error;
}

TEST(MergeReports, RefusesReportsOfDifferentRuns) {
  auto base = Shard({Result("a", Status::kPass)}, 1, "");
  std::vector<std::pair<std::string, std::function<void(RunReport&)>>> changes = {
      {"protocol", [](RunReport& r) { r.protocol = "flash-v1"; }},
      {"plugin id", [](RunReport& r) { r.plugin.id = "dev.other"; }},
      {"plugin version", [](RunReport& r) { r.plugin.version = "2.0.0"; }},
      {"plugin directory", [](RunReport& r) { r.plugin.dir = "/elsewhere"; }},
      {"plugin argv", [](RunReport& r) { r.plugin.argv.push_back("--debug"); }},
      {"suites", [](RunReport& r) { r.suites.pop_back(); }},
      {"--strict", [](RunReport& r) { r.strict = true; }},
      {"fakehost version", [](RunReport& r) { r.tool_version = "0.2.0"; }},
  };
  for (const auto& [what, change] : changes) {
    RunReport other = Shard({Result("b", Status::kPass)}, 1, "");
    change(other);
    RunReport merged;
    std::string error;
    EXPECT_FALSE(MergeReports({{"first.json", base}, {"second.json", other}}, &merged, &error))
        << what;
    EXPECT_NE(error.find("second.json"), std::string::npos) << error;
    EXPECT_NE(error.find(what), std::string::npos) << error;
  }
}

TEST(MergeReports, ComparesTheSuiteOfReportsThatListNoSuites) {
  auto a = Shard({Result("a", Status::kPass)}, 1, "");
  auto b = Shard({Result("b", Status::kPass)}, 1, "");
  a.suites.clear();
  b.suites = {a.suite};
  RunReport merged;
  std::string error;
  EXPECT_TRUE(MergeReports({{"a.json", a}, {"b.json", b}}, &merged, &error)) << error;
}

}  // namespace
}  // namespace fakehost::run
