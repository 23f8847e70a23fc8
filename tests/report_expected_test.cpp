// Every report format shows the statuses an --expected-failures file gives: xfail (a known
// failure, its failures still shown, not a failure of the run) and stale (a listed scenario that
// passes: a failure of the run, pointing at the entry to remove).
#include <gtest/gtest.h>

#include <cstdlib>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/report/reporter.hpp"
#include "harness/run/expected_failures.hpp"
#include "tests/command.hpp"
#include "tests/report_fixture.hpp"

namespace fakehost::testing {
namespace {

constexpr const char* kXfail = "handshake/accepts-offered-version";  // fails in the fixture
constexpr const char* kStale = "envelope/null-id-gets-no-answer";    // passes in the fixture

// The fixture run with a baseline listing one failing and one passing scenario.
result::RunReport WithBaseline() {
  result::RunReport report = ReportFixture();
  run::ExpectedFailures baseline;
  std::vector<scenario::LoadError> errors;
  EXPECT_TRUE(run::ParseExpectedFailures(std::string("- id: ") + kXfail +
                                             "\n  reason: \"answers with <the other> id\"\n" +
                                             "- id: " + kStale + "\n  reason: was broken\n",
                                         "/ci/xfail.yaml", &baseline, &errors));
  run::ApplyExpectedFailures(baseline, {false, "2026-12-02"}, &report.scenarios);
  result::Summarise(&report);
  return report;
}

// The stale entry's failure as the run layer wrote it: the reports are checked to carry it,
// not to word it (expected_failures.cpp does).
std::string StaleMessage(const result::RunReport& report) {
  for (const auto& s : report.scenarios)
    if (s.id == kStale && !s.failures.empty()) return s.failures[0].message;
  ADD_FAILURE() << "no failure on " << kStale;
  return "?";
}

std::string Slice(const std::string& text, const std::string& from, const std::string& to) {
  std::size_t at = text.find(from);
  if (at == std::string::npos) return "";
  std::size_t end = text.find(to, at + from.size());
  return text.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

TEST(ExpectedFailureReports, TheSummaryCountsXfailAndStaleApart) {
  result::RunReport r = WithBaseline();
  EXPECT_EQ(r.summary.xfailed, 1);
  EXPECT_EQ(r.summary.stale, 1);
  EXPECT_EQ(r.summary.failed, 0);
  EXPECT_EQ(r.summary.passed, 0);
  EXPECT_EQ(r.summary.total, 6);
}

TEST(ExpectedFailureReports, TheJsonReportNamesTheEntryAndKeepsTheFailures) {
  result::RunReport r = WithBaseline();
  std::string json = report::JsonReport(r);
  EXPECT_NE(json.find("\"xfailed\":1,\"stale\":1"), std::string::npos) << json;
  std::string xfail =
      Slice(json, "{\"id\":\"" + std::string(kXfail), "{\"id\":\"handshake/refuses");
  EXPECT_NE(xfail.find("\"status\":\"xfail\",\"expected_failure\":{\"file\":\"/ci/xfail.yaml\","
                       "\"line\":1,\"id\":\"handshake/accepts-offered-version\",\"reason\":"
                       "\"answers with <the other> id\",\"expired\":false}"),
            std::string::npos)
      << xfail;
  EXPECT_NE(xfail.find("result.pluginId is not the manifest's id"), std::string::npos);
  EXPECT_NE(xfail.find("\"transcript\":["), std::string::npos) << "an xfail keeps its frames";
  std::string stale = Slice(json, "{\"id\":\"" + std::string(kStale), "{\"id\":\"handshake/");
  EXPECT_NE(stale.find("\"status\":\"stale\""), std::string::npos) << stale;
  EXPECT_NE(
      stale.find("\"check\":\"expected-failure\",\"reason\":\"check-fired\",\"level\":\"must\""),
      std::string::npos)
      << stale;
  EXPECT_NE(stale.find("\"message\":\"" + StaleMessage(r) + "\""), std::string::npos) << stale;
}

TEST(ExpectedFailureReports, JUnitPassesAnXfailAndFailsAStaleEntry) {
  std::string xml = report::JUnitReport(WithBaseline());
  std::string xfail = Slice(xml, "<testcase name=\"" + std::string(kXfail), "</testcase>");
  EXPECT_EQ(xfail.find("<failure"), std::string::npos) << xfail;
  EXPECT_NE(xfail.find("<system-out>"), std::string::npos) << xfail;
  EXPECT_NE(xfail.find("expected failure (/ci/xfail.yaml:1:3): answers with &lt;the other&gt; id"),
            std::string::npos)
      << xfail;
  std::string stale = Slice(xml, "<testcase name=\"" + std::string(kStale), "</testcase>");
  EXPECT_NE(stale.find("<failure message=\"expected-failure: " + StaleMessage(WithBaseline()) +
                       "\" type=\"expected-failure (must)\""),
            std::string::npos)
      << stale;
  EXPECT_NE(xml.find("<testsuites name=\"fakehost rim-v1\" tests=\"6\" failures=\"1\""),
            std::string::npos)
      << "the stale one is the only failure";
}

TEST(ExpectedFailureReports, MarkdownHasTheirColumnsSectionsAndAnAnnotationAtTheEntry) {
  result::RunReport r = WithBaseline();
  std::string md = report::MarkdownReport(r);
  EXPECT_NE(md.find("❌ **1 errored, 1 stale** of 6 scenarios"), std::string::npos) << md;
  EXPECT_NE(md.find("| expected failures | stale | total |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| 0 | 0 | 1 | 0 | 1 | 1 | 1 | 1 | 1 | 6 |"), std::string::npos) << md;
  EXPECT_NE(md.find("### Stale expected failures: they pass now (1)"), std::string::npos);
  EXPECT_NE(md.find("### Expected failures (1)"), std::string::npos);
  EXPECT_NE(md.find("#### 🚧 XFAIL `handshake/accepts-offered-version`"), std::string::npos);
  EXPECT_NE(md.find("Expected failure `/ci/xfail.yaml:1:3`: `answers with <the other> id"),
            std::string::npos)
      << md;
  // The baseline lives in the plugin's repository, the workspace: the annotation points at
  // the entry, relative to it.
  const char* was = std::getenv("GITHUB_WORKSPACE");
  std::string saved = was ? was : "";
  ::setenv("GITHUB_WORKSPACE", "/ci", 1);
  std::string annotations = report::GithubAnnotations(r);
  if (was)
    ::setenv("GITHUB_WORKSPACE", saved.c_str(), 1);
  else
    ::unsetenv("GITHUB_WORKSPACE");
  EXPECT_NE(annotations.find("::error file=xfail.yaml,line=3,title=fakehost STALE " +
                             std::string(kStale)),
            std::string::npos)
      << annotations;
  EXPECT_EQ(annotations.find(kXfail), std::string::npos) << "an xfail is not an error";
  EXPECT_EQ(report::MarkdownReport(ReportFixture()).find("expected failures"), std::string::npos)
      << "no baseline, no columns";
}

TEST(ExpectedFailureReports, TheHtmlReportCarriesTheEntryAndCountsThem) {
  std::string html = report::HtmlReport(WithBaseline());
  EXPECT_NE(html.find("\"xfailed\":1,\"stale\":1"), std::string::npos);
  EXPECT_NE(
      html.find(
          "\"status\":\"xfail\",\"expected_failure\":{\"file\":\"/ci/xfail.yaml\",\"line\":1"),
      std::string::npos);
  EXPECT_NE(html.find("\\u003cthe other>"), std::string::npos) << "entry text is script-safe";
  EXPECT_NE(html.find("xfail: 'XFAIL', stale: 'STALE'"), std::string::npos);
}

TEST(ExpectedFailureReports, TheHtmlReportDrawsThemInAHeadlessBrowser) {
  const char* chromium = "/usr/bin/chromium";
  if (!std::filesystem::exists(chromium)) GTEST_SKIP() << "chromium is not installed";
  std::string dir = MakeTempDir();
  std::ofstream(dir + "/report.html") << report::HtmlReport(WithBaseline());
  CommandResult r =
      RunCommand({chromium, "--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--no-first-run", "--user-data-dir=" + dir + "/chromium-profile", "--dump-dom",
                  "file://" + dir + "/report.html"},
                 std::chrono::seconds(90));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string& dom = r.out;
  EXPECT_NE(dom.find("data-rendered=\"6\""), std::string::npos) << dom.substr(0, 2000);
  EXPECT_NE(dom.find("<span class=\"badge s-xfail\">XFAIL</span>"), std::string::npos);
  EXPECT_NE(dom.find("<span class=\"badge s-stale\">STALE</span>"), std::string::npos);
  EXPECT_NE(dom.find("<span class=\"l\">expected failures</span>"), std::string::npos);
  // The stale one opens with the entry to remove.
  EXPECT_NE(dom.find("<div class=\"expected\">Expected failure /ci/xfail.yaml:3 "
                     "(envelope/null-id-gets-no-answer): was broken</div>"),
            std::string::npos)
      << dom;
  std::filesystem::remove_all(dir);
}

TEST(ExpectedFailureReports, TheConsoleTagsThemAndCountsThem) {
  result::RunReport r = WithBaseline();
  std::ostringstream out;
  auto console = report::MakeConsoleReporter(out, {false, 6});
  for (const auto& s : r.scenarios) console->ScenarioEnded(s);
  std::string error;
  console->RunEnded(r, &error);
  std::string text = out.str();
  EXPECT_NE(text.find("  XFL   handshake/accepts-offered-version"), std::string::npos) << text;
  EXPECT_NE(text.find("(expected: answers with <the other> id)"), std::string::npos) << text;
  EXPECT_NE(text.find("  STAL  envelope/null-id-gets-no-answer"), std::string::npos) << text;
  EXPECT_NE(text.find("expected-failure: " + StaleMessage(r)), std::string::npos)
      << "the stale one's details are shown\n"
      << text;
  EXPECT_NE(text.find(", 1 expected failures, 1 stale in "), std::string::npos) << text;
}

}  // namespace
}  // namespace fakehost::testing
