#include "harness/run/expected_failures.hpp"

#include <gtest/gtest.h>

namespace fakehost::run {
namespace {

using result::Failure;
using result::Level;
using result::ScenarioResult;
using result::Status;

std::string Errors(const std::vector<scenario::LoadError>& errors) {
  std::string out;
  for (const auto& e : errors) out += e.ToString() + "\n";
  return out;
}

ExpectedFailures Parse(const std::string& text) {
  ExpectedFailures b;
  std::vector<scenario::LoadError> errors;
  EXPECT_TRUE(ParseExpectedFailures(text, "xfail.yaml", &b, &errors)) << Errors(errors);
  return b;
}

std::string ParseErrors(const std::string& text) {
  ExpectedFailures b;
  std::vector<scenario::LoadError> errors;
  EXPECT_FALSE(ParseExpectedFailures(text, "xfail.yaml", &b, &errors));
  return Errors(errors);
}

Failure Miss(const std::string& check, std::string message, Level level = Level::kMust) {
  Failure f;
  f.check = check;
  f.level = level;
  f.message = std::move(message);
  return f;
}

ScenarioResult Result(const std::string& id, Status status, std::vector<Failure> failures = {}) {
  ScenarioResult r;
  r.id = id;
  r.status = status;
  r.failures = std::move(failures);
  return r;
}

ScenarioResult Failed(const std::string& id, const std::string& message = "no reply") {
  return Result(id, Status::kFail, {Miss("step", message)});
}

ScenarioResult Applied(const ExpectedFailures& b, ScenarioResult r, bool strict = false,
                       const std::string& today = "2026-12-02") {
  ApplyExpectedFailures(b, ApplyOptions{strict, today}, &r);
  return r;
}

TEST(ExpectedFailures, ReadsEntriesWithTheirPlaces) {
  ExpectedFailures b = Parse(R"(# known failures
- id: shutdown/exits-promptly
  reason: "waits for its worker thread; fixed in 2.1"
  kind: step
  until: 2027-01-31
- id: commands/*
  reason: not implemented
)");
  ASSERT_EQ(b.entries.size(), 2u);
  EXPECT_EQ(b.entries[0].id, "shutdown/exits-promptly");
  EXPECT_EQ(b.entries[0].reason, "waits for its worker thread; fixed in 2.1");
  EXPECT_EQ(b.entries[0].kind, "step");
  EXPECT_EQ(b.entries[0].until, "2027-01-31");
  EXPECT_EQ(b.entries[0].loc.ToString(), "xfail.yaml:2:3");
  EXPECT_EQ(b.entries[1].loc.line, 6);
  EXPECT_TRUE(b.entries[1].kind.empty());
  EXPECT_TRUE(Parse("").entries.empty());
  EXPECT_TRUE(Parse("# nothing yet\n[]\n").entries.empty());
}

TEST(ExpectedFailures, AMissingReasonAnUnknownKeyAndABadDateAreErrorsAtTheirPlace) {
  std::string e = ParseErrors(
      "- id: a/b\n"
      "- id: a/c\n  reason: r\n  resaon: typo\n"
      "- id: a/d\n  reason: r\n  until: 2027-02-30\n"
      "- id: a/e\n  reason: r\n  until: 2027\n"
      "- reason: r\n"
      "- id: ''\n  reason: r\n"
      "- just a string\n");
  EXPECT_NE(e.find("xfail.yaml:1:3: an entry needs reason"), std::string::npos) << e;
  EXPECT_NE(e.find("xfail.yaml:4:3: unknown key 'resaon'"), std::string::npos) << e;
  EXPECT_NE(e.find("xfail.yaml:7:10: until is a date YYYY-MM-DD, got '2027-02-30'"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("xfail.yaml:10:10: until is a date YYYY-MM-DD"), std::string::npos) << e;
  EXPECT_NE(e.find("xfail.yaml:11:3: an entry needs id"), std::string::npos) << e;
  EXPECT_NE(e.find("xfail.yaml:12:7: id is a non-empty string"), std::string::npos) << e;
  EXPECT_NE(e.find("xfail.yaml:14:3: an entry is a map"), std::string::npos) << e;
  EXPECT_NE(
      ParseErrors("id: a\nreason: b\n").find("xfail.yaml:1:1: an expected-failures file is a list"),
      std::string::npos);
}

TEST(ExpectedFailures, AnIdListedTwiceForTheSameKindIsAnError) {
  std::string e = ParseErrors("- {id: a/b, reason: r}\n- {id: a/b, reason: again}\n");
  EXPECT_NE(e.find("xfail.yaml:2:8: 'a/b' is listed twice (first at line 1)"), std::string::npos)
      << e;
  EXPECT_EQ(Parse("- {id: a/b, reason: r, kind: step}\n- {id: a/b, reason: r, kind: schema}\n")
                .entries.size(),
            2u);
}

TEST(ExpectedFailures, AnEntryMustMatchAScenarioOfTheSuite) {
  ExpectedFailures b = Parse(
      "- {id: a/b, reason: r}\n- {id: 'c/*', reason: r}\n"
      "- {id: a/gone, reason: r}\n- {id: 'z/*', reason: r}\n");
  std::vector<scenario::LoadError> errors;
  EXPECT_FALSE(CheckExpectedFailures(b, {"a/b", "a/c", "c/d"}, &errors));
  std::string e = Errors(errors);
  EXPECT_EQ(errors.size(), 2u) << e;
  EXPECT_NE(e.find("xfail.yaml:3:3: 'a/gone' matches no scenario of the suite"), std::string::npos)
      << e;
  EXPECT_NE(e.find("xfail.yaml:4:3: 'z/*' matches no scenario"), std::string::npos) << e;
}

TEST(ExpectedFailures, AListedFailureIsXfailAndKeepsItsFailures) {
  ExpectedFailures b = Parse("- {id: 'a/*', reason: known}\n");
  ScenarioResult r = Applied(b, Failed("a/b"));
  EXPECT_EQ(r.status, Status::kXfail);
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].message, "no reply");
  ASSERT_TRUE(r.expected_failure);
  EXPECT_EQ(r.expected_failure->reason, "known");
  EXPECT_EQ(r.expected_failure->loc.line, 1);
  EXPECT_EQ(Applied(b, Failed("b/a")).status, Status::kFail);
}

TEST(ExpectedFailures, AListedScenarioThatPassesIsStale) {
  ExpectedFailures b = Parse("# header\n- {id: a/b, reason: known}\n- {id: 'c/*', reason: r}\n");
  ScenarioResult r = Applied(b, Result("a/b", Status::kPass));
  EXPECT_EQ(r.status, Status::kStale);
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].check, kExpectedFailureCheck);
  EXPECT_EQ(r.failures[0].message, "passes now: remove it from xfail.yaml (line 2)");
  EXPECT_EQ(r.failures[0].loc.ToString(), "xfail.yaml:2:3");
  ScenarioResult g = Applied(b, Result("c/d", Status::kPass));
  EXPECT_EQ(g.status, Status::kStale);
  EXPECT_NE(g.failures[0].message.find("narrow or remove"), std::string::npos);
}

TEST(ExpectedFailures, ErrorsSkipsUntestedNotRunAndPlainWarningsStayAsTheyAre) {
  ExpectedFailures b = Parse("- {id: 'a/*', reason: known}\n");
  for (Status s : {Status::kError, Status::kSkip, Status::kUntested, Status::kNotRun}) {
    ScenarioResult r = Applied(b, Result("a/b", s, {Miss("harness", "boom")}));
    EXPECT_EQ(r.status, s) << result::StatusName(s);
    EXPECT_FALSE(r.expected_failure);
  }
  ScenarioResult warn = Result("a/b", Status::kWarn, {Miss("step", "late", Level::kShould)});
  EXPECT_EQ(Applied(b, warn).status, Status::kWarn);
  EXPECT_EQ(Applied(b, warn, /*strict=*/true).status, Status::kXfail);
}

TEST(ExpectedFailures, AKindOnlyCoversFailuresAllOfThatCheck) {
  ExpectedFailures b = Parse(
      "- {id: a/b, reason: slow, kind: step}\n"
      "- {id: 'a/*', reason: ids, kind: unknown-reply-id}\n");
  EXPECT_EQ(Applied(b, Failed("a/b")).expected_failure->reason, "slow");
  ScenarioResult mixed = Result("a/b", Status::kFail, {Miss("step", "x"), Miss("schema", "y")});
  EXPECT_EQ(Applied(b, mixed).status, Status::kFail);
  // A should-level miss of another check does not fail the scenario, so it does not count.
  mixed.failures[1].level = Level::kShould;
  EXPECT_EQ(Applied(b, mixed).status, Status::kXfail);
  EXPECT_EQ(Applied(b, mixed, /*strict=*/true).status, Status::kFail);
  ScenarioResult ids = Result("a/b", Status::kFail, {Miss("unknown-reply-id", "id 7")});
  EXPECT_EQ(Applied(b, ids).expected_failure->reason, "ids");
}

TEST(ExpectedFailures, AnExpiredEntryFailsTheRunAndSaysSoFirst) {
  ExpectedFailures b = Parse("- {id: a/b, reason: known, until: 2026-12-01}\n");
  ScenarioResult on_the_day = Applied(b, Failed("a/b"), false, "2026-12-01");
  EXPECT_EQ(on_the_day.status, Status::kXfail);
  ScenarioResult r = Applied(b, Failed("a/b"), false, "2026-12-02");
  EXPECT_EQ(r.status, Status::kFail);
  ASSERT_EQ(r.failures.size(), 2u);
  EXPECT_EQ(r.failures[0].message,
            "expected failure expired on 2026-12-01: fix it or extend it (xfail.yaml (line 1), "
            "reason: known)");
  EXPECT_EQ(r.failures[1].message, "no reply");
  ASSERT_TRUE(r.expected_failure);
  EXPECT_TRUE(r.expected_failure->expired);
  EXPECT_EQ(Applied(b, Result("a/b", Status::kPass), false, "2026-12-02").status, Status::kStale);
}

TEST(ExpectedFailures, ApplyingTwiceChangesNothing) {
  ExpectedFailures b =
      Parse("- {id: a/b, reason: known, until: 2020-01-01}\n- {id: a/c, reason: r}\n");
  for (ScenarioResult r : {Failed("a/b"), Result("a/c", Status::kPass)}) {
    ScenarioResult once = Applied(b, r);
    ScenarioResult twice = Applied(b, once);
    EXPECT_EQ(twice.status, once.status);
    EXPECT_EQ(twice.failures.size(), once.failures.size());
  }
}

// A miss that knows what it expected and what came writes both: "arrived but does not match"
// alone does not tell one baseline entry from another.
TEST(ExpectedFailures, WritesWhatWasExpectedAndWhatCame) {
  ScenarioResult r = Failed("tools/bad", "a reply to list arrived but does not match");
  r.failures[0].expected = "/error/code: expected -32602, got -32603";
  r.failures[0].actual = "#4 response tools/list id 2: {...}";
  EXPECT_EQ(WriteExpectedFailures({r}, {"tools/bad"}, false, "h"),
            "# h\n- id: \"tools/bad\"\n  reason: \"a reply to list arrived but does not match: "
            "/error/code: expected -32602, got -32603\"\n");
}

TEST(ExpectedFailures, WritesFailuresSortedWithGlobsOnlyWhereTheyCoverJustThem) {
  std::vector<std::string> suite = {"a/x",      "a/y",    "b/p",   "b/q",  "c/deep/1",
                                    "c/deep/2", "c/flat", "d/one", "d/two"};
  std::vector<ScenarioResult> results = {Failed("a/x", "first line\nsecond line"),
                                         Failed("a/y"),
                                         Failed("b/p"),
                                         Result("b/q", Status::kPass),
                                         Failed("c/deep/1"),
                                         Failed("c/deep/2"),
                                         Result("c/flat", Status::kSkip),
                                         Failed("d/two")};  // d/one is not selected
  std::string text = WriteExpectedFailures(results, suite, false, "written by a test");
  EXPECT_EQ(text,
            "# written by a test\n"
            "- id: \"a/*\"\n  reason: \"2 scenarios fail; a/x: first line\"\n"
            "- id: \"b/p\"\n  reason: \"no reply\"\n"
            "- id: \"c/deep/*\"\n  reason: \"2 scenarios fail; c/deep/1: no reply\"\n"
            "- id: \"d/two\"\n  reason: \"no reply\"\n");
  ExpectedFailures back = Parse(text);
  std::vector<scenario::LoadError> errors;
  EXPECT_TRUE(CheckExpectedFailures(back, suite, &errors)) << Errors(errors);
  ApplyExpectedFailures(back, ApplyOptions{false, "2026-12-02"}, &results);
  for (const auto& r : results) EXPECT_NE(r.status, Status::kFail) << r.id;
  EXPECT_EQ(results[3].status, Status::kPass);
  EXPECT_EQ(WriteExpectedFailures(results, suite, false, "again"),
            "# again\n" + text.substr(text.find('\n') + 1))
      << "a baseline rewritten from its own xfails is the same";
}

TEST(ExpectedFailures, WritesNothingToExpectAsAnEmptyList) {
  std::string text = WriteExpectedFailures({Result("a/b", Status::kPass)}, {"a/b"}, false, "h");
  EXPECT_EQ(text, "# h\n[]\n");
  EXPECT_TRUE(Parse(text).entries.empty());
}

TEST(ExpectedFailures, AWrittenReasonReadsBackAsItWasWhateverItHolds) {
  std::string hostile =
      "quote \" back\\slash \x01\x7f tab\t é ✓ 𝄞 \xff\xfe bom\xef\xbb\xbf #x: *a \xc2\x85 nel "
      "\xe2\x80\xa8 ls";
  std::string text = WriteExpectedFailures({Failed("a/[b]*", hostile)}, {"a/[b]*"}, false, "h");
  ExpectedFailures back = Parse(text);
  ASSERT_EQ(back.entries.size(), 1u) << text;
  EXPECT_EQ(
      back.entries[0].reason,
      "quote \" back\\slash \x01\x7f tab\t é ✓ 𝄞 \xEF\xBF\xBD\xEF\xBF\xBD bom\xef\xbb\xbf #x: "
      "*a \xc2\x85 nel \xe2\x80\xa8 ls");
  // A header holding what a comment cannot (a plugin id is the plugin's text) stays comments.
  EXPECT_TRUE(
      Parse(WriteExpectedFailures({}, {}, false, "id \x01\r- id: x\nnext \xff")).entries.empty());
  EXPECT_EQ(back.entries[0].id, "a/\\[b]\\*");
  EXPECT_EQ(Applied(back, Failed("a/[b]*")).status, Status::kXfail);
  EXPECT_EQ(Applied(back, Failed("a/b")).status, Status::kFail);
}

TEST(ExpectedFailures, StrictWarningsAreWrittenAndAnExpiredEntryLosesItsDate) {
  ExpectedFailures old = Parse(
      "- {id: a/b, reason: known, kind: step, until: 2020-01-01}\n"
      "- {id: a/c, reason: later, until: 2999-12-31}\n");
  std::vector<ScenarioResult> results = {
      Failed("a/b"), Failed("a/c"),
      Result("b/w", Status::kWarn, {Miss("step", "late", Level::kShould)})};
  ApplyExpectedFailures(old, ApplyOptions{true, "2026-12-02"}, &results);
  std::string text = WriteExpectedFailures(results, {"a/b", "a/c", "a/d", "b/w"}, true, "h");
  EXPECT_EQ(text,
            "# h\n"
            "# its entry (xfail.yaml:1:3) had expired\n"
            "- id: \"a/b\"\n  reason: \"known\"\n  kind: \"step\"\n"
            "- id: \"a/c\"\n  reason: \"later\"\n  until: 2999-12-31\n"
            "- id: \"b/w\"\n  reason: \"late\"\n");
  EXPECT_EQ(WriteExpectedFailures(results, {"a/b", "a/c", "a/d", "b/w"}, false, "h").find("b/w"),
            std::string::npos);
}

}  // namespace
}  // namespace fakehost::run
