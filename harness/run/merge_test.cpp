// Merging shard reports: the run they are parts of, or a clear refusal.
#include "harness/run/merge.hpp"

#include <gtest/gtest.h>

#include "harness/run/manifest_scenario.hpp"

namespace fakehost::run {
namespace {

using result::Status;

result::ScenarioResult Result(std::string id, Status status) {
  result::ScenarioResult r;
  r.id = std::move(id);
  r.status = status;
  return r;
}

// Shard k of n of one run.
result::RunReport Shard(std::vector<result::ScenarioResult> results, double ms, std::string started,
                        int k, int n) {
  result::RunReport r;
  r.shard = {k, n};
  r.suite_version = "0123456789ab";
  r.tool_version = "0.1.0";
  r.protocol = "rim-v1";
  r.suite = "scenarios/rim-v1";
  r.suites = {"scenarios/rim-v1", "mine"};
  r.started_at = std::move(started);
  r.jobs = 2;
  r.plugin = {"dev.fakehost.reference",   "1.0.0", "/plugins/reference",
              {"/plugins/reference/run"}, {},      {}};
  r.scenarios = std::move(results);
  r.summary.duration_ms = ms;
  result::Summarise(&r);
  return r;
}

std::vector<std::string> Ids(const result::RunReport& r) {
  std::vector<std::string> out;
  for (const auto& s : r.scenarios) out.push_back(s.id);
  return out;
}

TEST(MergeReports, PutsScenariosInRunOrderAndCountsThemAgain) {
  std::vector<ShardReport> shards = {
      {"1.json",
       Shard({Result(kManifestScenarioId, Status::kPass), Result("shutdown/prompt", Status::kFail)},
             900, "2026-12-02T05:00:03Z", 1, 3)},
      {"2.json",
       Shard({Result("handshake/accepts", Status::kPass), Result("ids/string", Status::kUntested)},
             1500, "2026-12-02T05:00:01Z", 2, 3)},
      {"3.json", Shard({}, 10, "2026-12-02T05:00:02Z", 3, 3)},
  };
  shards[1].report.jobs = 4;
  result::RunReport merged;
  std::string error;
  ASSERT_TRUE(MergeReports(shards, false, &merged, &error)) << error;
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
  EXPECT_EQ(merged.shard.count, 0) << "the merged report is the whole run";
  EXPECT_TRUE(merged.missing_shards.empty());
}

TEST(MergeReports, KeepsRepeatsOfAScenarioWithinOneReport) {
  std::vector<ShardReport> shards = {
      {"1.json", Shard({Result("a", Status::kPass), Result("a", Status::kFail)}, 1, "", 1, 2)},
      {"2.json", Shard({Result("b", Status::kPass)}, 1, "", 2, 2)},
  };
  result::RunReport merged;
  std::string error;
  ASSERT_TRUE(MergeReports(shards, false, &merged, &error)) << error;
  ASSERT_EQ(Ids(merged), (std::vector<std::string>{"a", "a", "b"}));
  EXPECT_EQ(merged.scenarios[0].status, Status::kPass);
  EXPECT_EQ(merged.scenarios[1].status, Status::kFail);
}

TEST(MergeReports, RefusesAScenarioInTwoReports) {
  std::vector<ShardReport> shards = {
      {"one.json", Shard({Result("a", Status::kPass)}, 1, "", 1, 2)},
      {"two.json", Shard({Result("a", Status::kPass)}, 1, "", 2, 2)},
  };
  result::RunReport merged;
  std::string error;
  EXPECT_FALSE(MergeReports(shards, false, &merged, &error));
  EXPECT_NE(error.find("a is in both one.json and two.json"), std::string::npos) << error;
}

TEST(MergeReports, RefusesReportsOfDifferentRuns) {
  auto base = Shard({Result("a", Status::kPass)}, 1, "", 1, 2);
  std::vector<std::pair<std::string, std::function<void(result::RunReport&)>>> changes = {
      {"protocol", [](result::RunReport& r) { r.protocol = "flash-v1"; }},
      {"plugin id", [](result::RunReport& r) { r.plugin.id = "dev.other"; }},
      {"plugin version", [](result::RunReport& r) { r.plugin.version = "2.0.0"; }},
      {"plugin directory", [](result::RunReport& r) { r.plugin.dir = "/elsewhere"; }},
      {"plugin argv", [](result::RunReport& r) { r.plugin.argv.push_back("--debug"); }},
      {"suites", [](result::RunReport& r) { r.suites.pop_back(); }},
      {"--strict", [](result::RunReport& r) { r.strict = true; }},
      {"fakehost version", [](result::RunReport& r) { r.tool_version = "0.2.0"; }},
      {"suite digest", [](result::RunReport& r) { r.suite_version = "ba9876543210"; }},
      {"shard count",
       [](result::RunReport& r) {
         r.shard = {2, 3};
       }},
  };
  for (const auto& [what, change] : changes) {
    result::RunReport other = Shard({Result("b", Status::kPass)}, 1, "", 2, 2);
    change(other);
    result::RunReport merged;
    std::string error;
    EXPECT_FALSE(
        MergeReports({{"first.json", base}, {"second.json", other}}, false, &merged, &error))
        << what;
    EXPECT_NE(error.find("second.json"), std::string::npos) << error;
    EXPECT_NE(error.find(what), std::string::npos) << error;
  }
}

TEST(MergeReports, ComparesTheSuiteOfReportsThatListNoSuites) {
  auto a = Shard({Result("a", Status::kPass)}, 1, "", 1, 2);
  auto b = Shard({Result("b", Status::kPass)}, 1, "", 2, 2);
  a.suites.clear();
  b.suites = {a.suite};
  result::RunReport merged;
  std::string error;
  EXPECT_TRUE(MergeReports({{"a.json", a}, {"b.json", b}}, false, &merged, &error)) << error;
}

// Two of three shards "pass" with the scenarios they hold: a merge refuses that, naming the
// missing shard, unless told to merge part of a run, and then the result says it is partial.
TEST(MergeReports, RefusesAMissingShardUnlessPartialIsAllowed) {
  std::vector<ShardReport> shards = {
      {"1.json", Shard({Result("a", Status::kPass)}, 1, "", 1, 3)},
      {"3.json", Shard({Result("c", Status::kPass)}, 1, "", 3, 3)},
  };
  result::RunReport merged;
  std::string error;
  EXPECT_FALSE(MergeReports(shards, false, &merged, &error));
  EXPECT_NE(error.find("shard 2 of 3 is missing"), std::string::npos) << error;
  ASSERT_TRUE(MergeReports(shards, true, &merged, &error)) << error;
  EXPECT_EQ(merged.missing_shards, std::vector<int>{2});
  EXPECT_EQ(Ids(merged), (std::vector<std::string>{"a", "c"}));
}

TEST(MergeReports, RefusesAShardGivenTwice) {
  std::vector<ShardReport> shards = {
      {"1.json", Shard({Result("a", Status::kPass)}, 1, "", 1, 2)},
      {"copy.json", Shard({Result("b", Status::kPass)}, 1, "", 1, 2)},
  };
  result::RunReport merged;
  std::string error;
  EXPECT_FALSE(MergeReports(shards, true, &merged, &error));
  EXPECT_NE(error.find("shard 1/2 is given twice: 1.json and copy.json"), std::string::npos)
      << error;
}

TEST(MergeReports, RefusesAReportThatIsNoShard) {
  std::vector<ShardReport> shards = {
      {"whole.json", Shard({Result("a", Status::kPass)}, 1, "", 0, 0)},
      {"other.json", Shard({Result("b", Status::kPass)}, 1, "", 0, 0)},
  };
  result::RunReport merged;
  std::string error;
  EXPECT_FALSE(MergeReports(shards, true, &merged, &error));
  EXPECT_NE(error.find("whole.json is not a shard"), std::string::npos) << error;
}

}  // namespace
}  // namespace fakehost::run
