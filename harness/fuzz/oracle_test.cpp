// The fuzzer's oracle: which rule each failure of a played scenario breaks, read from the
// failure's typed reason and check, never from its message.
#include "harness/fuzz/oracle.hpp"

#include <gtest/gtest.h>

namespace fakehost::fuzz {
namespace {

using result::Failure;
using result::Level;
using result::Reason;

Failure StepMiss(const char* kind, Reason reason, Level level = Level::kMust) {
  Failure f;
  f.check = "step";
  f.step = 3;
  f.step_kind = kind;
  f.level = level;
  f.reason = reason;
  f.message = "a miss";
  return f;
}

Failure Check(const char* check, Reason reason = Reason::kCheckFired) {
  Failure f;
  f.check = check;
  f.frame = 4;
  f.reason = reason;
  f.message = "it fired";
  return f;
}

std::vector<std::string> Keys(std::vector<Failure> failures) {
  result::ScenarioResult r;
  r.failures = std::move(failures);
  std::vector<std::string> keys;
  for (const Finding& f : FindingsOf(r)) keys.push_back(f.Key());
  return keys;
}

TEST(FindingsOf, NamesAStepThatFoundThePluginGoneItsDeath) {
  EXPECT_EQ(Keys({StepMiss("expect", Reason::kPluginExited)}),
            std::vector<std::string>{"died/must"});
  EXPECT_EQ(Keys({StepMiss("expect_none", Reason::kStdoutClosed, Level::kShould)}),
            std::vector<std::string>{"died/should"});
}

TEST(FindingsOf, NamesEveryOtherStepMissAndAnUnansweredRequestAHang) {
  for (Reason reason : {Reason::kDeadlinePassed, Reason::kFramingLost, Reason::kHardLimit,
                        Reason::kWrongContent, Reason::kWrongTime})
    EXPECT_EQ(Keys({StepMiss("expect", reason)}), std::vector<std::string>{"no-answer/must"})
        << result::ReasonName(reason);
  EXPECT_EQ(Keys({Check("unanswered", Reason::kUnanswered)}),
            std::vector<std::string>{"no-answer/must"});
}

TEST(FindingsOf, NamesAShutdownThatFoundThePluginGoneTheShutdowns) {
  EXPECT_EQ(Keys({StepMiss("shutdown", Reason::kPluginExited)}),
            std::vector<std::string>{"shutdown/must"});
  EXPECT_EQ(Keys({StepMiss("shutdown", Reason::kWrongExit)}),
            std::vector<std::string>{"shutdown/must"});
}

TEST(FindingsOf, ReadsTheReasonNeverTheMessage) {
  Failure timed_out = StepMiss("expect", Reason::kDeadlinePassed);
  timed_out.message = "while waiting for a reply, the plugin exited (exit code 1)";
  EXPECT_EQ(Keys({timed_out}), std::vector<std::string>{"no-answer/must"});
}

TEST(FindingsOf, ListsTheAlwaysOnChecksFirstOnceEachAndNoHarnessError) {
  Failure harness = StepMiss("send", Reason::kHarnessFault);
  harness.harness_error = true;
  EXPECT_EQ(Keys({StepMiss("expect", Reason::kPluginExited), harness,
                  Check("framing", Reason::kCutShort), Check("schema"), Check("schema")}),
            (std::vector<std::string>{"framing/must", "schema/must", "died/must"}));
}

}  // namespace
}  // namespace fakehost::fuzz
