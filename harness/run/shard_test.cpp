// Shards: a partition of the selection, balanced by declared cost, the same on every machine.
#include "harness/run/shard.hpp"

#include <gtest/gtest.h>

#include <map>

#include "harness/protocol/registry.hpp"
#include "harness/run/manifest_scenario.hpp"
#include "harness/run/runner.hpp"

namespace fakehost::run {
namespace {

using namespace std::chrono_literals;

std::vector<scenario::Scenario> LoadStandard(const std::string& protocol) {
  std::string error;
  auto profile = protocol::Profile::Load("schema/" + protocol + "/profile.json", &error);
  EXPECT_TRUE(profile) << error;
  std::vector<scenario::Scenario> all;
  std::vector<std::string> errors;
  EXPECT_TRUE(profile && LoadSuite("scenarios/" + protocol, *profile, &all, &errors));
  if (profile) all.insert(all.begin(), ManifestScenario(*profile));
  return all;
}

std::vector<const scenario::Scenario*> Pointers(const std::vector<scenario::Scenario>& all) {
  std::vector<const scenario::Scenario*> out;
  for (const auto& s : all) out.push_back(&s);
  return out;
}

scenario::Scenario WithSteps(std::string id, std::vector<scenario::StepBody> bodies) {
  scenario::Scenario s;
  s.id = std::move(id);
  for (auto& b : bodies)
    s.steps.push_back({std::move(b), "", result::Level::kMust, "", "", {}, false});
  return s;
}

TEST(Shard, PutsEveryScenarioOfEverySuiteInExactlyOneShard) {
  ASSERT_FALSE(protocol::ProtocolNames(FAKEHOST_SOURCE_DIR).empty());
  for (const std::string& protocol : protocol::ProtocolNames(FAKEHOST_SOURCE_DIR)) {
    auto all = LoadStandard(protocol);
    ASSERT_GT(all.size(), 10u);
    auto selected = Pointers(all);
    for (int n = 1; n <= 7; ++n) {
      std::map<std::string, int> seen;
      for (int k = 1; k <= n; ++k)
        for (const auto* s : Shard(selected, k, n)) ++seen[s->id];
      EXPECT_EQ(seen.size(), all.size()) << protocol << " in " << n;
      for (const auto& [id, times] : seen) EXPECT_EQ(times, 1) << protocol << " " << id;
    }
  }
}

TEST(Shard, PutsTheManifestCheckInShardOne) {
  auto all = LoadStandard("rim-v1");
  auto selected = Pointers(all);
  for (int n = 1; n <= 4; ++n) {
    auto first = Shard(selected, 1, n);
    ASSERT_FALSE(first.empty());
    EXPECT_EQ(first.front()->id, kManifestScenarioId) << n;
  }
}

TEST(Shard, KeepsTheSelectionsOrderAndIsTheSameEachTime) {
  auto all = LoadStandard("flash-v1");
  auto selected = Pointers(all);
  auto a = Shard(selected, 2, 3);
  EXPECT_EQ(a, Shard(selected, 2, 3));
  EXPECT_TRUE(std::is_sorted(a.begin(), a.end(),
                             [](const auto* x, const auto* y) { return x->id < y->id; }));
}

TEST(Shard, BalancesDeclaredCostWithinTheLargestScenario) {
  // Greedy longest-first: no shard exceeds another by more than one scenario's cost.
  for (const std::string& protocol : protocol::ProtocolNames(FAKEHOST_SOURCE_DIR)) {
    auto all = LoadStandard(protocol);
    auto selected = Pointers(all);
    double largest = 0;
    for (const auto* s : selected) largest = std::max(largest, EstimatedCostMs(*s));
    for (int n = 2; n <= 4; ++n) {
      std::vector<double> load;
      for (int k = 1; k <= n; ++k) {
        double ms = 0;
        for (const auto* s : Shard(selected, k, n))
          if (s->id != kManifestScenarioId) ms += EstimatedCostMs(*s);
        load.push_back(ms);
      }
      auto [lo, hi] = std::minmax_element(load.begin(), load.end());
      EXPECT_LE(*hi - *lo, largest) << protocol << " in " << n;
    }
  }
}

TEST(Shard, LeavesShardsBeyondTheScenariosEmpty) {
  std::vector<scenario::Scenario> two = {WithSteps("a", {}), WithSteps("b", {})};
  auto selected = Pointers(two);
  EXPECT_EQ(Shard(selected, 1, 3).size(), 1u);
  EXPECT_EQ(Shard(selected, 2, 3).size(), 1u);
  EXPECT_TRUE(Shard(selected, 3, 3).empty());
}

TEST(Shard, BreaksCostTiesById) {
  std::vector<scenario::Scenario> same = {WithSteps("a", {}), WithSteps("b", {}),
                                          WithSteps("c", {})};
  auto selected = Pointers(same);
  EXPECT_EQ(Shard(selected, 1, 3).front()->id, "a");
  EXPECT_EQ(Shard(selected, 2, 3).front()->id, "b");
  EXPECT_EQ(Shard(selected, 3, 3).front()->id, "c");
}

TEST(EstimatedCost, CountsWaitsThatCannotBeShortened) {
  double base = EstimatedCostMs(WithSteps("x", {}));
  EXPECT_GE(EstimatedCostMs(WithSteps("x", {scenario::Sleep{1000ms}})), base + 1000);
  EXPECT_GE(EstimatedCostMs(WithSteps("x", {scenario::ExpectNone{{}, 300ms, false, {}}})),
            base + 300);
  EXPECT_LT(EstimatedCostMs(WithSteps("x", {scenario::ExpectNone{{}, 300ms, true, {}}})),
            base + 300);  // a barrier ends as soon as the plugin answers
  scenario::SendRaw big;
  big.bytes = " ";
  big.repeat = 40u << 20;
  EXPECT_GT(EstimatedCostMs(WithSteps("x", {big})), base + 500);
}

TEST(EstimatedCost, CountsDeadlinesOnlyWhereTheHostHoldsThePluginsCalls) {
  scenario::Expect wait;
  wait.within = 5000ms;
  scenario::Scenario answered = WithSteps("x", {wait});
  scenario::Scenario held = answered;
  held.host_replies["*"].kind = scenario::HostReply::Kind::kHold;
  EXPECT_LT(EstimatedCostMs(answered), 1000);
  EXPECT_GE(EstimatedCostMs(held), 5000);
}

TEST(ParseShard, ReadsKOfN) {
  int k = 0, n = 0;
  std::string error;
  ASSERT_TRUE(ParseShard("2/3", &k, &n, &error)) << error;
  EXPECT_EQ(k, 2);
  EXPECT_EQ(n, 3);
  EXPECT_TRUE(ParseShard("1/1", &k, &n, &error));
}

TEST(ParseShard, RefusesAnythingButOneToN) {
  for (const char* bad : {"0/3", "4/3", "1/0", "-1/3", "a/3", "1/b", "3", "", "/", "1/3x", " 1/3",
                          "1/3/5", "1.0/3", "1/1001", "1/2147483647"}) {
    int k = 0, n = 0;
    std::string error;
    EXPECT_FALSE(ParseShard(bad, &k, &n, &error)) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
}

// A shard report's count is a claim: one over what any run writes is refused before a list of
// the missing shards is sized by it (2,147,483,647 shards once took 2 GB).
TEST(CheckShardParts, RefusesACountNoRunWritesBeforeSizingAnythingByIt) {
  std::vector<int> missing;
  std::string error = CheckShardParts({{"a.json", 1, 2147483647}}, true, &missing);
  EXPECT_NE(error.find("a.json claims to be shard 1/2147483647"), std::string::npos) << error;
  EXPECT_TRUE(missing.empty());
  EXPECT_NE(CheckShardParts({{"a.json", 5, 3}}, true, &missing), "");
  EXPECT_EQ(CheckShardParts({{"a.json", 1, kMaxShards}}, true, &missing), "");
  EXPECT_EQ(missing.size(), static_cast<std::size_t>(kMaxShards - 1));
}

}  // namespace
}  // namespace fakehost::run
