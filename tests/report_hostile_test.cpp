// Reports written from results full of hostile text stay well-formed and inert: the JUnit parses
// as XML, the JSON as JSON, the Markdown carries no HTML from the plugin (all checked by
// report_hostile_check.py with Python's own parsers), and the HTML, loaded in headless Chromium,
// runs no injected script and shows the text as text.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <tuple>

#include "harness/report/reporter.hpp"
#include "tests/command.hpp"
#include "tests/report_fixture.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;

class HostileReports : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir();
    auto report = ReportFixture(HostileText());
    std::string error;
    for (auto [format, name] : {std::pair{"junit", "report.junit.xml"},
                                {"json", "report.json"},
                                {"markdown", "report.md"},
                                {"html", "report.html"}}) {
      auto r = report::MakeFileReporter(format, dir_ + "/" + name, &error);
      ASSERT_NE(r, nullptr) << error;
      ASSERT_TRUE(r->RunEnded(report, &error)) << error;
    }
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }
  std::string dir_;
};

TEST_F(HostileReports, ParseWithRealParsersAndCarryNoPluginHtml) {
  CommandResult r =
      RunCommand({"/usr/bin/env", "python3", SourceDir() + "/tests/report_hostile_check.py", dir_},
                 std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("0 problems"), std::string::npos) << r.out;
}

std::string Chromium() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
    if (fs::exists(p)) return p;
  return "";
}

TEST_F(HostileReports, HtmlRunsNoInjectedScriptInAHeadlessBrowser) {
  std::string chromium = Chromium();
  if (chromium.empty()) GTEST_SKIP() << "chromium is not installed (./ci/test installs it)";
  CommandResult r =
      RunCommand({chromium, "--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--no-first-run", "--user-data-dir=" + dir_ + "/chromium-profile", "--dump-dom",
                  "file://" + dir_ + "/report.html"},
                 std::chrono::seconds(90));
  ASSERT_FALSE(r.timed_out) << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string& dom = r.out;
  // The renderer ran (else "nothing injected" would prove nothing) and drew all six scenarios.
  EXPECT_NE(dom.find("data-rendered=\"6\""), std::string::npos) << dom.substr(0, 2000);
  EXPECT_NE(dom.find("<title>fakehost report</title>"), std::string::npos);
  EXPECT_EQ(dom.find("PWNED</title>"), std::string::npos);
  EXPECT_EQ(dom.find("<pwned"), std::string::npos);
  EXPECT_EQ(dom.find("<img"), std::string::npos);
  EXPECT_EQ(dom.find("<details open=\"\"><summary>x"), std::string::npos);
  // The hostile text is on the page as text: escaped by the DOM serialiser inside elements.
  EXPECT_NE(dom.find("&lt;/script&gt;&lt;script&gt;document.title='PWNED'"), std::string::npos);
  EXPECT_NE(dom.find("&lt;img src=x onerror="), std::string::npos);
}

// Every printer of a plugin's text, in process: the console (its details quote every field),
// GitHub's annotations and the Markdown. No line of theirs, read as a GitHub runner reads lines
// (split at \n and \r, blanks trimmed), starts with "::" (but our own annotations) or holds
// "##[" or a control character.
std::vector<std::string> Acting(const std::string& text, bool annotations) {
  std::vector<std::string> found;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t end = text.find_first_of("\r\n", at);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(at, end - at);
    if (end < text.size() && text[end] == '\r') found.push_back("CR: " + line);
    for (unsigned char c : line)
      if (c < 0x20 && c != '\t') found.push_back("control: " + line);
    if (line.find("##[") != std::string::npos) found.push_back("##[: " + line);
    std::size_t k = 0;
    while (k < line.size() && (line[k] == ' ' || line.compare(k, 2, "\xc2\xa0") == 0))
      k += line[k] == ' ' ? 1 : 2;
    bool own = annotations && k == 0 &&
               (line.rfind("::error ", 0) == 0 || line.rfind("::warning ", 0) == 0) &&
               line.find("title=fakehost ") != std::string::npos;
    if (line.compare(k, 2, "::") == 0 && !own) found.push_back(":: " + line);
    at = end + 1;
  }
  return found;
}

TEST(HostileText, NoPrinterLetsItActAsAWorkflowCommandOrATerminalControl) {
  auto report = ReportFixture(HostileText());
  std::ostringstream console;
  std::string error;
  auto reporter = report::MakeConsoleReporter(console, {});
  reporter->RunStarting(report);
  for (const auto& s : report.scenarios) reporter->ScenarioEnded(s);
  ASSERT_TRUE(reporter->RunEnded(report, &error));
  std::string annotations = report::GithubAnnotations(report);
  std::string md = report::MarkdownReport(report);
  // The hostile text is there, shown (else this would prove nothing).
  EXPECT_NE(console.str().find("##\\x5bstop-commands]tok \\x1b]52;c;cHduZWQ=\\x07"),
            std::string::npos)
      << console.str();
  EXPECT_NE(annotations.find("::error "), std::string::npos) << annotations;
  for (const auto& [name, text, own] : {std::tuple{"console", console.str(), false},
                                        {"annotations", annotations, true},
                                        {"markdown", md, false}}) {
    std::string found;
    for (const auto& f : Acting(text, own)) found += f + "\n";
    EXPECT_EQ(found, "") << name;
  }
}

}  // namespace
}  // namespace fakehost::testing
