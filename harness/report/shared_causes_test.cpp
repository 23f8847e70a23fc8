#include "harness/report/shared_causes.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "harness/report/reporter.hpp"

namespace fakehost::report {
namespace {

using result::Failure;
using result::Level;
using result::Reason;
using result::ScenarioResult;
using result::Status;

constexpr const char* kFragment = "/suite/fragments/initialize.yaml";
constexpr const char* kBanner = "example server running on stdio";

result::TranscriptEntry Entry(std::size_t index, result::Direction direction,
                              result::EntryKind kind, std::string text) {
  result::TranscriptEntry e;
  e.index = index;
  e.direction = direction;
  e.kind = kind;
  e.size = text.size();
  e.text = std::move(text);
  return e;
}

// A failed scenario `id` whose transcript has `before` host requests, then `line` from the
// plugin (not JSON), on which the not-json check fired. Its message names the frame, as the
// real one does: the key must not read it.
ScenarioResult Banner(const std::string& id, std::size_t before, const std::string& line) {
  ScenarioResult r;
  r.id = id;
  r.status = Status::kFail;
  r.loc = {"/suite/" + id + ".yaml", 1, 1};
  for (std::size_t i = 0; i < before; ++i)
    r.transcript.push_back(
        Entry(i, result::Direction::kHostToPlugin, result::EntryKind::kRequest,
              R"({"jsonrpc":"2.0","id":)" + std::to_string(i + 1) + R"(,"method":"ping"})"));
  r.transcript.push_back(
      Entry(before, result::Direction::kPluginToHost, result::EntryKind::kNotJson, line));
  Failure f;
  f.check = "not-json";
  f.reason = Reason::kNotAMessage;
  f.frame = before;
  f.message = "line #" + std::to_string(before) + " is not a JSON-RPC message";
  r.failures.push_back(f);
  return r;
}

// A failed scenario whose handshake step (written in the fragment) got `answer` and refused it.
ScenarioResult Refused(const std::string& id, const std::string& answer) {
  ScenarioResult r;
  r.id = id;
  r.status = Status::kFail;
  r.loc = {"/suite/" + id + ".yaml", 1, 1};
  r.transcript.push_back(Entry(0, result::Direction::kHostToPlugin, result::EntryKind::kRequest,
                               R"({"jsonrpc":"2.0","id":1,"method":"initialize"})"));
  r.transcript.push_back(
      Entry(1, result::Direction::kPluginToHost, result::EntryKind::kResponse, answer));
  Failure f;
  f.check = "step";
  f.step = 1;
  f.step_kind = "expect";
  f.loc = {kFragment, 5, 3};
  f.reason = Reason::kWrongContent;
  f.expected = "/result/protocolVersion: a known revision";
  f.frame = 1;
  f.message = "arrived but does not match (" + id + ")";
  r.failures.push_back(f);
  return r;
}

result::RunReport RunOf(std::vector<ScenarioResult> scenarios) {
  result::RunReport report;
  report.scenarios = std::move(scenarios);
  return report;
}

TEST(SharedCauses, JoinTheSameBannerLineWhateverItsFrameNumberAndMessage) {
  result::RunReport report = RunOf(
      {Banner("a/one", 0, kBanner), Banner("a/two", 1, kBanner), Banner("b/three", 0, kBanner)});
  RunCauses causes(report);
  ASSERT_EQ(causes.shared().size(), 1u);
  const SharedCause& c = causes.shared()[0];
  EXPECT_EQ(c.scenarios, 3u);
  ASSERT_EQ(c.roots.size(), 3u);
  EXPECT_EQ(c.roots[0].scenario, 0u);
  EXPECT_EQ(c.roots[1].scenario, 1u);
  EXPECT_EQ(c.roots[2].scenario, 2u);
  for (std::size_t s = 0; s < 3; ++s) {
    EXPECT_EQ(causes.SharedOf(s, 0), 0u);
    EXPECT_TRUE(causes.AllShared(s));
  }
  EXPECT_EQ(SharedCauseRef(causes, 0), "cause 1 above (3 scenarios)");
}

TEST(SharedCauses, KeepTwoDifferentLinesApartAsTwoCauses) {
  result::RunReport report =
      RunOf({Banner("a/one", 0, kBanner), Banner("a/two", 0, "debug: ready"),
             Banner("a/three", 0, kBanner), Banner("a/four", 0, "debug: ready")});
  RunCauses causes(report);
  ASSERT_EQ(causes.shared().size(), 2u);
  EXPECT_EQ(causes.shared()[0].roots[0].scenario, 0u);
  EXPECT_EQ(causes.shared()[0].roots[1].scenario, 2u);
  EXPECT_EQ(causes.shared()[1].roots[0].scenario, 1u);
  EXPECT_EQ(causes.shared()[1].roots[1].scenario, 3u);
}

TEST(SharedCauses, LeaveACauseOfOneScenarioAsItWas) {
  result::RunReport report = RunOf({Banner("a/one", 0, kBanner), Banner("a/two", 0, "other")});
  RunCauses causes(report);
  EXPECT_TRUE(causes.shared().empty());
  EXPECT_EQ(causes.SharedOf(0, 0), std::nullopt);
  EXPECT_FALSE(causes.AllShared(0));
}

TEST(SharedCauses, JoinTheSameHandshakeAnswerUnderAnotherIdButNotAnotherAnswer) {
  const std::string bad = R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"1999-01-01"}})";
  const std::string bad_other_id =
      R"({"jsonrpc":"2.0","id":"x-7","result":{"protocolVersion":"1999-01-01"}})";
  const std::string worse = R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"0"}})";
  result::RunReport report =
      RunOf({Refused("a/one", bad), Refused("a/two", bad_other_id), Refused("a/three", worse)});
  RunCauses causes(report);
  ASSERT_EQ(causes.shared().size(), 1u);
  ASSERT_EQ(causes.shared()[0].roots.size(), 2u);
  EXPECT_EQ(causes.shared()[0].roots[1].scenario, 1u);
  EXPECT_EQ(causes.SharedOf(2, 0), std::nullopt);
}

TEST(SharedCauses, KeepTheSameAnswerApartWhenTheStepsDiffer) {
  const std::string bad = R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"1999-01-01"}})";
  ScenarioResult own = Refused("a/two", bad);
  own.failures[0].loc = {own.loc.file, 7, 5};  // a step of the scenario's own, not the fragment's
  ScenarioResult other = Refused("a/three", bad);
  other.failures[0].expected = "/result/serverInfo: an object";
  RunCauses causes(RunOf({Refused("a/one", bad), own, other}));
  EXPECT_TRUE(causes.shared().empty());
}

TEST(SharedCauses, ReadNeitherTheMessageNorTheActualText) {
  ScenarioResult a = Banner("a/one", 0, kBanner), b = Banner("a/two", 0, kBanner);
  a.failures[0].actual = "at 12 ms";
  b.failures[0].actual = "at 99 ms";
  b.failures[0].message = "reworded entirely";
  EXPECT_EQ(CauseKey(a, a.failures[0]), CauseKey(b, b.failures[0]));
  EXPECT_NE(CauseKey(a, a.failures[0]), "");
}

TEST(SharedCauses, KeepALevelOrACheckApart) {
  ScenarioResult a = Banner("a/one", 0, kBanner), b = Banner("a/two", 0, kBanner),
                 c = Banner("a/three", 0, kBanner);
  b.failures[0].level = Level::kShould;
  c.failures[0].check = "framing";
  EXPECT_NE(CauseKey(a, a.failures[0]), CauseKey(b, b.failures[0]));
  EXPECT_NE(CauseKey(a, a.failures[0]), CauseKey(c, c.failures[0]));
}

TEST(SharedCauses, NeverShareACheckThatNamesNoFrame) {
  ScenarioResult a = Banner("a/one", 0, kBanner), b = Banner("a/two", 0, kBanner);
  a.failures[0].frame.reset();
  b.failures[0].frame.reset();
  EXPECT_EQ(CauseKey(a, a.failures[0]), "");
  EXPECT_TRUE(RunCauses(RunOf({a, b})).shared().empty());
}

TEST(SharedCauses, NeverShareAFrameTheResultHoldsOnlySummarised) {
  ScenarioResult a = Banner("a/one", 0, kBanner), b = Banner("a/two", 0, kBanner);
  a.transcript[0].summarised = b.transcript[0].summarised = true;
  a.transcript[0].text = b.transcript[0].text = "";
  EXPECT_TRUE(RunCauses(RunOf({a, b})).shared().empty());
}

TEST(SharedCauses, JoinAPluginThatExitedWithOneThatClosedItsStdoutOnTheSameStep) {
  auto gone = [](const std::string& id, Reason reason) {
    ScenarioResult r;
    r.id = id;
    r.status = Status::kFail;
    r.exit.exited = true;
    r.exit.code = 1;
    Failure f;
    f.check = "step";
    f.step = 1;
    f.step_kind = "expect";
    f.loc = {kFragment, 5, 3};
    f.reason = reason;
    r.failures.push_back(f);
    return r;
  };
  ScenarioResult other_code = gone("a/three", Reason::kPluginExited);
  other_code.exit.code = 2;
  RunCauses causes(RunOf(
      {gone("a/one", Reason::kPluginExited), gone("a/two", Reason::kStdoutClosed), other_code}));
  ASSERT_EQ(causes.shared().size(), 1u);
  EXPECT_EQ(causes.shared()[0].scenarios, 2u);
  EXPECT_EQ(causes.SharedOf(2, 0), std::nullopt);
}

TEST(SharedCauses, LeaveOutExpectedFailuresAndPasses) {
  ScenarioResult a = Banner("a/one", 0, kBanner), b = Banner("a/two", 0, kBanner);
  b.status = Status::kXfail;
  EXPECT_TRUE(RunCauses(RunOf({a, b})).shared().empty());
}

TEST(SharedCauses, CountAScenarioWithTheSameCauseTwiceOnce) {
  ScenarioResult a = Banner("a/one", 0, kBanner);
  a.transcript.push_back(
      Entry(1, result::Direction::kPluginToHost, result::EntryKind::kNotJson, kBanner));
  Failure again = a.failures[0];
  again.frame = 1;
  a.failures.push_back(again);
  RunCauses alone(RunOf({a}));
  EXPECT_TRUE(alone.shared().empty());
  RunCauses two(RunOf({a, Banner("a/two", 0, kBanner)}));
  ASSERT_EQ(two.shared().size(), 1u);
  EXPECT_EQ(two.shared()[0].scenarios, 2u);
  EXPECT_EQ(two.shared()[0].roots.size(), 3u);
  EXPECT_TRUE(two.AllShared(0));
}

// What each text format shows for `report`.
struct Shown {
  std::string console, markdown, annotations;
};
Shown Show(const result::RunReport& report) {
  Shown out;
  std::ostringstream console;
  std::string error;
  EXPECT_TRUE(MakeConsoleReporter(console, {})->RunEnded(report, &error)) << error;
  out.console = console.str();
  out.markdown = MarkdownReport(report);
  out.annotations = GithubAnnotations(report);
  return out;
}

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(SharedCauseReports, ShowTwoCausesAsTwoBlocksAndTwoAnnotations) {
  Shown shown = Show(RunOf({Banner("a/one", 0, kBanner), Banner("a/two", 0, "debug: ready"),
                            Banner("a/three", 0, kBanner), Banner("a/four", 0, "debug: ready")}));
  EXPECT_EQ(Count(shown.console, "\nFAIL cause "), 2u) << shown.console;
  EXPECT_NE(shown.console.find("\nFAIL cause 1 — one failure in 2 scenarios\n"), std::string::npos)
      << shown.console;
  EXPECT_NE(shown.console.find("  in: a/one, a/three\n"), std::string::npos) << shown.console;
  EXPECT_NE(shown.console.find("  in: a/two, a/four\n"), std::string::npos) << shown.console;
  EXPECT_EQ(Count(shown.console, "): cause 1 above (2 scenarios)\n"), 2u) << shown.console;
  EXPECT_EQ(Count(shown.console, "): cause 2 above (2 scenarios)\n"), 2u) << shown.console;
  EXPECT_EQ(Count(shown.markdown, "cause 1 — one failure in 2 scenarios"), 1u) << shown.markdown;
  EXPECT_EQ(Count(shown.markdown, "cause 2 — one failure in 2 scenarios"), 1u) << shown.markdown;
  EXPECT_EQ(Count(shown.annotations, "::error "), 2u) << shown.annotations;
  EXPECT_EQ(Count(shown.annotations, "::error title=fakehost FAIL 2 scenarios%2C one cause::"), 2u)
      << shown.annotations;
  EXPECT_NE(shown.annotations.find("%0Ain 2 scenarios: a/two, a/four\n"), std::string::npos)
      << shown.annotations;
}

TEST(SharedCauseReports, ShowLinesThatDifferOnlyByFrameNumberAsOneBlock) {
  Shown shown = Show(RunOf({Banner("a/one", 0, kBanner), Banner("a/two", 2, kBanner)}));
  EXPECT_EQ(Count(shown.console, "\nFAIL cause "), 1u) << shown.console;
  EXPECT_NE(shown.console.find("not-json (frame #0): cause 1 above (2 scenarios)\n"),
            std::string::npos)
      << shown.console;
  EXPECT_NE(shown.console.find("not-json (frame #2): cause 1 above (2 scenarios)\n"),
            std::string::npos)
      << shown.console;
  // The banner once, in the block: the scenarios' own frames are left to the JSON and HTML.
  EXPECT_EQ(Count(shown.console, kBanner), 1u) << shown.console;
  EXPECT_EQ(Count(shown.annotations, "\n"), 1u) << shown.annotations;
  EXPECT_EQ(Count(shown.markdown, "\n#### "), 3u) << shown.markdown;  // the cause, 2 scenarios
}

TEST(SharedCauseReports, ShowAScenariosOwnCauseInFullBesideASharedOne) {
  ScenarioResult mixed = Banner("a/two", 0, kBanner);
  Failure own;
  own.check = "step";
  own.step = 3;
  own.step_kind = "expect";
  own.loc = {mixed.loc.file, 12, 5};
  own.reason = Reason::kDeadlinePassed;
  own.message = "nothing arrived within 1000 ms";
  mixed.failures.push_back(own);
  Shown shown = Show(RunOf({Banner("a/one", 0, kBanner), mixed}));
  EXPECT_NE(shown.console.find("not-json (frame #0): cause 1 above (2 scenarios)\n"),
            std::string::npos)
      << shown.console;
  EXPECT_NE(shown.console.find("(/suite/a/two.yaml:12:5): nothing arrived within 1000 ms\n"),
            std::string::npos)
      << shown.console;
  EXPECT_EQ(Count(shown.console, "  frames:\n"), 1u) << shown.console;  // a/two's, in full
  // One annotation for the cause, one for a/two's own.
  EXPECT_EQ(Count(shown.annotations, "\n"), 2u) << shown.annotations;
  EXPECT_EQ(Count(shown.annotations, "title=fakehost FAIL a/two::"), 1u) << shown.annotations;
}

TEST(SharedCauseReports, AnnotateACauseOnTheStepEveryScenarioBrokeOnElseWithoutAFile) {
  const std::string bad = R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"1999-01-01"}})";
  ::setenv("GITHUB_WORKSPACE", "/suite", 1);
  std::string handshake = GithubAnnotations(RunOf({Refused("a/one", bad), Refused("a/two", bad)}));
  std::string banner =
      GithubAnnotations(RunOf({Banner("a/one", 0, kBanner), Banner("a/two", 0, kBanner)}));
  ::unsetenv("GITHUB_WORKSPACE");
  EXPECT_EQ(handshake.rfind("::error file=fragments/initialize.yaml,line=5,title=fakehost FAIL 2 "
                            "scenarios%2C one cause::step 1 expect (",
                            0),
            0u)
      << handshake;
  EXPECT_EQ(Count(handshake, "\n"), 1u) << handshake;
  EXPECT_EQ(banner.rfind("::error title=fakehost FAIL 2 scenarios%2C one cause::not-json: ", 0), 0u)
      << banner;
}

TEST(SharedCauseReports, ShowACauseOfOneScenarioAsBefore) {
  Shown shown = Show(RunOf({Banner("a/one", 0, kBanner), Banner("a/two", 0, "other")}));
  EXPECT_EQ(Count(shown.console, "cause"), 0u) << shown.console;
  EXPECT_EQ(Count(shown.console, "  frames:\n"), 2u) << shown.console;
  EXPECT_EQ(Count(shown.markdown, "cause"), 0u) << shown.markdown;
  EXPECT_EQ(Count(shown.annotations, "title=fakehost FAIL a/"), 2u) << shown.annotations;
  EXPECT_EQ(JsonReport(RunOf({Banner("a/one", 0, kBanner)})).find("shared_causes"),
            std::string::npos);
}

}  // namespace
}  // namespace fakehost::report
