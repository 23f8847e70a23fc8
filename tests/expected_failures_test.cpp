// `fakehost run --expected-failures FILE` and `--write-expected-failures FILE` end to end: a
// baseline written from a failing run makes the same run pass with xfail; a listed scenario that
// passes fails the run as stale; an entry that matches nothing is bad input; an expired one
// fails the run again.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "harness/json/json.hpp"
#include "harness/schema/schema.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;

std::string Broken() { return FixturesDir() + "/rim-v1/broken/ignore-shutdown"; }
std::string Reference() { return FixturesDir() + "/rim-v1/reference"; }

CommandResult Fakehost(std::vector<std::string> args) {
  args.insert(args.begin(), FakehostBin());
  return RunCommand(args, std::chrono::seconds(120));
}

// `--only ONLY` (default: the shutdown section) and `more`.
CommandResult RunShutdown(const std::string& plugin, const std::string& out,
                          std::vector<std::string> more, const std::string& only = "shutdown/*") {
  std::vector<std::string> args = {"run",    "--protocol", "rim-v1", "--plugin", plugin,
                                   "--only", only,         "--out",  out,        "--no-color"};
  args.insert(args.end(), more.begin(), more.end());
  return Fakehost(args);
}

void Write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// The report, checked against schema/report.schema.json.
rapidjson::Document Report(const std::string& out) {
  rapidjson::Document report;
  EXPECT_TRUE(json::Parse(ReadFile(out + "/report.json"), &report).ok);
  std::string error;
  auto s = schema::FrameSchema::Load(SourceDir() + "/schema/report.schema.json", &error);
  EXPECT_TRUE(s) << error;
  if (s)
    for (const auto& v : s->Validate("report", report))
      ADD_FAILURE() << v.pointer << ": " << v.message;
  return report;
}

std::string StatusOf(const rapidjson::Document& report, const std::string& id) {
  for (const auto& s : report["scenarios"].GetArray())
    if (s["id"].GetString() == id) return s["status"].GetString();
  return "(absent)";
}

// The first failure of scenario `id` whose check is `check` ("" for any other than the baseline's
// own), or nullptr: what the run layer wrote, read back to be looked for in the other formats.
const rapidjson::Value* FailureOf(const rapidjson::Document& report, const std::string& id,
                                  const std::string& check) {
  for (const auto& s : report["scenarios"].GetArray()) {
    if (s["id"].GetString() != id) continue;
    for (const auto& f : s["failures"].GetArray()) {
      const std::string c = f["check"].GetString();
      if (check.empty() ? c != "expected-failure" : c == check) return &f;
    }
  }
  return nullptr;
}

// The start of `message` as every format quotes it: before anything one of them escapes or
// clips (a quote, a markup or XML character, a line break), and at most 40 bytes.
std::string Start(const rapidjson::Value* failure) {
  EXPECT_TRUE(failure) << "no such failure";
  if (!failure) return "(no failure)";
  const std::string message = (*failure)["message"].GetString();
  EXPECT_FALSE(message.empty());
  std::string start =
      message.substr(0, std::min<std::size_t>(message.find_first_of("\"&<>'`*_[]\r\n"), 40));
  EXPECT_GE(start.size(), 12u) << "too little of it to tell it apart: " << message;
  return start;
}

TEST(ExpectedFailuresCli, AWrittenBaselineMakesTheSameRunPassWithXfail) {
  std::string dir = MakeTempDir();
  std::string baseline = dir + "/expected-failures.yaml";
  CommandResult first =
      RunShutdown(Broken(), dir + "/first", {"--write-expected-failures", baseline});
  ASSERT_EQ(first.exit_code, 1) << "writing a baseline leaves the exit code alone\n" << first.out;
  std::string text = ReadFile(baseline);
  // exits-promptly fails at its shutdown step: the plugin outlived the grace (wrong-exit).
  rapidjson::Document failed = Report(dir + "/first");
  const rapidjson::Value* shutdown = FailureOf(failed, "shutdown/exits-promptly", "");
  ASSERT_TRUE(shutdown) << first.out;
  EXPECT_STREQ((*shutdown)["check"].GetString(), "step");
  EXPECT_STREQ((*shutdown)["step_kind"].GetString(), "shutdown");
  EXPECT_STREQ((*shutdown)["reason"].GetString(), "wrong-exit");
  // Both shutdown/ scenarios of the suite fail with this plugin: one glob covers them, its reason
  // quoting that failure (the interpreter words it; its own tests pin how).
  EXPECT_NE(text.find("- id: \"shutdown/*\"\n  reason: \"2 scenarios fail; "
                      "shutdown/exits-promptly: " +
                      Start(shutdown)),
            std::string::npos)
      << text;

  CommandResult again =
      RunShutdown(Broken(), dir + "/again",
                  {"--expected-failures", baseline, "--report", "junit=" + dir + "/junit.xml",
                   "--report", "markdown=" + dir + "/summary.md"});
  EXPECT_EQ(again.exit_code, 0) << again.out << again.err << text;
  // The verdicts from the JSON report: xfail, counted as expected failures, none failed.
  rapidjson::Document report = Report(dir + "/again");
  EXPECT_EQ(StatusOf(report, "shutdown/exits-promptly"), "xfail");
  EXPECT_GE(report["summary"]["xfailed"].GetInt(), 1);
  EXPECT_EQ(report["summary"]["failed"].GetInt(), 0);
  for (const auto& s : report["scenarios"].GetArray()) {
    if (std::string(s["status"].GetString()) != "xfail") continue;
    EXPECT_FALSE(s["failures"].GetArray().Empty()) << "an xfail keeps its failures";
    EXPECT_EQ(std::string(s["expected_failure"]["file"].GetString()), baseline);
    EXPECT_GE(s["expected_failure"]["line"].GetInt(), 1);
  }
  std::string junit = ReadFile(dir + "/junit.xml");
  EXPECT_NE(junit.find("failures=\"0\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("expected failure (" + baseline), std::string::npos) << junit;
  EXPECT_NE(ReadFile(dir + "/summary.md").find("### Expected failures"), std::string::npos);
  fs::remove_all(dir);
}

TEST(ExpectedFailuresCli, AWrittenBaselineNeverGlobsOverAnUnselectedScenario) {
  std::string dir = MakeTempDir();
  std::string baseline = dir + "/xfail.yaml";
  const std::string one = "shutdown/exits-promptly";
  CommandResult first =
      RunShutdown(Broken(), dir + "/first", {"--write-expected-failures", baseline}, one);
  ASSERT_EQ(first.exit_code, 1) << first.out << first.err;
  std::string text = ReadFile(baseline);
  EXPECT_NE(text.find("- id: \"shutdown/exits-promptly\"\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("*"), std::string::npos)
      << "shutdown/sends-nothing-after-shutdown was not run";
  CommandResult again =
      RunShutdown(Broken(), dir + "/again", {"--expected-failures", baseline}, one);
  EXPECT_EQ(again.exit_code, 0) << again.out << again.err << text;
  fs::remove_all(dir);
}

TEST(ExpectedFailuresCli, AListedScenarioThatPassesFailsTheRunAsStale) {
  std::string dir = MakeTempDir();
  std::string baseline = dir + "/xfail.yaml";
  Write(baseline, "# known\n- id: shutdown/exits-promptly\n  reason: was slow\n");
  CommandResult r =
      RunShutdown(Reference(), dir + "/out",
                  {"--expected-failures", baseline, "--report", "junit=" + dir + "/junit.xml"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  rapidjson::Document report = Report(dir + "/out");
  EXPECT_EQ(StatusOf(report, "shutdown/exits-promptly"), "stale") << r.out;
  EXPECT_EQ(report["summary"]["stale"].GetInt(), 1);
  // Its one failure is the entry's, and names it: the file and line to remove it from.
  for (const auto& s : report["scenarios"].GetArray()) {
    if (std::string(s["id"].GetString()) != "shutdown/exits-promptly") continue;
    ASSERT_EQ(s["failures"].Size(), 1u);
    EXPECT_STREQ(s["failures"][0]["check"].GetString(), "expected-failure");
    EXPECT_EQ(std::string(s["expected_failure"]["file"].GetString()), baseline);
    EXPECT_EQ(s["expected_failure"]["line"].GetInt(), 2);
    EXPECT_FALSE(s["expected_failure"]["expired"].GetBool());
  }
  // JUnit fails it on that failure (the run layer words it; expected_failures_test pins how).
  std::string junit = ReadFile(dir + "/junit.xml");
  EXPECT_NE(junit.find("<failure message=\"expected-failure: " +
                       Start(FailureOf(report, "shutdown/exits-promptly", "expected-failure"))),
            std::string::npos)
      << junit;
  fs::remove_all(dir);
}

TEST(ExpectedFailuresCli, AnEntryThatMatchesNoScenarioOfTheSuiteIsBadInput) {
  std::string dir = MakeTempDir();
  std::string baseline = dir + "/xfail.yaml";
  // heartbeat/* is outside the selection but in the suite: valid.
  Write(baseline,
        "- {id: 'heartbeat/*', reason: other shard}\n- id: shutdown/no-such\n  reason: typo\n");
  CommandResult r = RunShutdown(Broken(), dir + "/out", {"--expected-failures", baseline});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(baseline + ":2:3: 'shutdown/no-such' matches no scenario of the suite"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("heartbeat"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/out/report.json")) << "nothing runs";

  Write(baseline, "- id: shutdown/exits-promptly\n  kind: step\n  until: 2027-13-01\n");
  r = RunShutdown(Broken(), dir + "/out", {"--expected-failures", baseline});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(baseline + ":1:3: an entry needs reason"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(baseline + ":3:10: until is a date"), std::string::npos) << r.err;
  fs::remove_all(dir);
}

TEST(ExpectedFailuresCli, AnExpiredEntryFailsTheRunInEveryReport) {
  std::string dir = MakeTempDir();
  std::string baseline = dir + "/xfail.yaml";
  Write(baseline, "- id: 'shutdown/*'\n  reason: waits for its worker\n  until: 2020-01-31\n");
  CommandResult r =
      RunShutdown(Broken(), dir + "/out",
                  {"--expected-failures", baseline, "--report", "markdown=" + dir + "/summary.md"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  rapidjson::Document report = Report(dir + "/out");
  EXPECT_EQ(StatusOf(report, "shutdown/exits-promptly"), "fail") << r.out;
  for (const auto& s : report["scenarios"].GetArray()) {
    if (std::string(s["id"].GetString()) != "shutdown/exits-promptly") continue;
    // Failed first by the entry that expired, on its date.
    EXPECT_TRUE(s["expected_failure"]["expired"].GetBool());
    EXPECT_STREQ(s["expected_failure"]["until"].GetString(), "2020-01-31");
    EXPECT_EQ(std::string(s["failures"][0]["check"].GetString()), "expected-failure");
  }
  // The Markdown summary shows that failure too (the run layer words it).
  const std::string md = ReadFile(dir + "/summary.md");
  EXPECT_NE(md.find("expected-failure: " +
                    Start(FailureOf(report, "shutdown/exits-promptly", "expected-failure"))),
            std::string::npos)
      << md;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fakehost::testing
