// The report formats against golden files (durations, timestamps and paths masked) and the
// contracts CI tools rely on: failure is not error, not-run is skipped with its reason, times
// have three decimals, annotations are escaped the way GitHub unescapes them.
//
// Regenerate the goldens with FAKEHOST_UPDATE_GOLDEN=1 and review the diff.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>

#include "harness/json/rapidjson.hpp"
#include "harness/report/reporter.hpp"
#include "tests/report_fixture.hpp"

namespace fakehost::testing {
namespace {

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void ExpectGolden(const std::string& name, const std::string& actual) {
  std::string path = std::string(FAKEHOST_GOLDEN_DIR) + "/" + name;
  std::string masked = Masked(actual);
  if (const char* u = std::getenv("FAKEHOST_UPDATE_GOLDEN"); u && *u) {
    std::ofstream(path, std::ios::binary) << masked;
    GTEST_SKIP() << "rewrote " << path;
  }
  ASSERT_TRUE(std::filesystem::exists(path))
      << path << " is missing; run with FAKEHOST_UPDATE_GOLDEN=1";
  std::string expected = Read(path);
  if (masked == expected) return;
  // Point at the first differing line rather than dumping two large files.
  std::istringstream a(masked), e(expected);
  std::string la, le;
  int line = 1;
  while (std::getline(a, la) && std::getline(e, le) && la == le) ++line;
  ADD_FAILURE() << name << " differs from " << path << " at line " << line << "\n  expected: " << le
                << "\n  actual:   " << la << "\n(FAKEHOST_UPDATE_GOLDEN=1 regenerates)";
}

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The element `tag` of the testcase named `name` (its start tag up to the next testcase).
std::string TestCase(const std::string& xml, const std::string& name) {
  std::size_t at = xml.find("<testcase name=\"" + name + "\"");
  if (at == std::string::npos) return "";
  std::size_t end = xml.find("<testcase ", at + 1);
  return xml.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

TEST(JUnitReport, MatchesItsGoldenFile) {
  ExpectGolden("report.junit.xml", report::JUnitReport(ReportFixture()));
}
TEST(MarkdownReport, MatchesItsGoldenFile) {
  ExpectGolden("report.md", report::MarkdownReport(ReportFixture()));
}
TEST(HtmlReport, MatchesItsGoldenFile) {
  ExpectGolden("report.html", report::HtmlReport(ReportFixture()));
}
TEST(JsonReport, MatchesItsGoldenFile) {
  ExpectGolden("report.json", report::JsonReport(ReportFixture()) + "\n");
}
TEST(TranscriptsReport, MatchesItsGoldenFile) {
  ExpectGolden("handshake__accepts-offered-version.jsonl",
               report::TranscriptLines(ReportFixture().scenarios[1]));
}

// One serializer: the HTML report draws from the JSON report itself (with every transcript), and
// a transcript line is the report's entry with the frame in place of its text.
TEST(HtmlReport, EmbedsTheJsonReportItDraws) {
  auto report = ReportFixture();
  std::string html = report::HtmlReport(report);
  std::string embedded =
      report::ScriptSafeJson(report::JsonReport(report, report::Transcripts::kAll));
  EXPECT_NE(html.find(">" + embedded + "</script>"), std::string::npos);
  // A passing scenario's transcript is in the HTML's copy, not in report.json.
  ASSERT_EQ(report.scenarios[0].status, result::Status::kPass);
  ASSERT_FALSE(report.scenarios[0].transcript.empty());
  rapidjson::Document all, failures;
  all.Parse(report::JsonReport(report, report::Transcripts::kAll).c_str());
  failures.Parse(report::JsonReport(report).c_str());
  ASSERT_TRUE(all.IsObject() && failures.IsObject());
  ASSERT_TRUE(all["scenarios"][0].HasMember("transcript"));
  EXPECT_EQ(all["scenarios"][0]["transcript"].Size(), report.scenarios[0].transcript.size());
  EXPECT_FALSE(failures["scenarios"][0].HasMember("transcript"));
}

TEST(TranscriptsReport, WritesEachEntryWithTheJsonReportsKeys) {
  auto report = ReportFixture();
  rapidjson::Document json;
  json.Parse(report::JsonReport(report).c_str());
  ASSERT_FALSE(json.HasParseError());
  const rapidjson::Value& entries = json["scenarios"][1]["transcript"];
  std::istringstream lines(report::TranscriptLines(report.scenarios[1]));
  std::string line;
  rapidjson::SizeType n = 0;
  for (; std::getline(lines, line); ++n) {
    rapidjson::Document doc;
    doc.Parse(line.c_str());
    ASSERT_TRUE(doc.IsObject()) << line;
    ASSERT_LT(n, entries.Size());
    std::vector<std::string> keys, report_keys;
    for (const auto& m : doc.GetObject()) keys.emplace_back(m.name.GetString());
    for (const auto& m : entries[n].GetObject()) report_keys.emplace_back(m.name.GetString());
    EXPECT_EQ(keys, report_keys) << line;  // the same form, payload included
    EXPECT_TRUE(doc.HasMember("text") != doc.HasMember("base64")) << line;
    EXPECT_EQ(doc, entries[n]) << line;
  }
  EXPECT_EQ(n, entries.Size());
}

TEST(JUnitReport, WritesAFailureForAMissAndAnErrorForAHarnessError) {
  std::string xml = report::JUnitReport(ReportFixture());
  std::string fail = TestCase(xml, "handshake/accepts-offered-version");
  std::string error = TestCase(xml, "heartbeat/answers-within-5s");
  EXPECT_NE(fail.find("<failure message=\"step 2 expect"), std::string::npos) << fail;
  EXPECT_EQ(fail.find("<error"), std::string::npos) << fail;
  EXPECT_NE(error.find("<error message=\"harness: cannot write"), std::string::npos) << error;
  EXPECT_EQ(error.find("<failure"), std::string::npos) << error;
  EXPECT_NE(xml.find("<testsuites name=\"fakehost rim-v1\" tests=\"6\" failures=\"1\" errors=\"1\" "
                     "skipped=\"2\""),
            std::string::npos)
      << xml;
}

TEST(JUnitReport, HasOneSuitePerSectionWithNameAndClassnameOnEveryCase) {
  std::string xml = report::JUnitReport(ReportFixture());
  EXPECT_EQ(Count(xml, "<testsuite "), 4u);  // envelope, handshake, heartbeat, shutdown
  EXPECT_NE(
      xml.find("<testsuite name=\"rim-v1.handshake\" tests=\"2\" failures=\"1\" errors=\"0\""),
      std::string::npos);
  EXPECT_EQ(Count(xml, "<testcase name=\""), 6u);
  EXPECT_EQ(Count(xml, "<testcase name=\""), Count(xml, " classname=\"rim-v1."));
  EXPECT_NE(xml.find("<property name=\"plugin.id\" value=\"dev.fakehost.reference\"/>"),
            std::string::npos);
}

TEST(JUnitReport, ShowsNotRunAndSkippedAsSkippedWithTheReason) {
  std::string xml = report::JUnitReport(ReportFixture());
  EXPECT_NE(
      TestCase(xml, "shutdown/exits-promptly").find("<skipped message=\"not run: interrupted\"/>"),
      std::string::npos)
      << xml;
  EXPECT_NE(TestCase(xml, "shutdown/acknowledges-in-time")
                .find("<skipped message=\"requires /capabilities/shutdown-ack"),
            std::string::npos);
}

TEST(JUnitReport, PassesAShouldMissWithTheWarningInSystemOutUnlessStrict) {
  auto report = ReportFixture();
  std::string warn = TestCase(report::JUnitReport(report), "handshake/refuses-unoffered-version");
  EXPECT_EQ(warn.find("<failure"), std::string::npos) << warn;
  EXPECT_NE(warn.find("<system-out>"), std::string::npos);
  EXPECT_NE(warn.find("[should] step 3 expect"), std::string::npos) << warn;

  report.strict = true;
  report.scenarios[2].status = result::Status::kFail;  // what Grade gives under --strict
  std::string strict = TestCase(report::JUnitReport(report), "handshake/refuses-unoffered-version");
  EXPECT_NE(strict.find("<failure message=\"step 3 expect"), std::string::npos) << strict;
}

TEST(JUnitReport, WritesTimesInSecondsWithExactlyThreeDecimals) {
  auto report = ReportFixture();
  report.scenarios[0].duration_ms = 1234.5678;
  report.scenarios[1].duration_ms = 0.0004;
  std::string xml = report::JUnitReport(report);
  EXPECT_NE(xml.find("time=\"1.235\""), std::string::npos);
  EXPECT_NE(xml.find("time=\"0.000\""), std::string::npos);
  std::regex time(R"re(time="([^"]*)")re");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), time); it != std::sregex_iterator();
       ++it)
    EXPECT_TRUE(std::regex_match((*it)[1].str(), std::regex(R"([0-9]+\.[0-9]{3})"))) << (*it)[0];
}

TEST(JUnitReport, QuotesTheFailingFramesInSystemOut) {
  std::string fail =
      TestCase(report::JUnitReport(ReportFixture()), "handshake/accepts-offered-version");
  std::size_t out = fail.find("<system-out>");
  ASSERT_NE(out, std::string::npos);
  EXPECT_NE(fail.find("▶ #1", out), std::string::npos) << fail;
  EXPECT_NE(fail.find("schema: /result/pluginId", out), std::string::npos);
  EXPECT_NE(fail.find("<system-err>loading manifest\nwarning: id mismatch\n</system-err>"),
            std::string::npos);
}

TEST(MarkdownReport, PutsTheCountsFirstThenFailuresThenFoldedPasses) {
  std::string md = report::MarkdownReport(ReportFixture());
  std::size_t counts = md.find("| passed | failed |");
  std::size_t failures = md.find("### Failures and errors (2)");
  std::size_t skipped = md.find("### Not applicable and not run (2)");
  std::size_t passes = md.find("<details><summary>1 passed</summary>");
  ASSERT_NE(counts, std::string::npos) << md;
  EXPECT_LT(counts, failures);
  EXPECT_LT(failures, skipped);
  EXPECT_LT(skipped, passes);
  EXPECT_NE(md.find("not run: interrupted"), std::string::npos);
  EXPECT_NE(md.find("(must): `A plugin answers rim.handshake"), std::string::npos) << md;
}

// Text fakehost did not write is a code span: inside one, cmark-gfm and GitHub make no HTML,
// emphasis, link, autolink or mention; a newline cannot start a block; nothing is escaped twice.
TEST(MarkdownText, IsACodeSpanOfTheTextOnOneLine) {
  EXPECT_EQ(report::MarkdownText("<b>x</b> & *y* [z](u) `c`\n# h"),
            "``<b>x</b> & *y* [z](u) `c`\\x0a# h``");
  EXPECT_EQ(report::MarkdownText("https://example.com @scope/server"),
            "`https://example.com @scope/server`");
  EXPECT_EQ(report::MarkdownText("\x1b[31m"), "`\\x1b[31m`");
  EXPECT_EQ(report::MarkdownText(""), "");
}

TEST(CodeSpan, CannotBeClosedByBackticksInside) {
  EXPECT_EQ(report::CodeSpan("a``b"), "```a``b```");
  EXPECT_EQ(report::CodeSpan("`x"), "`` `x ``");
}

// Sets $GITHUB_WORKSPACE for the life of the object.
class Workspace {
 public:
  explicit Workspace(const char* dir) {
    if (const char* was = std::getenv("GITHUB_WORKSPACE")) was_ = was;
    ::setenv("GITHUB_WORKSPACE", dir, 1);
  }
  ~Workspace() {
    if (was_)
      ::setenv("GITHUB_WORKSPACE", was_->c_str(), 1);
    else
      ::unsetenv("GITHUB_WORKSPACE");
  }

 private:
  std::optional<std::string> was_;
};

std::vector<std::string> Lines(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> all;
  for (std::string l; std::getline(in, l);) all.push_back(l);
  return all;
}

TEST(GithubAnnotations, PointAtTheStepLineAndEscapeDataAndProperties) {
  auto report = ReportFixture();
  report.scenarios[1].id = "handshake/a:b,c%";
  report.scenarios[1].failures[0].message = "line1\nline2\r50% done";
  Workspace ws(kGoldenRoot);
  std::vector<std::string> all = Lines(report::GithubAnnotations(report));
  // The failure's two causes (the step, the stray bytes), the warning, the error; no skip or pass.
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].rfind("::error file=scenarios/rim-v1/handshake/accepts-offered-version.yaml,"
                         "line=9,title=fakehost FAIL handshake/a%3Ab%2Cc%25::",
                         0),
            0u)
      << all[0];
  EXPECT_NE(all[0].find("line1%0Aline2%0D50%25 done"), std::string::npos) << all[0];
  EXPECT_NE(all[0].find("%0Aexpected: \"dev.fakehost.reference\"%0Aactual: "), std::string::npos)
      << all[0];
  // A check with no step of its own: on the scenario.
  EXPECT_EQ(all[1].rfind("::error file=scenarios/rim-v1/handshake/accepts-offered-version.yaml,"
                         "line=1,",
                         0),
            0u)
      << all[1];
  EXPECT_NE(all[1].find("stray-stdout: bytes on stdout that are not a frame"), std::string::npos);
  EXPECT_NE(all[1].find("%0Aframe #2 "), std::string::npos) << all[1];
  EXPECT_EQ(all[2].rfind("::warning file=", 0), 0u) << all[2];
  EXPECT_NE(all[2].find(",line=17,"), std::string::npos);
  EXPECT_EQ(all[3].rfind("::error file=", 0), 0u);
}

TEST(GithubAnnotations, MakePathsRelativeToTheWorkspace) {
  auto report = ReportFixture();
  Workspace ws(kGoldenRoot);
  std::string out = report::GithubAnnotations(report);
  EXPECT_NE(out.find("file=scenarios/rim-v1/handshake/accepts-offered-version.yaml,line=9"),
            std::string::npos)
      << out;
}

TEST(GithubAnnotations, NameNoFileOutsideTheWorkspace) {
  // A suite installed elsewhere: a file= there would point at nothing in the repository.
  auto report = ReportFixture();
  Workspace ws("/somewhere/else");
  std::vector<std::string> all = Lines(report::GithubAnnotations(report));
  ASSERT_EQ(all.size(), 4u);
  for (const auto& line : all) {
    EXPECT_EQ(line.find("file="), std::string::npos) << line;
    EXPECT_EQ(line.find(",line="), std::string::npos) << line;
    EXPECT_TRUE(line.rfind("::error title=", 0) == 0 || line.rfind("::warning title=", 0) == 0)
        << line;
  }
}

// The failing scenario as a stray print leaves it in a length-prefixed protocol: the framing
// check on the stray bytes, and the step that was waiting when the connection ended.
result::RunReport StrayPrintReport() {
  auto report = ReportFixture();
  auto& r = report.scenarios[1];
  r.transcript[2].kind = result::EntryKind::kOversized;
  result::Failure step;
  step.check = "step";
  step.step = 2;
  step.step_kind = "expect";
  step.loc = {r.loc.file, 20, 5};
  step.reason = result::Reason::kFramingLost;
  step.message =
      "while waiting for a reply to handshake (rim.handshake, id 1, frame #0), the "
      "framing was lost, so the connection is over";
  step.expected = "a reply to handshake (rim.handshake, id 1, frame #0)";
  step.actual = "nothing matching arrived";
  result::Failure framing;
  framing.check = "framing";
  framing.frame = 2;
  framing.reason = result::Reason::kFramingLost;
  framing.message =
      "frame #2 announces 1819043176 bytes, over the limit of 4194304 (§3); the "
      "connection is over; something printed to stdout";
  r.failures = {step, framing};
  return report;
}

TEST(GithubAnnotations, AnnotateACauseOnceWithItsExplanation) {
  Workspace ws(kGoldenRoot);
  std::vector<std::string> all = Lines(report::GithubAnnotations(StrayPrintReport()));
  ASSERT_EQ(all.size(), 3u);  // the failure (one cause), the warning, the error
  const std::string& a = all[0];
  EXPECT_EQ(
      a.rfind("::error file=scenarios/rim-v1/handshake/accepts-offered-version.yaml,line=20,", 0),
      0u)
      << a;
  EXPECT_NE(a.find("%0Aframing: frame #2 announces 1819043176 bytes"), std::string::npos) << a;
  EXPECT_NE(a.find("%0Aframe #2 "), std::string::npos) << a;
  EXPECT_NE(a.find("oversized  (20 bytes)"), std::string::npos) << a;
  EXPECT_NE(a.find("%0Acaused: step 2 expect (line 20)"), std::string::npos) << a;
  EXPECT_EQ(a.find("the framing was lost"), std::string::npos) << a;
}

TEST(CauseGrouping, ShowsTheCauseOnceWithTheStepsItBrokeInEveryTextFormat) {
  auto report = StrayPrintReport();
  std::string md = report::MarkdownReport(report);
  EXPECT_NE(md.find("- **must** `framing: frame #2 announces"), std::string::npos) << md;
  EXPECT_NE(md.find("  - caused: `step 2 expect (line 20)`\n"), std::string::npos) << md;
  EXPECT_EQ(md.find("the framing was lost"), std::string::npos) << md;

  std::string xml = report::JUnitReport(report);
  std::string fail = TestCase(xml, "handshake/accepts-offered-version");
  EXPECT_NE(fail.find("<failure message=\"framing: frame #2 announces"), std::string::npos) << fail;
  EXPECT_NE(fail.find("type=\"framing (must)\""), std::string::npos) << fail;
  EXPECT_NE(fail.find("caused:   step 2 expect (line 20)"), std::string::npos) << fail;
  EXPECT_EQ(fail.find("the framing was lost"), std::string::npos) << fail;

  std::ostringstream console;
  std::string error;
  auto reporter = report::MakeConsoleReporter(console, {});
  ASSERT_TRUE(reporter->RunEnded(report, &error));
  EXPECT_NE(console.str().find("  ✗ [must] framing: frame #2 announces"), std::string::npos)
      << console.str();
  EXPECT_NE(console.str().find("      caused: step 2 expect (line 20)\n"), std::string::npos);
  EXPECT_EQ(console.str().find("the framing was lost"), std::string::npos);
  EXPECT_EQ(Count(console.str(), "  ✗ "), 3u);  // the cause, the warning, the error
}

// The console quotes the same excerpt as JUnit and Markdown: the failing frame marked, with the
// schema's violations on it (it once printed the frames alone).
TEST(ConsoleReport, QuotesTheFailingFrameWithItsViolations) {
  std::ostringstream console;
  std::string error;
  auto reporter = report::MakeConsoleReporter(console, {});
  ASSERT_TRUE(reporter->RunEnded(ReportFixture(), &error));
  std::string out = console.str();
  std::size_t frame = out.find("  ▶ #1 ");
  ASSERT_NE(frame, std::string::npos) << out;
  EXPECT_NE(out.find("schema: /result/pluginId: must equal the manifest's id", frame),
            std::string::npos)
      << out;
}

// A line break in a payload or a note is written as \n: a plugin cannot print a line of the
// console's own (a pretty-printed frame stays on its line, too).
TEST(ConsoleReport, KeepsEachFrameOnItsLineWhateverThePluginSent) {
  auto report = ReportFixture();
  auto& frame = report.scenarios[1].transcript[1];
  frame.text = "{\n  \"id\": 1\n}\r\n  PASS  handshake/forged";
  frame.notes.push_back("answers #0\n  PASS  handshake/forged-note");
  std::ostringstream console;
  std::string error;
  auto reporter = report::MakeConsoleReporter(console, {});
  ASSERT_TRUE(reporter->RunEnded(report, &error));
  std::string out = console.str();
  EXPECT_EQ(out.find("\n  PASS  handshake/forged"), std::string::npos) << out;
  EXPECT_NE(out.find(R"({\n  "id": 1\n}\r\n  PASS  handshake/forged)"), std::string::npos) << out;
}

TEST(JsonReport, KeepsEveryFailureAndNamesTheCauseOfAConsequence) {
  std::string json = report::JsonReport(StrayPrintReport());
  EXPECT_NE(json.find("the framing was lost"), std::string::npos);
  EXPECT_EQ(Count(json, "\"caused_by\":"), 1u) << json;
  std::size_t step = json.find("the framing was lost");
  std::size_t caused = json.find("\"caused_by\":1");
  std::size_t framing = json.find("\"check\":\"framing\"");
  EXPECT_LT(step, caused);
  EXPECT_LT(caused, framing);
  EXPECT_EQ(Count(report::JsonReport(ReportFixture()), "caused_by"), 0u);
}

// The formats are one table: each is made by its name (and its alias), an unknown one is named
// with every known one, and the reports page documents each.
TEST(FileFormats, EachIsMadeByItsNameAndAnUnknownOneNamesThemAll) {
  ASSERT_GE(report::FileFormats().size(), 4u);
  std::string error;
  for (const report::FileFormat& f : report::FileFormats()) {
    EXPECT_NE(report::MakeFileReporter(std::string(f.name), "/tmp/x", &error), nullptr) << f.name;
    if (!f.alias.empty()) {
      EXPECT_NE(report::MakeFileReporter(std::string(f.alias), "/tmp/x", &error), nullptr)
          << f.alias;
    }
    EXPECT_FALSE(f.writes.empty()) << f.name;
  }
  EXPECT_EQ(report::MakeFileReporter("xml", "/tmp/x", &error), nullptr);
  EXPECT_NE(error.find("'xml'"), std::string::npos) << error;
  EXPECT_NE(error.find(report::FileFormatNames()), std::string::npos) << error;
}

TEST(FileFormats, TheReportsPageDescribesEachInItsTable) {
  std::string page = Read(std::string(FAKEHOST_GOLDEN_DIR) + "/../../docs/reports.md");
  ASSERT_FALSE(page.empty());
  for (const report::FileFormat& f : report::FileFormats())
    EXPECT_NE(page.find("| `" + std::string(f.name) + "=PATH` |"), std::string::npos)
        << "docs/reports.md has no row for " << f.name;
}

TEST(TranscriptsReport, WritesOneJsonLinesFilePerScenarioThatRan) {
  auto dir = std::filesystem::temp_directory_path() / ("report_test." + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::string error;
  auto reporter = report::MakeTranscriptsReporter(dir.string());
  ASSERT_TRUE(reporter->RunEnded(ReportFixture(), &error)) << error;
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"envelope__null-id-gets-no-answer.jsonl",
                                             "handshake__accepts-offered-version.jsonl",
                                             "handshake__refuses-unoffered-version.jsonl",
                                             "heartbeat__answers-within-5s.jsonl"}));
  std::string raw = Read((dir / "heartbeat__answers-within-5s.jsonl").string());
  EXPECT_NE(raw.find("\"kind\":\"raw\""), std::string::npos);
  // The bytes as written (a length prefix), JSON-escaped: valid UTF-8 needs no base64.
  EXPECT_NE(raw.find(R"("text":"\u0000\u0000\u0010\u0000")"), std::string::npos) << raw;
  std::filesystem::remove_all(dir);
}

TEST(TranscriptFileName, ReplacesSlashesAndKeepsRepeatsApart) {
  EXPECT_EQ(report::TranscriptFileName("a/b/c", 1), "a__b__c.jsonl");
  EXPECT_EQ(report::TranscriptFileName("a/b", 2), "a__b.2.jsonl");
  EXPECT_EQ(report::TranscriptFileName("../x y", 1), "_..__x_y.jsonl");
}

}  // namespace
}  // namespace fakehost::testing
