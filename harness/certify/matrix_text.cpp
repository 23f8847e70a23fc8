// The matrix as Markdown, JUnit and console text, and the dispatch from --report FORMAT=PATH.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "harness/certify/writers.hpp"
#include "harness/report/excerpt.hpp"
#include "harness/report/reporter.hpp"
#include "harness/report/text.hpp"
#include "harness/report/xml_writer.hpp"

namespace fakehost::certify {
namespace {

using result::Status;

std::string Md(std::string_view s) { return report::MarkdownText(s); }
// In a table cell: GFM splits a row at every '|' not escaped, even inside a code span, and reads
// "\|" there as the '|' alone.
std::string MdCell(std::string_view s) {
  std::string md;
  for (char c : report::MarkdownText(s)) md += c == '|' ? std::string("\\|") : std::string(1, c);
  return md;
}
std::string Tty(std::string_view s) { return report::TerminalSafe(s); }

const char* Mark(Status s) { return report::StatusIcon(s); }

std::string Seconds(double ms) {
  if (!std::isfinite(ms) || ms < 0) ms = 0;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.3f", ms / 1000);  // Surefire takes at most 3 decimals
  return buf;
}

std::string ChangeLine(const Change& c) {
  return c.plugin + (c.scenario.empty() ? " (verdict)" : " × " + c.scenario) + ": " +
         (c.before.empty() ? "absent" : c.before) + " → " + c.after;
}

std::string Totals_(const Matrix& m) {
  Totals t = Count(m);
  std::string out = std::to_string(t.plugins) + " plugins: " + std::to_string(t.passing) +
                    " passing, " + std::to_string(t.failing) + " not passing; cells:";
  for (const auto& [status, n] : t.cells)
    out += " " + std::to_string(n) + " " + result::StatusName(status);
  return out;
}

// Scenario columns are numbered, the ids listed below: a table of 40 ids would not fit.
std::string MdTable(const Matrix& m) {
  std::string md = "| plugin | verdict |";
  for (std::size_t c = 0; c < m.columns.size(); ++c) md += " S" + std::to_string(c + 1) + " |";
  md += "\n|---|---|";
  for (std::size_t c = 0; c < m.columns.size(); ++c) md += ":-:|";
  md += "\n";
  for (const Row& r : m.rows) {
    md += "| " + MdCell(r.key) + " | " + VerdictName(r.verdict) + " |";
    for (const Column& col : m.columns) {
      auto it = r.cells.find(col.id);
      md += std::string(" ") + (it == r.cells.end() ? "" : Mark(it->second.status)) + " |";
    }
    md += "\n";
  }
  md += "\n";
  for (std::size_t c = 0; c < m.columns.size(); ++c)
    md += "S" + std::to_string(c + 1) + " " + report::CodeSpan(m.columns[c].id) +
          (c + 1 < m.columns.size() ? " · " : "\n\n");
  return md;
}

// The plugin × revision view: which revision each plugin was judged under, and how it fared.
std::string MdRevisions(const Matrix& m) {
  if (std::none_of(m.rows.begin(), m.rows.end(),
                   [](const Row& r) { return !RevisionsJudged(r).empty() || !r.probe.empty(); }))
    return "";
  std::string md = "### Revisions\n\n| plugin | probe | judged under |\n|---|---|---|\n";
  for (const Row& r : m.rows)
    md += "| " + MdCell(r.key) + " | " + MdCell(report::Clip(r.probe, 200)) + " | " +
          MdCell(report::Clip(RevisionsJudged(r), 300)) + " |\n";
  return md + "\n";
}

std::string MdNames(const char* title, const std::vector<std::string>& list) {
  if (list.empty()) return "";
  std::string md = std::string("\n") + title + ": ";
  for (std::size_t i = 0; i < list.size(); ++i) md += (i ? ", " : "") + Md(list[i]);
  return md + "\n";
}

std::string MdSince(const Diff& diff) {
  if (!diff.computed) return "";
  std::string md = "### Since " + Md(diff.since) + "\n\n";
  md += "**Newly failing: " + std::to_string(diff.newly_failing.size()) + "**\n\n";
  for (const Change& c : diff.newly_failing) md += "- " + Md(ChangeLine(c)) + "\n";
  md += "\n**Newly passing: " + std::to_string(diff.newly_passing.size()) + "**\n\n";
  for (const Change& c : diff.newly_passing) md += "- " + Md(ChangeLine(c)) + "\n";
  md += MdNames("Plugins that appeared", diff.plugins_appeared);
  md += MdNames("Plugins that vanished", diff.plugins_vanished);
  md += MdNames("Scenarios that appeared", diff.scenarios_appeared);
  md += MdNames("Scenarios that vanished", diff.scenarios_vanished);
  return md + "\n";
}

std::string MdCandidateRejections(const Matrix& m) {
  if (m.candidate.empty()) return "";
  std::string md = "### Frames the candidate schema " + Md(m.candidate) + " rejects\n\n";
  for (const Row& r : m.rows)
    for (const Rejection& x : r.rejections)
      for (const auto& [pointer, message] : x.violations)
        md += "- " + Md(r.key) + " × " + report::CodeSpan(x.scenario) + " frame #" +
              std::to_string(x.frame) + " (" + (x.from_plugin ? "plugin → host" : "host → plugin") +
              ", " + Md(x.def) + ") " + report::CodeSpan(pointer) + ": " + Md(message) + "\n";
  return md + "\n";
}

std::string MdNotPassing(const Matrix& m) {
  std::string md = "### Not passing\n\n";
  for (const Row& r : m.rows) {
    if (!r.detail.empty())
      md += "- **" + Md(r.key) + "** " + VerdictName(r.verdict) + ": " + Md(r.detail) + "\n";
    for (const auto& [id, c] : r.cells)
      if (IsFailing(c.status) || c.status == Status::kWarn)
        md += "- **" + Md(r.key) + "** × " + report::CodeSpan(id) + " " +
              result::StatusName(c.status) + ": " + Md(c.cause) +
              (c.location.empty() ? "" : " (" + Md(c.location) + ")") + "\n";
  }
  return md;
}

bool Skipped(Status s) {
  return s == Status::kSkip || s == Status::kNotRun || s == Status::kUntested;
}

void JUnitProperties(report::XmlWriter& w, const Matrix& m, const Row& r) {
  auto props = w.Open("properties");
  for (auto [k, v] : {std::pair<const char*, std::string>{"protocol", m.protocol},
                      {"plugin.id", r.id},
                      {"plugin.version", r.version},
                      {"plugin.dir", r.dir},
                      {"verdict", VerdictName(r.verdict)}}) {
    auto p = w.Open("property");
    w.Attr("name", k);
    w.Attr("value", v);
  }
}

void JUnitCase(report::XmlWriter& w, const Row& r, const std::string& id, const Cell& c) {
  auto tc = w.Open("testcase");
  w.Attr("name", id);
  w.Attr("classname", r.key);
  w.Attr("time", Seconds(c.duration_ms));
  if (Skipped(c.status)) {
    auto s = w.Open("skipped");
    w.Attr("message", c.cause);
  } else if (IsFailing(c.status)) {
    auto f = w.Open(c.status == Status::kError ? "error" : "failure");
    w.Attr("message", c.cause);
    w.Text(c.cause + (c.location.empty() ? "" : "\nat " + c.location) + "\nplugin " + r.dir);
  }
}

// A <testsuite> per plugin: its counts, its properties, then a <testcase> per cell.
void JUnitSuite(report::XmlWriter& w, const Matrix& m, const Row& r) {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  double ms = 0;
  for (const auto& [id, c] : r.cells) {
    ++tests;
    ms += c.duration_ms;
    failures += c.status == Status::kFail;
    errors += c.status == Status::kError;
    skipped += Skipped(c.status);
  }
  bool unrunnable = r.verdict == Verdict::kUnrunnable;
  auto suite = w.Open("testsuite");
  w.Attr("name", r.key);
  w.Attr("tests", std::to_string(tests + unrunnable));
  w.Attr("failures", std::to_string(failures));
  w.Attr("errors", std::to_string(errors + unrunnable));
  w.Attr("skipped", std::to_string(skipped));
  w.Attr("time", Seconds(ms));
  if (!m.started_at.empty()) w.Attr("timestamp", m.started_at);
  JUnitProperties(w, m, r);
  if (unrunnable) {  // no cell says it: one case so that CI counts the plugin as broken
    auto tc = w.Open("testcase");
    w.Attr("name", "plugin can be run");
    w.Attr("classname", r.key);
    auto e = w.Open("error");
    w.Attr("message", r.detail);
  }
  for (const auto& [id, c] : r.cells) JUnitCase(w, r, id, c);
}

}  // namespace

// The summary's sections in the order a reader sees them.
std::string MarkdownMatrix(const Matrix& m) {
  std::string md = "## fakehost certify · " + Md(m.protocol) + "\n\n" + Md(Totals_(m)) + "\n\n";
  md += MdTable(m);
  md += MdRevisions(m);
  md += MdSince(m.diff);
  md += MdCandidateRejections(m);
  md += MdNotPassing(m);
  return md;
}

std::string JUnitMatrix(const Matrix& m) {
  report::XmlWriter w;
  {
    auto root = w.Open("testsuites");
    w.Attr("name", "fakehost certify " + m.protocol);
    w.Attr("time", Seconds(m.duration_ms));
    for (const Row& r : m.rows) JUnitSuite(w, m, r);
  }
  return w.str();
}

std::string ConsoleRow(const Row& r) {
  int failing = 0, passing = 0;
  const std::pair<const std::string, Cell>* first = nullptr;
  for (const auto& cell : r.cells) {
    if (IsFailing(cell.second.status)) {
      ++failing;
      if (!first) first = &cell;
    }
    passing += cell.second.status == Status::kPass || cell.second.status == Status::kWarn;
  }
  std::string line = std::string(IsFailing(r.verdict) ? "✗ " : "✓ ") + Tty(r.key) +
                     (r.key == r.dir ? "" : " (" + Tty(r.dir) + ")") + "  " +
                     VerdictName(r.verdict) + "  (" + std::to_string(passing) + " passed, " +
                     std::to_string(failing) + " failed)";
  if (!r.detail.empty())
    line += ": " + Tty(r.detail);
  else if (first)
    line += ": " + Tty(first->first) + ": " + Tty(first->second.cause);
  if (r.frames_rejected > 0)
    line += "; the candidate schema rejects " + std::to_string(r.frames_rejected) + " frames";
  line = report::Clip(line, 400) + "\n";
  if (std::string judged = RevisionsJudged(r); !judged.empty())
    line += "    judged under " + report::Clip(Tty(judged), 300) + "\n";
  return line;
}

std::string ConsoleSummary(const Matrix& m) {
  std::string out = "\n" + Totals_(m) + " (" + report::Duration(m.duration_ms) + ")\n";
  if (m.diff.computed) {
    out += "since " + Tty(m.diff.since) + ": " + std::to_string(m.diff.newly_failing.size()) +
           " newly failing, " + std::to_string(m.diff.newly_passing.size()) + " newly passing, " +
           std::to_string(m.diff.plugins_appeared.size()) + " plugins appeared, " +
           std::to_string(m.diff.plugins_vanished.size()) + " vanished, " +
           std::to_string(m.diff.scenarios_appeared.size()) + " scenarios appeared, " +
           std::to_string(m.diff.scenarios_vanished.size()) + " vanished\n";
    for (const Change& c : m.diff.newly_failing)
      out += "  newly failing: " + Tty(ChangeLine(c)) + "\n";
    for (const Change& c : m.diff.newly_passing)
      out += "  newly passing: " + Tty(ChangeLine(c)) + "\n";
    for (const auto& p : m.diff.plugins_appeared) out += "  plugin appeared: " + Tty(p) + "\n";
    for (const auto& p : m.diff.plugins_vanished) out += "  plugin vanished: " + Tty(p) + "\n";
    for (const auto& s : m.diff.scenarios_appeared) out += "  scenario appeared: " + Tty(s) + "\n";
    for (const auto& s : m.diff.scenarios_vanished) out += "  scenario vanished: " + Tty(s) + "\n";
  }
  if (!m.candidate.empty()) {
    Totals t = Count(m);
    out += "candidate schema " + Tty(m.candidate) + ": rejects real frames of " +
           std::to_string(t.rejected_by_candidate) + " plugins\n";
    for (const Row& r : m.rows)
      for (const Rejection& x : r.rejections)
        for (const auto& [pointer, message] : x.violations)
          out += "  " + Tty(r.key) + "  " + Tty(x.scenario) + " frame #" + std::to_string(x.frame) +
                 " (" + (x.from_plugin ? "plugin → host" : "host → plugin") + ", " + Tty(x.def) +
                 ") " + Tty(pointer.empty() ? "(frame)" : pointer) + ": " + Tty(message) + "\n";
  }
  return out;
}

const std::vector<MatrixFormat>& MatrixFormats() {
  static const std::vector<MatrixFormat> formats = {
      {"json", "certify.json's matrix", JsonMatrix},
      {"junit", "JUnit XML, a suite per plugin", JUnitMatrix},
      {"markdown", "a summary for a CI job", MarkdownMatrix},
      {"html", "one self-contained page", HtmlMatrix},
  };
  return formats;
}

std::string MatrixFormatNames() {
  std::string names;
  for (const MatrixFormat& f : MatrixFormats())
    names += (names.empty() ? "" : ", ") + std::string(f.name);
  return names;
}

bool KnownFormat(std::string_view format) {
  return std::any_of(MatrixFormats().begin(), MatrixFormats().end(),
                     [&](const MatrixFormat& f) { return f.name == format; });
}

bool WriteMatrix(std::string_view format, const std::string& path, const Matrix& m,
                 std::string* error) {
  for (const MatrixFormat& f : MatrixFormats())
    if (f.name == format) return report::WriteFileAtomically(path, f.write(m), error);
  *error = "unknown format '" + std::string(format) + "' (known: " + MatrixFormatNames() + ")";
  return false;
}

}  // namespace fakehost::certify
