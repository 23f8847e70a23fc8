#include "harness/report/causes.hpp"

#include <gtest/gtest.h>

#include "harness/report/excerpt.hpp"

namespace fakehost::report {
namespace {

using scenario::Failure;
using scenario::Level;
using scenario::ScenarioResult;

constexpr const char* kFile = "/suite/handshake/x.yaml";

Failure Step(std::size_t step, const char* kind, int line, std::string message,
             Level level = Level::kMust) {
  Failure f;
  f.level = level;
  f.check = "step";
  f.step = step;
  f.step_kind = kind;
  f.loc = {kFile, line, 5};
  f.message = std::move(message);
  return f;
}

Failure Check(const char* check, std::size_t frame, std::string message = "it fired") {
  Failure f;
  f.check = check;
  f.frame = frame;
  f.message = std::move(message);
  return f;
}

// A result with `kinds[i]` as the kind of transcript entry i.
ScenarioResult Result(std::vector<Failure> failures, std::vector<std::string> kinds = {}) {
  ScenarioResult r;
  r.loc = {kFile, 1, 1};
  r.failures = std::move(failures);
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    session::TranscriptEntry e;
    e.index = i;
    EXPECT_TRUE(session::ParseEntryKind(kinds[i], &e.kind)) << kinds[i];
    r.transcript.push_back(e);
  }
  return r;
}

const std::string kLost =
    "while waiting for a reply to handshake (rim.handshake, id 1, frame #0), the framing was "
    "lost, so the connection is over";
const std::string kExited =
    "while waiting for a reply to ping (ping, id 2, frame #3), the plugin exited (exit code 1)";

TEST(GroupByCause, PutsTheStepsAFramingLossBrokeUnderTheFramingCheck) {
  auto r = Result({Step(2, "expect", 20, kLost, Level::kShould), Step(3, "expect", 24, kLost),
                   Check("framing", 1)},
                  {"request", "oversized", "notification"});
  auto groups = GroupByCause(r);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].cause, Cause::kConnectionLost);
  EXPECT_EQ(groups[0].root, 2u);
  EXPECT_EQ(groups[0].consequences, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(ConsequenceList(r, groups[0]), "step 2 expect (line 20), step 3 expect (line 24)");
  EXPECT_EQ(CausedBy(r), (std::vector<std::optional<std::size_t>>{2, 2, std::nullopt}));
}

TEST(GroupByCause, KeepsAStepThatTimedOutApartFromAFramingLoss) {
  // It missed before the framing was lost: nothing says the loss explains it.
  auto r = Result({Step(2, "expect", 20, "no reply to handshake within 10 s"), Check("framing", 1)},
                  {"request", "oversized"});
  auto groups = GroupByCause(r);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_TRUE(groups[0].consequences.empty());
  EXPECT_TRUE(groups[1].consequences.empty());
  EXPECT_EQ(groups[0].root, 0u);
  EXPECT_EQ(groups[1].root, 1u);
}

TEST(GroupByCause, PutsEveryStepThatFoundThePluginGoneUnderTheFirstOne) {
  auto r = Result({Step(3, "expect", 30, kExited, Level::kShould),
                   Step(4, "expect_none", 34,
                        "before the barrier ping id 9 (frame #5) was answered, the plugin exited "
                        "(exit code 1), so the absence of any request could not be shown",
                        Level::kShould),
                   Step(6, "shutdown", 40,
                        "the plugin had already exited (exit code 1) before the stop sequence "
                        "began")});
  r.exit.exited = true;
  r.exit.description = "exit code 1";
  auto groups = GroupByCause(r);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].cause, Cause::kPluginGone);
  EXPECT_EQ(groups[0].root, 0u);
  EXPECT_EQ(ConsequenceList(r, groups[0]),
            "step 4 expect_none (line 34), step 6 shutdown (line 40)");
}

TEST(GroupByCause, PutsTheStepsAfterAFrameCutShortUnderThatFrame) {
  auto r = Result({Step(2, "expect", 20, kExited), Check("framing", 1, "stdout ended inside")},
                  {"request", "truncated"});
  r.exit.exited = true;
  auto groups = GroupByCause(r);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].cause, Cause::kPluginGone);
  EXPECT_EQ(groups[0].root, 1u);
  EXPECT_EQ(groups[0].consequences, (std::vector<std::size_t>{0}));
}

TEST(GroupByCause, BelievesAnExitOnlyWhenTheResultRecordsOne) {
  auto r = Result({Step(3, "expect", 30, kExited, Level::kShould), Step(4, "expect", 34, kExited)});
  EXPECT_EQ(GroupByCause(r).size(), 2u);
  r.exit.exited = true;
  EXPECT_EQ(GroupByCause(r).size(), 1u);
}

TEST(GroupByCause, KeepsAStepThatGotAFrameApart) {
  // It saw a frame and judged it: its miss is about that frame, not about the plugin being gone.
  auto wrong = Step(4, "expect", 34, "a reply to ping arrived but does not match; " + kExited);
  wrong.frame = 5;
  auto r = Result({Step(3, "expect", 30, kExited, Level::kShould), wrong});
  r.exit.exited = true;
  EXPECT_EQ(GroupByCause(r).size(), 2u);
}

TEST(GroupByCause, PutsTheStepsAfterTheHardLimitUnderTheFirst) {
  auto r =
      Result({Step(2, "expect", 20,
                   "the scenario reached its hard limit of 30 s while waiting for a reply to x",
                   Level::kShould),
              Step(3, "expect", 24,
                   "the scenario reached its hard limit of 30 s before this step could run")});
  auto groups = GroupByCause(r);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].cause, Cause::kHardLimit);
  EXPECT_EQ(groups[0].root, 0u);
}

TEST(GroupByCause, PutsTheOtherChecksOnAFrameThatIsNoMessageUnderIt) {
  auto r = Result({Check("not-json", 2), Check("before-handshake", 2), Check("schema", 3)},
                  {"request", "response", "not-json", "response"});
  auto groups = GroupByCause(r);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].cause, Cause::kBrokenFrame);
  EXPECT_EQ(groups[0].root, 0u);
  EXPECT_EQ(ConsequenceList(r, groups[0]), "before-handshake (frame #2)");
  EXPECT_EQ(groups[1].root, 2u);
  EXPECT_EQ(groups[1].cause, Cause::kOwn);
}

TEST(GroupByCause, KeepsTwoChecksOnAMessageApart) {
  // A frame that is a message can break two rules at once; each is its own fault.
  auto r = Result({Check("schema", 1), Check("duplicate-key", 1)}, {"request", "response"});
  EXPECT_EQ(GroupByCause(r).size(), 2u);
}

TEST(GroupByCause, ListsGroupsInTheOrderOfTheirFirstFailureAndNamesFragmentStepsInFull) {
  auto fragment = Step(2, "expect", 13, kLost);
  fragment.loc.file = "/suite/fragments/handshake.yaml";
  auto r = Result({Step(1, "send", 9, "scenario error: x"), fragment, Check("framing", 1)},
                  {"request", "oversized"});
  r.failures[0].harness_error = true;
  auto groups = GroupByCause(r);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].root, 0u);
  EXPECT_EQ(groups[1].root, 2u);
  EXPECT_EQ(ConsequenceList(r, groups[1]), "step 2 expect (/suite/fragments/handshake.yaml:13:5)");
}

TEST(GroupByCause, GivesEachFailureOfAnIndependentRunItsOwnGroup) {
  auto r = Result({Step(2, "expect", 20, "no reply within 1 s"), Check("schema", 1)},
                  {"request", "response"});
  auto groups = GroupByCause(r);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(CausedBy(r), (std::vector<std::optional<std::size_t>>{std::nullopt, std::nullopt}));
  EXPECT_TRUE(GroupByCause(Result({})).empty());
}

TEST(Headline, IsTheCauseOfTheFirstMissThatFailed) {
  auto r = Result({Step(2, "expect", 20, kLost), Check("framing", 1, "frame #1 announces")},
                  {"request", "oversized"});
  r.status = scenario::Status::kFail;
  ASSERT_NE(Headline(r, false), nullptr);
  EXPECT_EQ(Headline(r, false)->check, "framing");
}

}  // namespace
}  // namespace fakehost::report
