#include <algorithm>
#include <cmath>
#include <cstdio>

#include "harness/report/causes.hpp"
#include "harness/report/excerpt.hpp"
#include "harness/report/reporter.hpp"
#include "harness/report/text.hpp"
#include "harness/report/xml_writer.hpp"

namespace fakehost::report {
namespace {

using result::Failure;
using result::ScenarioResult;
using result::Status;

// Surefire's schema, and the Jenkins and GitHub parsers built on it, take at most 3 decimals.
std::string Seconds(double ms) {
  if (!std::isfinite(ms) || ms < 0) ms = 0;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.3f", ms / 1000);
  return buf;
}

struct Counts {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  double ms = 0;
  void Add(const ScenarioResult& r) {
    ++tests;
    ms += r.duration_ms;
    if (r.status == Status::kFail || r.status == Status::kStale) ++failures;
    if (r.status == Status::kError) ++errors;
    if (r.status == Status::kSkip || r.status == Status::kNotRun || r.status == Status::kUntested)
      ++skipped;
  }
  void Write(XmlWriter& w) const {
    w.Attr("tests", std::to_string(tests));
    w.Attr("failures", std::to_string(failures));
    w.Attr("errors", std::to_string(errors));
    w.Attr("skipped", std::to_string(skipped));
  }
};

std::string Misses(const ScenarioResult& r) {
  std::string out;
  for (const CauseGroup& g : GroupByCause(r)) {
    const Failure& f = r.failures[g.root];
    out += "✗ [" + std::string(FailureMark(f)) + "] " + FailureLine(f) + "\n";
    if (!f.expected.empty()) out += "    expected: " + f.expected + "\n";
    if (!f.actual.empty()) out += "    actual:   " + f.actual + "\n";
    if (!g.consequences.empty()) out += "    caused:   " + ConsequenceList(r, g) + "\n";
  }
  return out;
}

std::string SystemOut(const ScenarioResult& r) {
  std::string out =
      r.spec + ": " + RequirementText(r.sentence, r.requirement) + "\n" + r.loc.ToString() + "\n";
  if (r.status == Status::kWarn) out += "warning (a should-level miss; fails under --strict):\n";
  if (r.status == Status::kXfail && r.expected_failure)
    out += "expected failure (" + r.expected_failure->loc.ToString() +
           "): " + r.expected_failure->reason + "\n";
  out += Misses(r);
  std::string frames = FramesExcerpt(r);
  if (!frames.empty()) out += "frames:\n" + frames;
  std::string exit = ExitLine(r.exit);
  if (!exit.empty()) out += "plugin: " + exit + "\n";
  return out;
}

void TestCase(XmlWriter& w, const result::RunReport& report, const ScenarioResult& r,
              int occurrence) {
  auto tc = w.Open("testcase");
  w.Attr("name", occurrence > 1 ? r.id + " #" + std::to_string(occurrence) : r.id);
  w.Attr("classname", report.protocol + "." + SectionOf(r.id));
  w.Attr("time", Seconds(r.duration_ms));
  if (r.status == Status::kSkip || r.status == Status::kNotRun || r.status == Status::kUntested) {
    auto s = w.Open("skipped");
    w.Attr("message", SkipReason(r));
    return;
  }
  if (r.status == Status::kFail || r.status == Status::kError || r.status == Status::kStale) {
    const Failure* head = Headline(r, report.strict);
    auto f = w.Open(r.status == Status::kError ? "error" : "failure");
    w.Attr("message", head ? Clip(FailureLine(*head), 1024) : "failed");
    w.Attr("type", head ? head->check + " (" + FailureMark(*head) + ")" : "fail");
    w.Text(Misses(r));
  }
  if (r.status != Status::kPass) {
    auto out = w.Open("system-out");
    w.Text(SystemOut(r));
  }
  if (r.status != Status::kPass && !r.stderr_tail.empty()) {
    auto err = w.Open("system-err");
    w.Text(StderrLastLines(r.stderr_tail, 40));
  }
}

class JUnitReporter : public Reporter {
 public:
  explicit JUnitReporter(std::string path) : path_(std::move(path)) {}
  bool RunEnded(const result::RunReport& report, std::string* error) override {
    return WriteFileAtomically(path_, JUnitReport(report), error);
  }

 private:
  std::string path_;
};

}  // namespace

std::string JUnitReport(const result::RunReport& report) {
  std::vector<int> occurrence = Occurrences(report);
  // Sections in order of first appearance (ids are sorted, so each is contiguous anyway).
  std::vector<std::pair<std::string, std::vector<std::size_t>>> sections;
  Counts all;
  for (std::size_t i = 0; i < report.scenarios.size(); ++i) {
    std::string section = SectionOf(report.scenarios[i].id);
    auto it = std::find_if(sections.begin(), sections.end(),
                           [&](const auto& s) { return s.first == section; });
    if (it == sections.end()) it = sections.insert(sections.end(), {section, {}});
    it->second.push_back(i);
    all.Add(report.scenarios[i]);
  }
  XmlWriter w;
  {
    auto root = w.Open("testsuites");
    w.Attr("name", "fakehost " + report.protocol);
    all.Write(w);
    w.Attr("time", Seconds(report.summary.duration_ms));
    for (const auto& [section, indices] : sections) {
      Counts c;
      for (std::size_t i : indices) c.Add(report.scenarios[i]);
      auto suite = w.Open("testsuite");
      w.Attr("name", report.protocol + "." + section);
      c.Write(w);
      w.Attr("time", Seconds(c.ms));
      if (!report.started_at.empty()) w.Attr("timestamp", report.started_at);
      {
        auto props = w.Open("properties");
        auto prop = [&](const char* name, const std::string& value) {
          auto p = w.Open("property");
          w.Attr("name", name);
          w.Attr("value", value);
        };
        prop("protocol", report.protocol);
        prop("plugin.id", report.plugin.id);
        prop("plugin.version", report.plugin.version);
        prop("fakehost.version", report.tool_version);
        prop("strict", report.strict ? "true" : "false");
      }
      for (std::size_t i : indices) TestCase(w, report, report.scenarios[i], occurrence[i]);
    }
  }
  return w.str();
}

std::unique_ptr<Reporter> MakeJUnitReporter(std::string path) {
  return std::make_unique<JUnitReporter>(std::move(path));
}

}  // namespace fakehost::report
