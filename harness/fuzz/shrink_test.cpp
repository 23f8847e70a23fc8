#include "harness/fuzz/shrink.hpp"

#include <gtest/gtest.h>

#include "harness/fuzz/generator.hpp"
#include "harness/fuzz/rng.hpp"
#include "harness/fuzz/test_support.hpp"
#include "harness/json/json.hpp"

namespace fakehost::fuzz {
namespace {

using Clock = std::chrono::steady_clock;

// A synthetic bug: the plugin "fails" when a notification carrying the edit named "poison"
// arrives after at least one pause; nothing else matters.
bool Fails(const Plan& plan) {
  bool paused = false;
  for (const Action& a : plan.actions) {
    if (a.kind == Action::Kind::kSleep) paused = true;
    if (!paused || a.kind != Action::Kind::kNotify) continue;
    for (const Mutation& m : a.mutations)
      if (m.what == "poison") return true;
  }
  return false;
}

Plan PoisonedSession(const testing::Protocol& p, std::uint64_t seed) {
  Plan plan;
  for (std::uint64_t i = 0; plan.actions.size() < 12; ++i) {
    plan = Generate(p.catalog, *p.profile, SessionSeed(seed, i));
    if (!plan.handshake_mutations.empty() ||
        (!plan.actions.empty() && plan.actions.back().terminal))
      plan.actions.clear();
  }
  Action pause;
  pause.kind = Action::Kind::kSleep;
  pause.sleep_ms = 150;
  Action poison;
  poison.kind = Action::Kind::kNotify;
  poison.message = p.catalog.notifications.front().messages.front();
  poison.mutations = {
      {"/params/x", false, JsonFromText("\"" + std::string(100, 'p') + "\""), "noise"},
      {"/params/y", false, JsonFromText("[1,2,3]"), "poison"}};
  plan.actions.insert(plan.actions.begin() + 3, pause);
  plan.actions.insert(plan.actions.begin() + 9, poison);
  return plan;
}

TEST(Shrink, KeepsOnlyTheStepsTheFailureNeeds) {
  testing::Protocol p = testing::LoadProtocol("rim-v1");
  ASSERT_TRUE(p.profile && p.schema);
  Plan plan = PoisonedSession(p, 11);
  ASSERT_TRUE(Fails(plan));
  ShrinkStats stats;
  Plan small = Shrink(plan, Fails, Clock::now() + std::chrono::seconds(30), &stats);
  ASSERT_TRUE(Fails(small));
  ASSERT_EQ(small.actions.size(), 2u);
  EXPECT_EQ(small.actions[0].kind, Action::Kind::kSleep);
  EXPECT_EQ(small.actions[0].sleep_ms, 0);  // the pause's length does not matter to this bug
  ASSERT_EQ(small.actions[1].mutations.size(), 1u);
  EXPECT_EQ(small.actions[1].mutations[0].what, "poison");
  EXPECT_EQ(json::ToCompact(*small.actions[1].mutations[0].value), "[]");  // simplified
  EXPECT_FALSE(small.barrier);
  EXPECT_FALSE(stats.capped);
  EXPECT_LT(StepCount(small), StepCount(plan));
}

TEST(Shrink, IsDeterministic) {
  testing::Protocol p = testing::LoadProtocol("flash-v1");
  ASSERT_TRUE(p.profile && p.schema);
  Plan plan = PoisonedSession(p, 5);
  ShrinkStats s1, s2;
  auto deadline = Clock::now() + std::chrono::seconds(30);
  std::string a = Render(Shrink(plan, Fails, deadline, &s1), *p.profile, p.schema.get(), {});
  std::string b = Render(Shrink(plan, Fails, deadline, &s2), *p.profile, p.schema.get(), {});
  EXPECT_EQ(a, b);
  EXPECT_EQ(s1.candidates, s2.candidates);
}

TEST(Shrink, StopsAtItsDeadlineWithAPlanThatStillFails) {
  testing::Protocol p = testing::LoadProtocol("rim-v1");
  ASSERT_TRUE(p.profile && p.schema);
  Plan plan = PoisonedSession(p, 11);
  ShrinkStats stats;
  Plan same = Shrink(plan, Fails, Clock::now() - std::chrono::seconds(1), &stats);
  EXPECT_TRUE(stats.capped);
  EXPECT_EQ(stats.candidates, 0);
  EXPECT_EQ(same.actions.size(), plan.actions.size());
}

}  // namespace
}  // namespace fakehost::fuzz
