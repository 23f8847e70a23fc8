// The Markdown summary ($GITHUB_STEP_SUMMARY); its reporter also prints GitHub's workflow
// annotations (github_annotations.cpp).
#include <algorithm>
#include <optional>
#include <ostream>

#include "harness/report/causes.hpp"
#include "harness/report/excerpt.hpp"
#include "harness/report/reporter.hpp"
#include "harness/report/shared_causes.hpp"
#include "harness/report/text.hpp"

namespace fakehost::report {
namespace {

using result::Failure;
using result::ScenarioResult;
using result::Status;

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

// Plugin text goes into a code span (MarkdownText) or a fenced block; nothing else of it reaches
// the Markdown.

// A fenced block whose fence is longer than any backtick run inside, so no content can close it.
std::string CodeBlock(std::string_view text) {
  std::string body = TerminalSafe(text, true);
  std::string fence(std::max<std::size_t>(3, LongestRun(body, '`') + 1), '`');
  if (!body.empty() && body.back() != '\n') body += '\n';
  return fence + "text\n" + body + fence + "\n";
}

// A shared cause: its root as its first scenario saw it, the frame, the scenarios it failed.
std::string SharedEntry(const result::RunReport& report, const RunCauses& causes, std::size_t k) {
  const SharedCause& c = causes.shared()[k];
  const ScenarioResult& first = report.scenarios[c.roots.front().scenario];
  const CauseGroup& group = causes.groups(c.roots.front().scenario)[c.roots.front().group];
  const Failure& f = first.failures[group.root];
  Status worst = WorstStatus(report, c);
  std::string md = "#### " + std::string(StatusIcon(worst)) + " " + StatusWord(worst) + " cause " +
                   std::to_string(k + 1) + " — one failure in " + std::to_string(c.scenarios) +
                   " scenarios\n\n";
  md +=
      "- **" + std::string(FailureMark(f)) + "** " + MarkdownText(Clip(FailureLine(f), 600)) + "\n";
  if (!f.expected.empty()) md += "  - expected: " + MarkdownText(Clip(f.expected, 300)) + "\n";
  if (!f.actual.empty()) md += "  - actual: " + MarkdownText(Clip(f.actual, 300)) + "\n";
  std::string ids;
  for (const std::string* id : SharedScenarioIds(report, c))
    ids += (ids.empty() ? "" : ", ") + CodeSpan(Clip(*id, 300));
  md += "- in: " + ids + "\n";
  std::string frame;
  if (f.frame && *f.frame < first.transcript.size())
    frame = FrameLine(first.transcript[*f.frame], *f.frame, 200) + "\n";
  if (group.cause == Cause::kPluginGone && first.exit.exited)
    frame += "plugin: " + ExitLine(first.exit) + "\n";
  if (!frame.empty()) md += "\n" + CodeBlock(frame);
  return md + "\n";
}

// A scenario's entry; one failed only by shared causes names them and no more.
std::string ScenarioEntry(const ScenarioResult& r, const RunCauses& causes, std::size_t index) {
  std::string md;
  md += "#### " + std::string(StatusIcon(r.status)) + " " + StatusWord(r.status) + " " +
        CodeSpan(r.id) + " — " + MarkdownText(Clip(r.title, 300)) + "\n\n";
  bool short_entry = causes.AllShared(index);
  if (!short_entry)
    md += "**" + MarkdownText(Clip(r.spec, 200)) + "** (" + result::LevelName(r.level) +
          "): " + MarkdownText(Clip(RequirementText(r.sentence, r.requirement), 900)) + "<br>\n" +
          CodeSpan(r.loc.ToString()) + "\n\n";
  if (r.expected_failure)
    md += std::string(r.expected_failure->expired ? "Expected failure (expired) "
                                                  : "Expected failure ") +
          CodeSpan(r.expected_failure->loc.ToString()) + ": " +
          MarkdownText(Clip(r.expected_failure->reason, 600)) + "\n\n";
  const std::vector<CauseGroup>& groups = causes.groups(index);
  for (std::size_t k = 0; k < groups.size(); ++k) {
    const CauseGroup& g = groups[k];
    const Failure& f = r.failures[g.root];
    if (std::optional<std::size_t> shared = causes.SharedOf(index, k)) {
      md += "- **" + std::string(FailureMark(f)) + "** " +
            MarkdownText(Clip(FailurePlace(f), 600) + ": " + SharedCauseRef(causes, *shared)) +
            "\n";
    } else {
      md += "- **" + std::string(FailureMark(f)) + "** " + MarkdownText(Clip(FailureLine(f), 600)) +
            "\n";
      if (!f.expected.empty()) md += "  - expected: " + MarkdownText(Clip(f.expected, 300)) + "\n";
      if (!f.actual.empty()) md += "  - actual: " + MarkdownText(Clip(f.actual, 300)) + "\n";
    }
    if (!g.consequences.empty())
      md += "  - caused: " + MarkdownText(Clip(ConsequenceList(r, g), 600)) + "\n";
  }
  if (short_entry) return md + "\n";
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

void Section(Doc& doc, const result::RunReport& report, const RunCauses& causes,
             const char* heading, std::initializer_list<Status> statuses) {
  std::size_t n = 0, shown = 0;
  for (const auto& s : report.scenarios)
    if (std::find(statuses.begin(), statuses.end(), s.status) != statuses.end()) ++n;
  if (n == 0) return;
  doc.md += "### " + std::string(heading) + " (" + std::to_string(n) + ")\n\n";
  for (std::size_t i = 0; i < report.scenarios.size(); ++i)
    if (std::find(statuses.begin(), statuses.end(), report.scenarios[i].status) != statuses.end())
      shown += doc.Item(ScenarioEntry(report.scenarios[i], causes, i));
  doc.Note(n - shown);
}

// The causes that failed several scenarios, before the scenarios' own entries.
void SharedSection(Doc& doc, const result::RunReport& report, const RunCauses& causes) {
  std::size_t n = causes.shared().size(), shown = 0;
  if (n == 0) return;
  doc.md += "### Causes shared by several scenarios (" + std::to_string(n) + ")\n\n";
  for (std::size_t k = 0; k < n; ++k) shown += doc.Item(SharedEntry(report, causes, k));
  doc.Note(n - shown);
}

class MarkdownReporter : public Reporter {
 public:
  MarkdownReporter(std::string path, std::ostream* annotations)
      : path_(std::move(path)), annotations_(annotations) {}
  bool RunEnded(const result::RunReport& report, std::string* error) override {
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

}  // namespace

// Text fakehost did not write (plugin text, a baseline's reason, a file's) is only ever shown in
// a code span: cmark-gfm and GitHub make nothing of what is inside one (no link, no autolinked
// URL or e-mail, no @mention, no HTML, no emphasis), where backslash escapes leave autolinks and
// mentions working. Callers cut (Clip) before, never after.
std::string MarkdownText(std::string_view text) { return text.empty() ? "" : CodeSpan(text); }

std::string CodeSpan(std::string_view text) {
  std::string body = TerminalSafe(text);
  std::string ticks(LongestRun(body, '`') + 1, '`');
  bool pad = body.empty() || body.front() == '`' || body.back() == '`' || body.front() == ' ';
  return ticks + (pad ? " " : "") + body + (pad ? " " : "") + ticks;
}

namespace {

// The title, the verdict with its counts, and the revisions judged under.
std::string TitleAndVerdict(const result::RunReport& report) {
  const result::Summary& m = report.summary;
  bool bad = m.failed > 0 || m.errored > 0 || m.stale > 0;
  std::string md = "## fakehost · " + MarkdownText(Clip(report.protocol_title, 200)) + " · " +
                   "**" + MarkdownText(Clip(report.plugin.id, 200)) + "** " +
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
  return md;
}

// A count per status; the expected-failure columns only where a baseline was in play.
std::string CountsTable(const result::Summary& m) {
  bool baseline = m.xfailed > 0 || m.stale > 0;
  std::string md = "| passed | failed | warned | untested | not applicable | errored | not run |";
  md += baseline ? " expected failures | stale | total |\n" : " total |\n";
  md += baseline ? "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
                 : "|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  md += "| " + std::to_string(m.passed) + " | " + std::to_string(m.failed) + " | " +
        std::to_string(m.warned) + " | " + std::to_string(m.untested) + " | " +
        std::to_string(m.skipped) + " | " + std::to_string(m.errored) + " | " +
        std::to_string(m.not_run) + " | " +
        (baseline ? std::to_string(m.xfailed) + " | " + std::to_string(m.stale) + " | " : "") +
        std::to_string(m.total) + " |\n\n";
  return md;
}

// A list after the sections: one line (untested: a block with the YAML to add) per scenario.
struct ListKind {
  std::vector<Status> statuses = {};
  std::string (*heading)(const std::string& count) = nullptr;
  std::string (*entry)(const ScenarioResult& s) = nullptr;
  const char* close = "";
};

std::string UntestedHeading(const std::string& n) {
  return "### Untested: a trigger is missing (" + n + ")\n\n";
}
std::string UntestedEntry(const ScenarioResult& s) {
  return "- " + std::string(StatusIcon(s.status)) + " " + CodeSpan(Clip(s.id, 300)) + "\n\n" +
         CodeBlock(Clip(s.skip_reason, 1000)) + "\n";
}
std::string NotRunHeading(const std::string& n) {
  return "### Not applicable and not run (" + n + ")\n\n";
}
std::string NotRunEntry(const ScenarioResult& s) {
  return "- " + std::string(StatusIcon(s.status)) + " " + CodeSpan(Clip(s.id, 300)) + " — " +
         MarkdownText(Clip(SkipReason(s), 300)) + "\n";
}
std::string PassedHeading(const std::string& n) {
  return "<details><summary>" + n + " passed</summary>\n\n";
}
std::string PassedEntry(const ScenarioResult& s) {
  return "- " + CodeSpan(Clip(s.id, 300)) + " — " + MarkdownText(Clip(s.title, 300)) + " (" +
         Duration(s.duration_ms) + ")\n";
}

void List(Doc& doc, const result::RunReport& report, const ListKind& kind) {
  auto in = [&](const ScenarioResult& s) {
    return std::find(kind.statuses.begin(), kind.statuses.end(), s.status) != kind.statuses.end();
  };
  std::size_t n = 0, shown = 0;
  for (const auto& s : report.scenarios) n += in(s);
  if (n == 0) return;
  doc.md += kind.heading(std::to_string(n));
  for (const auto& s : report.scenarios)
    if (in(s)) shown += doc.Item(kind.entry(s));
  doc.md += kind.close;
  doc.Note(n - shown);
}

// The summary's sections in the order a reader sees them, the failures first, so a cut leaves
// out what matters least. Items stop at `item_limit`.
Doc Render(const result::RunReport& report, std::size_t item_limit) {
  Doc doc;
  doc.item_limit = item_limit;
  doc.md = TitleAndVerdict(report) + CountsTable(report.summary);
  RunCauses causes(report);
  SharedSection(doc, report, causes);
  Section(doc, report, causes, "Failures and errors", {Status::kError, Status::kFail});
  Section(doc, report, causes, "Stale expected failures: they pass now", {Status::kStale});
  Section(doc, report, causes, "Warnings", {Status::kWarn});
  Section(doc, report, causes, "Expected failures", {Status::kXfail});
  List(doc, report, {{Status::kUntested}, UntestedHeading, UntestedEntry, "\n"});
  List(doc, report, {{Status::kSkip, Status::kNotRun}, NotRunHeading, NotRunEntry, "\n"});
  List(doc, report, {{Status::kPass}, PassedHeading, PassedEntry, "\n</details>\n"});
  return doc;
}

}  // namespace

std::string MarkdownReport(const result::RunReport& report, std::size_t budget) {
  // Everything fits: the document as it is. Else again, items stopping short of the budget by
  // what the headings and notes after them take.
  Doc doc = Render(report, budget);
  if (doc.cut == 0 && doc.md.size() <= budget) return std::move(doc.md);
  return Render(report, budget > kNoteReserve ? budget - kNoteReserve : 0).md;
}

std::unique_ptr<Reporter> MakeMarkdownReporter(std::string path, std::ostream* annotations) {
  return std::make_unique<MarkdownReporter>(std::move(path), annotations);
}

}  // namespace fakehost::report
