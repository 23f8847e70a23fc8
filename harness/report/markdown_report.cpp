// The Markdown summary ($GITHUB_STEP_SUMMARY) and GitHub's workflow annotations.
#include <unistd.h>
#include <algorithm>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "harness/report/causes.hpp"
#include "harness/report/excerpt.hpp"
#include "harness/report/reporter.hpp"
#include "harness/report/text.hpp"

namespace fakehost::report {
namespace {

using scenario::Failure;
using scenario::ScenarioResult;
using scenario::Status;

// Kept free, once something had to be cut, for what follows the last item: the headings, the
// "not shown" notes, the closing tags. Each is ours and a few dozen bytes; there are under 20.
constexpr std::size_t kNoteReserve = 4 * 1024;

// The document under construction. A scenario's entry ("item") goes in whole or not at all, and
// only while it keeps the document under `item_limit`; what did not fit is counted, so each
// section can say how much it left out.
struct Doc {
  std::string md;
  std::size_t item_limit = 0;
  std::size_t cut = 0;  ///< items left out so far, all sections together
  bool Item(const std::string& item) {
    if (md.size() + item.size() > item_limit) {
      ++cut;
      return false;
    }
    md += item;
    return true;
  }
  void Note(std::size_t not_shown) {
    if (not_shown > 0)
      md += "*" + std::to_string(not_shown) +
            " more not shown here (size limit): see the JSON or HTML report.*\n\n";
  }
};

std::size_t LongestRun(std::string_view s, char c) {
  std::size_t best = 0, run = 0;
  for (char x : s) {
    run = x == c ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

const char* Word(Status s) {
  switch (s) {
    case Status::kPass:
      return "PASS";
    case Status::kFail:
      return "FAIL";
    case Status::kWarn:
      return "WARN";
    case Status::kSkip:
      return "SKIP";
    case Status::kError:
      return "ERROR";
    case Status::kUntested:
      return "UNTESTED";
    case Status::kXfail:
      return "XFAIL";
    case Status::kStale:
      return "STALE";
    case Status::kNotRun:
      break;
  }
  return "NOT RUN";
}

// Plugin text goes through MarkdownText (entities, backslashes) or into a fenced block; code spans
// are only for our own ids and paths, since '<' inside one could not be escaped.

// A fenced block whose fence is longer than any backtick run inside, so no content can close it.
std::string CodeBlock(std::string_view text) {
  std::string body = TerminalSafe(text, true);
  std::string fence(std::max<std::size_t>(3, LongestRun(body, '`') + 1), '`');
  if (!body.empty() && body.back() != '\n') body += '\n';
  return fence + "text\n" + body + fence + "\n";
}

std::string ScenarioEntry(const ScenarioResult& r) {
  std::string md;
  md += "#### " + std::string(StatusIcon(r.status)) + " " + Word(r.status) + " " + CodeSpan(r.id) +
        " — " + MarkdownText(Clip(r.title, 300)) + "\n\n";
  md += "**" + MarkdownText(Clip(r.spec, 200)) + "** (" + scenario::LevelName(r.level) +
        "): " + MarkdownText(Clip(RequirementText(r.sentence, r.requirement), 900)) + "<br>\n" +
        CodeSpan(r.loc.ToString()) + "\n\n";
  if (r.expected_failure)
    md += std::string(r.expected_failure->expired ? "Expected failure (expired) "
                                                  : "Expected failure ") +
          CodeSpan(r.expected_failure->loc.ToString()) + ": " +
          MarkdownText(Clip(r.expected_failure->reason, 600)) + "\n\n";
  for (const CauseGroup& g : GroupByCause(r)) {
    const Failure& f = r.failures[g.root];
    md += "- **" + std::string(FailureMark(f)) + "** " + MarkdownText(Clip(FailureLine(f), 600)) +
          "\n";
    if (!f.expected.empty()) md += "  - expected: " + MarkdownText(Clip(f.expected, 300)) + "\n";
    if (!f.actual.empty()) md += "  - actual: " + MarkdownText(Clip(f.actual, 300)) + "\n";
    if (!g.consequences.empty())
      md += "  - caused: " + MarkdownText(Clip(ConsequenceList(r, g), 600)) + "\n";
  }
  std::string excerpt = FramesExcerpt(r, 6, 120);
  std::string exit = ExitLine(r.exit);
  if (!exit.empty()) excerpt += "plugin: " + exit + "\n";
  std::string err = StderrLastLines(r.stderr_tail, 6);
  if (!err.empty()) {
    excerpt += "stderr (last lines):\n";
    std::size_t at = 0;
    while (at < err.size()) {
      std::size_t nl = err.find('\n', at);
      excerpt += "| " + Clip(std::string_view(err).substr(at, nl - at), 200) + "\n";
      at = nl + 1;
    }
  }
  if (!excerpt.empty())
    md += "\n<details><summary>frames</summary>\n\n" + CodeBlock(excerpt) + "\n</details>\n";
  md += "\n";
  return md;
}

void Section(Doc& doc, const run::RunReport& report, const char* heading,
             std::initializer_list<Status> statuses) {
  std::size_t n = 0, shown = 0;
  for (const auto& s : report.scenarios)
    if (std::find(statuses.begin(), statuses.end(), s.status) != statuses.end()) ++n;
  if (n == 0) return;
  doc.md += "### " + std::string(heading) + " (" + std::to_string(n) + ")\n\n";
  for (const auto& s : report.scenarios)
    if (std::find(statuses.begin(), statuses.end(), s.status) != statuses.end())
      shown += doc.Item(ScenarioEntry(s));
  doc.Note(n - shown);
}

// `file` relative to $GITHUB_WORKSPACE (else the working directory), or nullopt when it is not
// below it: GitHub resolves an annotation's file in the repository, so a path outside it (a
// suite installed elsewhere) would point at nothing.
std::optional<std::string> RelativeToWorkspace(const std::string& file) {
  namespace fs = std::filesystem;
  if (file.empty()) return std::nullopt;
  const char* ws = std::getenv("GITHUB_WORKSPACE");
  std::error_code ec;
  fs::path base = ws && *ws ? fs::path(ws) : fs::current_path(ec);
  fs::path abs = fs::weakly_canonical(fs::absolute(file, ec), ec);
  fs::path rel = abs.lexically_relative(fs::weakly_canonical(base, ec));
  if (rel.empty() || *rel.begin() == ".." || rel.is_absolute()) return std::nullopt;
  return rel.generic_string();
}

std::string AnnotationData(std::string_view s) {
  std::string out;
  for (char c : ValidUtf8(s)) {
    if (c == '%')
      out += "%25";
    else if (c == '\r')
      out += "%0D";
    else if (c == '\n')
      out += "%0A";
    else
      out += c;
  }
  return TerminalSafe(out);
}

std::string AnnotationProperty(std::string_view s) {
  std::string out;
  for (char c : AnnotationData(s)) {
    if (c == ':')
      out += "%3A";
    else if (c == ',')
      out += "%2C";
    else
      out += c;
  }
  return out;
}

class MarkdownReporter : public Reporter {
 public:
  MarkdownReporter(std::string path, std::ostream* annotations)
      : path_(std::move(path)), annotations_(annotations) {}
  bool RunEnded(const run::RunReport& report, std::string* error) override {
    if (annotations_) {
      *annotations_ << GithubAnnotations(report);
      annotations_->flush();
    }
    return WriteFileAtomically(path_, MarkdownReport(report), error);
  }

 private:
  std::string path_;
  std::ostream* annotations_;
};

// At most this many annotations per scenario: GitHub shows only the first few of a step anyway.
constexpr std::size_t kAnnotationsPerScenario = 5;

// "error", "warning", or nullptr for a group that neither fails nor warns (may-level only).
const char* Severity(const ScenarioResult& r, const CauseGroup& g, bool strict) {
  bool error = false, warning = false;
  auto weigh = [&](const Failure& f) {
    if (f.harness_error || f.level == scenario::Level::kMust ||
        (strict && f.level == scenario::Level::kShould))
      error = true;
    else if (f.level == scenario::Level::kShould)
      warning = true;
  };
  weigh(r.failures[g.root]);
  for (std::size_t i : g.consequences) weigh(r.failures[i]);
  return error ? "error" : warning ? "warning" : nullptr;
}

// The root's explanation in full: what missed, expected and actual, the frame, what it broke.
std::string AnnotationMessage(const ScenarioResult& r, const CauseGroup& g) {
  const Failure& f = r.failures[g.root];
  std::string message =
      r.spec + ": " + RequirementText(r.sentence, r.requirement) + "\n" + FailureLine(f);
  if (!f.expected.empty()) message += "\nexpected: " + f.expected;
  if (!f.actual.empty()) message += "\nactual: " + f.actual;
  if (f.frame && *f.frame < r.transcript.size())
    message += "\nframe " + FrameLine(r.transcript[*f.frame], *f.frame, 200);
  if (g.cause == Cause::kPluginGone && r.exit.exited) message += "\nplugin: " + ExitLine(r.exit);
  if (!g.consequences.empty()) message += "\ncaused: " + ConsequenceList(r, g);
  return message;
}

}  // namespace

std::string MarkdownText(std::string_view text) {
  std::string out;
  for (char c : TerminalSafe(text, true)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '\n':
        out += ' ';  // a newline could start a block (a heading, a list, an HTML block)
        break;
      default:
        if (std::string_view("\\`*_{}[]()#+-.!|~$@").find(c) != std::string_view::npos) out += '\\';
        out += c;
    }
  }
  return out;
}

std::string CodeSpan(std::string_view text) {
  std::string body = TerminalSafe(text);
  std::string ticks(LongestRun(body, '`') + 1, '`');
  bool pad = body.empty() || body.front() == '`' || body.back() == '`' || body.front() == ' ';
  return ticks + (pad ? " " : "") + body + (pad ? " " : "") + ticks;
}

namespace {

// Over 60 lines: the summary's sections in the order a reader sees them, the failures first, so
// a cut leaves out what matters least. Items stop at `item_limit`.
Doc Render(const run::RunReport& report, std::size_t item_limit) {
  const run::Summary& m = report.summary;
  bool bad = m.failed > 0 || m.errored > 0 || m.stale > 0;
  Doc doc;
  doc.item_limit = item_limit;
  std::string& md = doc.md;
  md = "## fakehost · " + MarkdownText(Clip(report.protocol_title, 200)) + " · " + "**" +
       MarkdownText(Clip(report.plugin.id, 200)) + "** " +
       MarkdownText(Clip(report.plugin.version, 100)) + "\n\n";
  md += std::string(bad        ? "❌ **"
                    : m.warned ? "⚠️ **"
                               : "✅ **") +
        (m.failed ? std::to_string(m.failed) + " failed"
         : bad    ? ""
                  : "no failure") +
        (m.failed && m.errored ? ", " : "") +
        (m.errored ? std::to_string(m.errored) + " errored" : "") +
        ((m.failed || m.errored) && m.stale ? ", " : "") +
        (m.stale ? std::to_string(m.stale) + " stale" : "") + "** of " + std::to_string(m.total) +
        (m.total == 1 ? " scenario" : " scenarios") + " in " + Duration(m.duration_ms) +
        (report.strict ? " (strict)" : "") + "\n\n";
  if (std::string judged = JudgedUnder(report.scenarios); !judged.empty())
    md += "Judged under " + MarkdownText(Clip(judged, 300)) + "\n\n";
  // The expected-failure columns only where a baseline was in play.
  bool baseline = m.xfailed > 0 || m.stale > 0;
  md += "| passed | failed | warned | untested | not applicable | errored | not run |";
  md += baseline ? " expected failures | stale | total |\n" : " total |\n";
  md += baseline ? "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
                 : "|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  md += "| " + std::to_string(m.passed) + " | " + std::to_string(m.failed) + " | " +
        std::to_string(m.warned) + " | " + std::to_string(m.untested) + " | " +
        std::to_string(m.skipped) + " | " + std::to_string(m.errored) + " | " +
        std::to_string(m.not_run) + " | " +
        (baseline ? std::to_string(m.xfailed) + " | " + std::to_string(m.stale) + " | " : "") +
        std::to_string(m.total) + " |\n\n";
  Section(doc, report, "Failures and errors", {Status::kError, Status::kFail});
  Section(doc, report, "Stale expected failures: they pass now", {Status::kStale});
  Section(doc, report, "Warnings", {Status::kWarn});
  Section(doc, report, "Expected failures", {Status::kXfail});
  // The lists: one line (untested: a block with the YAML to add) per scenario.
  auto list = [&](std::initializer_list<Status> statuses, auto heading, auto entry,
                  const char* close) {
    auto in = [&](const ScenarioResult& s) {
      return std::find(statuses.begin(), statuses.end(), s.status) != statuses.end();
    };
    std::size_t n = 0, shown = 0;
    for (const auto& s : report.scenarios) n += in(s);
    if (n == 0) return;
    md += heading(std::to_string(n));
    for (const auto& s : report.scenarios)
      if (in(s)) shown += doc.Item(entry(s));
    md += close;
    doc.Note(n - shown);
  };
  list(
      {Status::kUntested},
      [](const std::string& n) { return "### Untested: a trigger is missing (" + n + ")\n\n"; },
      [](const ScenarioResult& s) {
        return "- " + std::string(StatusIcon(s.status)) + " " + CodeSpan(Clip(s.id, 300)) + "\n\n" +
               CodeBlock(Clip(s.skip_reason, 1000)) + "\n";
      },
      "\n");
  list(
      {Status::kSkip, Status::kNotRun},
      [](const std::string& n) { return "### Not applicable and not run (" + n + ")\n\n"; },
      [](const ScenarioResult& s) {
        return "- " + std::string(StatusIcon(s.status)) + " " + CodeSpan(Clip(s.id, 300)) + " — " +
               MarkdownText(Clip(SkipReason(s), 300)) + "\n";
      },
      "\n");
  list(
      {Status::kPass},
      [](const std::string& n) { return "<details><summary>" + n + " passed</summary>\n\n"; },
      [](const ScenarioResult& s) {
        return "- " + CodeSpan(Clip(s.id, 300)) + " — " + MarkdownText(Clip(s.title, 300)) + " (" +
               Duration(s.duration_ms) + ")\n";
      },
      "\n</details>\n");
  return doc;
}

}  // namespace

std::string MarkdownReport(const run::RunReport& report, std::size_t budget) {
  // Everything fits: the document as it is. Else again, items stopping short of the budget by
  // what the headings and notes after them take.
  Doc doc = Render(report, budget);
  if (doc.cut == 0 && doc.md.size() <= budget) return std::move(doc.md);
  return Render(report, budget > kNoteReserve ? budget - kNoteReserve : 0).md;
}

std::string GithubAnnotations(const run::RunReport& report) {
  std::string out;
  for (const auto& r : report.scenarios) {
    if (r.status != Status::kFail && r.status != Status::kError && r.status != Status::kWarn &&
        r.status != Status::kStale)
      continue;
    std::vector<std::pair<const CauseGroup*, const char*>> shown;
    std::vector<CauseGroup> groups = GroupByCause(r);
    for (const CauseGroup& g : groups)
      if (const char* severity = Severity(r, g, report.strict)) shown.emplace_back(&g, severity);
    std::size_t dropped =
        shown.size() > kAnnotationsPerScenario ? shown.size() - kAnnotationsPerScenario : 0;
    shown.resize(shown.size() - dropped);
    for (std::size_t k = 0; k < shown.size(); ++k) {
      const CauseGroup& g = *shown[k].first;
      // Where: the root's step, else the first broken step, else the scenario.
      const scenario::SourceLoc* loc = &r.loc;
      std::vector<std::size_t> members{g.root};
      members.insert(members.end(), g.consequences.begin(), g.consequences.end());
      for (std::size_t i : members)
        if (r.failures[i].loc.line > 0) {
          loc = &r.failures[i].loc;
          break;
        }
      std::string file = loc->file.empty() ? r.loc.file : loc->file;
      std::string message = AnnotationMessage(r, g);
      if (dropped > 0 && k + 1 == shown.size())
        message += "\n(" + std::to_string(dropped) + " more in this scenario: see the report)";
      out += "::" + std::string(shown[k].second) + " ";
      // A failure with no place in the workspace is annotated without a file: a path outside
      // it would point at nothing, and the plugin's manifest is not where the fault is.
      if (std::optional<std::string> rel = RelativeToWorkspace(file))
        out += "file=" + AnnotationProperty(*rel) +
               ",line=" + std::to_string(std::max(1, loc->line)) + ",";
      out += "title=" + AnnotationProperty(std::string("fakehost ") + Word(r.status) + " " + r.id) +
             "::" + AnnotationData(Clip(message, 2000)) + "\n";
    }
  }
  return out;
}

std::unique_ptr<Reporter> MakeMarkdownReporter(std::string path, std::ostream* annotations) {
  return std::make_unique<MarkdownReporter>(std::move(path), annotations);
}

}  // namespace fakehost::report
