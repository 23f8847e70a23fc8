// The Markdown summary ($GITHUB_STEP_SUMMARY) and GitHub's workflow annotations.
#include <unistd.h>
#include <algorithm>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "harness/report/excerpt.hpp"
#include "harness/report/reporter.hpp"
#include "harness/report/text.hpp"
#include "harness/run/expected_failures.hpp"

namespace fakehost::report {
namespace {

using scenario::Failure;
using scenario::ScenarioResult;
using scenario::Status;

// GitHub refuses a step summary above 1 MiB; details stop well before that.
constexpr std::size_t kDetailBudget = 700 * 1024;

std::size_t LongestRun(std::string_view s, char c) {
  std::size_t best = 0, run = 0;
  for (char x : s) {
    run = x == c ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

const char* Icon(Status s) {
  switch (s) {
    case Status::kPass:
      return "✅";
    case Status::kFail:
      return "❌";
    case Status::kWarn:
      return "⚠️";
    case Status::kSkip:
      return "⏭️";
    case Status::kError:
      return "💥";
    case Status::kUntested:
      return "🔶";
    case Status::kXfail:
      return "🚧";
    case Status::kStale:
      return "🧹";
    case Status::kNotRun:
      break;
  }
  return "⏹️";
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

void Scenario(std::string& md, const ScenarioResult& r) {
  md += "#### " + std::string(Icon(r.status)) + " " + Word(r.status) + " " + CodeSpan(r.id) +
        " — " + MarkdownText(Clip(r.title, 300)) + "\n\n";
  md += "**" + MarkdownText(Clip(r.spec, 200)) + "** (" + scenario::LevelName(r.level) +
        "): " + MarkdownText(Clip(r.requirement, 600)) + "<br>\n" + CodeSpan(r.loc.ToString()) +
        "\n\n";
  if (r.expected_failure)
    md += std::string(r.expected_failure->expired ? "Expected failure (expired) "
                                                  : "Expected failure ") +
          CodeSpan(r.expected_failure->loc.ToString()) + ": " +
          MarkdownText(Clip(r.expected_failure->reason, 600)) + "\n\n";
  for (const Failure& f : r.failures) {
    md += "- **" + std::string(FailureMark(f)) + "** " + MarkdownText(Clip(FailureLine(f), 600)) +
          "\n";
    if (!f.expected.empty()) md += "  - expected: " + MarkdownText(Clip(f.expected, 300)) + "\n";
    if (!f.actual.empty()) md += "  - actual: " + MarkdownText(Clip(f.actual, 300)) + "\n";
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
}

void Section(std::string& md, const run::RunReport& report, const char* heading,
             std::initializer_list<Status> statuses) {
  std::size_t n = 0, shown = 0;
  for (const auto& s : report.scenarios)
    if (std::find(statuses.begin(), statuses.end(), s.status) != statuses.end()) ++n;
  if (n == 0) return;
  md += "### " + std::string(heading) + " (" + std::to_string(n) + ")\n\n";
  for (const auto& s : report.scenarios) {
    if (std::find(statuses.begin(), statuses.end(), s.status) == statuses.end()) continue;
    if (md.size() > kDetailBudget) break;
    Scenario(md, s);
    ++shown;
  }
  if (shown < n)
    md += "*" + std::to_string(n - shown) +
          " more not shown here (size limit): see the JSON or HTML report.*\n\n";
}

std::string RelativeToWorkspace(const std::string& file) {
  namespace fs = std::filesystem;
  const char* ws = std::getenv("GITHUB_WORKSPACE");
  std::error_code ec;
  fs::path base = ws && *ws ? fs::path(ws) : fs::current_path(ec);
  fs::path abs = fs::weakly_canonical(fs::absolute(file, ec), ec);
  fs::path rel = abs.lexically_relative(fs::weakly_canonical(base, ec));
  if (rel.empty() || *rel.begin() == "..") return file;
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

std::string MarkdownReport(const run::RunReport& report) {
  const run::Summary& m = report.summary;
  bool bad = m.failed > 0 || m.errored > 0 || m.stale > 0;
  std::string md = "## fakehost · " + MarkdownText(report.protocol_title) + " · " + "**" +
                   MarkdownText(report.plugin.id) + "** " + MarkdownText(report.plugin.version) +
                   "\n\n";
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
  Section(md, report, "Failures and errors", {Status::kError, Status::kFail});
  Section(md, report, "Stale expected failures: they pass now", {Status::kStale});
  Section(md, report, "Warnings", {Status::kWarn});
  Section(md, report, "Expected failures", {Status::kXfail});
  std::string untested, skipped, passed;
  int n_untested = 0, n_skipped = 0, n_passed = 0;
  for (const auto& s : report.scenarios) {
    if (s.status == Status::kUntested) {
      ++n_untested;
      untested += "- " + std::string(Icon(s.status)) + " " + CodeSpan(s.id) + "\n\n" +
                  CodeBlock(Clip(s.skip_reason, 1000)) + "\n";
    } else if (s.status == Status::kSkip || s.status == Status::kNotRun) {
      ++n_skipped;
      skipped += "- " + std::string(Icon(s.status)) + " " + CodeSpan(s.id) + " — " +
                 MarkdownText(Clip(SkipReason(s), 300)) + "\n";
    } else if (s.status == Status::kPass) {
      ++n_passed;
      passed += "- " + CodeSpan(s.id) + " — " + MarkdownText(Clip(s.title, 300)) + " (" +
                Duration(s.duration_ms) + ")\n";
    }
  }
  if (n_untested)
    md += "### Untested: a trigger is missing (" + std::to_string(n_untested) + ")\n\n" + untested +
          "\n";
  if (n_skipped)
    md += "### Not applicable and not run (" + std::to_string(n_skipped) + ")\n\n" + skipped + "\n";
  if (n_passed)
    md += "<details><summary>" + std::to_string(n_passed) + " passed</summary>\n\n" + passed +
          "\n</details>\n";
  return md;
}

std::string GithubAnnotations(const run::RunReport& report) {
  std::string out;
  for (const auto& r : report.scenarios) {
    if (r.status != Status::kFail && r.status != Status::kError && r.status != Status::kWarn &&
        r.status != Status::kStale)
      continue;
    const Failure* head = Headline(r, report.strict);
    int line = head && head->loc.line > 0 ? head->loc.line : std::max(1, r.loc.line);
    // A stale or expired entry is fixed in the expected-failures file: point there.
    const std::string& file =
        head && head->check == run::kExpectedFailureCheck && !head->loc.file.empty()
            ? head->loc.file
            : r.loc.file;
    std::string message = r.spec + ": " + r.requirement;
    if (head) {
      message += "\n" + FailureLine(*head);
      if (!head->expected.empty()) message += "\nexpected: " + head->expected;
      if (!head->actual.empty()) message += "\nactual: " + head->actual;
    }
    out += r.status == Status::kWarn ? "::warning " : "::error ";
    out += "file=" + AnnotationProperty(RelativeToWorkspace(file)) +
           ",line=" + std::to_string(line) +
           ",title=" + AnnotationProperty(std::string("fakehost ") + Word(r.status) + " " + r.id) +
           "::" + AnnotationData(Clip(message, 2000)) + "\n";
  }
  return out;
}

std::unique_ptr<Reporter> MakeMarkdownReporter(std::string path, std::ostream* annotations) {
  return std::make_unique<MarkdownReporter>(std::move(path), annotations);
}

}  // namespace fakehost::report
