#include "harness/report/causes.hpp"

#include <gtest/gtest.h>

#include "harness/report/excerpt.hpp"

namespace fakehost::report {
namespace {

using result::Failure;
using result::Level;
using result::Reason;
using result::ScenarioResult;

constexpr const char* kFile = "/suite/handshake/x.yaml";

// A step's miss for `reason`. Its message says nothing: the grouping reads the reason alone.
Failure Step(std::size_t step, const char* kind, int line, Reason reason,
             Level level = Level::kMust) {
  Failure f;
  f.level = level;
  f.check = "step";
  f.step = step;
  f.step_kind = kind;
  f.loc = {kFile, line, 5};
  f.reason = reason;
  f.message = "a miss";
  return f;
}

Failure Check(const char* check, std::size_t frame, Reason reason = Reason::kCheckFired) {
  Failure f;
  f.check = check;
  f.frame = frame;
  f.reason = reason;
  f.message = "it fired";
  return f;
}

// A result with `kinds[i]` as the kind of transcript entry i.
ScenarioResult Result(std::vector<Failure> failures, std::vector<std::string> kinds = {}) {
  ScenarioResult r;
  r.loc = {kFile, 1, 1};
  r.failures = std::move(failures);
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    result::TranscriptEntry e;
    e.index = i;
    EXPECT_TRUE(result::ParseEntryKind(kinds[i], &e.kind)) << kinds[i];
    r.transcript.push_back(e);
  }
  return r;
}

constexpr Reason kLost = Reason::kFramingLost;
constexpr Reason kExited = Reason::kPluginExited;

TEST(GroupByCause, PutsTheStepsAFramingLossBrokeUnderTheFramingCheck) {
  auto r = Result({Step(2, "expect", 20, kLost, Level::kShould), Step(3, "expect", 24, kLost),
                   Check("framing", 1, kLost)},
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
  auto r = Result({Step(2, "expect", 20, Reason::kDeadlinePassed), Check("framing", 1, kLost)},
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
                   Step(4, "expect_none", 34, kExited, Level::kShould),
                   Step(6, "shutdown", 40, kExited)});
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
  auto r = Result({Step(2, "expect", 20, kExited), Check("framing", 1, Reason::kCutShort)},
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
  auto wrong = Step(4, "expect", 34, kExited);
  wrong.frame = 5;
  auto r = Result({Step(3, "expect", 30, kExited, Level::kShould), wrong});
  r.exit.exited = true;
  EXPECT_EQ(GroupByCause(r).size(), 2u);
}

TEST(GroupByCause, PutsAStepThatFoundStdoutClosedUnderTheFirstWithoutAnExit) {
  auto r = Result({Step(3, "expect", 30, Reason::kStdoutClosed, Level::kShould),
                   Step(4, "expect", 34, kExited)});
  EXPECT_EQ(GroupByCause(r).size(), 2u) << "no exit recorded: the exited step stays apart";
  r.exit.exited = true;
  auto groups = GroupByCause(r);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].cause, Cause::kPluginGone);
  EXPECT_EQ(groups[0].consequences, (std::vector<std::size_t>{1}));
}

TEST(GroupByCause, ReadsTheReasonNeverTheMessage) {
  // Worded as a framing loss, but the step timed out: its own cause.
  auto step = Step(2, "expect", 20, Reason::kDeadlinePassed);
  step.message = "while waiting for a reply, the framing was lost, so the connection is over";
  auto r = Result({step, Check("framing", 1, kLost)}, {"request", "oversized"});
  EXPECT_EQ(GroupByCause(r).size(), 2u);
  r.failures[0].reason = kLost;
  EXPECT_EQ(GroupByCause(r).size(), 1u);
}

TEST(GroupByCause, PutsTheStepsAfterTheHardLimitUnderTheFirst) {
  auto r = Result({Step(2, "expect", 20, Reason::kHardLimit, Level::kShould),
                   Step(3, "expect", 24, Reason::kHardLimit)});
  auto groups = GroupByCause(r);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].cause, Cause::kHardLimit);
  EXPECT_EQ(groups[0].root, 0u);
}

TEST(GroupByCause, PutsTheOtherChecksOnAFrameThatIsNoMessageUnderIt) {
  auto r = Result({Check("not-json", 2, Reason::kNotAMessage), Check("before-handshake", 2),
                   Check("schema", 3)},
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
  auto r = Result({Step(1, "send", 9, Reason::kHarnessFault), fragment, Check("framing", 1, kLost)},
                  {"request", "oversized"});
  r.failures[0].harness_error = true;
  auto groups = GroupByCause(r);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].root, 0u);
  EXPECT_EQ(groups[1].root, 2u);
  EXPECT_EQ(ConsequenceList(r, groups[1]), "step 2 expect (/suite/fragments/handshake.yaml:13:5)");
}

TEST(GroupByCause, GivesEachFailureOfAnIndependentRunItsOwnGroup) {
  auto r = Result({Step(2, "expect", 20, Reason::kDeadlinePassed), Check("schema", 1)},
                  {"request", "response"});
  auto groups = GroupByCause(r);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(CausedBy(r), (std::vector<std::optional<std::size_t>>{std::nullopt, std::nullopt}));
  EXPECT_TRUE(GroupByCause(Result({})).empty());
}

TEST(Headline, IsTheCauseOfTheFirstMissThatFailed) {
  auto r =
      Result({Step(2, "expect", 20, kLost), Check("framing", 1, kLost)}, {"request", "oversized"});
  r.status = result::Status::kFail;
  ASSERT_NE(Headline(r, false), nullptr);
  EXPECT_EQ(Headline(r, false)->check, "framing");
}

}  // namespace
}  // namespace fakehost::report
