// The step kinds' rows: one for every body a scenario can hold, and the cost of each.
#include "harness/scenario/step_kinds.hpp"

#include <gtest/gtest.h>

#include <set>

namespace fakehost::scenario {
namespace {

using namespace std::chrono_literals;

TEST(StepKinds, EveryBodyHasItsRowAndEveryKeyIsOnce) {
  std::set<std::size_t> bodies;
  std::set<std::string_view> keys;
  for (const StepKindInfo& info : StepKinds()) {
    EXPECT_TRUE(keys.insert(info.key).second) << info.key;
    if (info.body != std::variant_npos) {
      bodies.insert(info.body);
    } else {  // the loader expands `use` before reading a body; another kind without one is lost
      EXPECT_EQ(info.key, "use");
    }
  }
  EXPECT_EQ(bodies.size(), std::variant_size_v<StepBody>);
  EXPECT_EQ(FindStepKind("notify")->body, BodyIndex<Send>::value);
  EXPECT_EQ(FindStepKind("use")->body, std::variant_npos);
}

// A step built in code has no key: its row is found by its body.
TEST(StepKinds, AStepsRowIsItsBodysWhateverItsKey) {
  Step sleep;
  sleep.body = Sleep{1000ms};
  EXPECT_EQ(KindOf(sleep).key, "sleep");
  const CostModel model{.step_ms = 5};
  EXPECT_EQ(StepsCostMs({sleep}, model), 1005);
}

}  // namespace
}  // namespace fakehost::scenario
