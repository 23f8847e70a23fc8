// GitHub's workflow annotations (`::error`/`::warning` lines), which the Markdown reporter prints
// when GITHUB_ACTIONS is set: one per cause, with the cause's whole explanation.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>

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

// At most this many annotations per scenario: GitHub shows only the first few of a step anyway.
constexpr std::size_t kAnnotationsPerScenario = 5;

// "error", "warning", or nullptr for a group that neither fails nor warns (may-level only).
const char* Severity(const ScenarioResult& r, const CauseGroup& g, bool strict) {
  bool error = false, warning = false;
  auto weigh = [&](const Failure& f) {
    if (f.harness_error || f.level == result::Level::kMust ||
        (strict && f.level == result::Level::kShould))
      error = true;
    else if (f.level == result::Level::kShould)
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

// Where a group is annotated: the root's step, else the first broken step, else the scenario
// (its file, when a step names none).
result::SourceLoc AnnotationLoc(const ScenarioResult& r, const CauseGroup& g) {
  result::SourceLoc loc = r.loc;
  std::vector<std::size_t> members{g.root};
  members.insert(members.end(), g.consequences.begin(), g.consequences.end());
  for (std::size_t i : members)
    if (r.failures[i].loc.line > 0) {
      loc = r.failures[i].loc;
      break;
    }
  if (loc.file.empty()) loc.file = r.loc.file;
  return loc;
}

// One `::error`/`::warning` line; `loc` nullptr for one without a file.
std::string Annotation(const char* severity, const result::SourceLoc* loc, const std::string& title,
                       const std::string& message) {
  std::string out = "::" + std::string(severity) + " ";
  // A failure with no place in the workspace is annotated without a file: a path outside
  // it would point at nothing, and the plugin's manifest is not where the fault is.
  if (loc)
    if (std::optional<std::string> rel = RelativeToWorkspace(loc->file))
      out += "file=" + AnnotationProperty(*rel) +
             ",line=" + std::to_string(std::max(1, loc->line)) + ",";
  return out + "title=" + AnnotationProperty(title) + "::" + AnnotationData(Clip(message, 2000)) +
         "\n";
}

// Shared cause `k`, once: the root as its first scenario saw it, then the scenarios it failed
// (last, so a cut at the size limit takes the end of the list). Annotated on the step when every
// scenario's root is the same step (a fragment's), else without a file: it is no one scenario's.
std::string SharedAnnotation(const result::RunReport& report, const RunCauses& causes,
                             std::size_t k) {
  const SharedCause& c = causes.shared()[k];
  const char* severity = nullptr;
  std::optional<result::SourceLoc> loc;
  bool one_place = true;
  for (const CauseRoot& root : c.roots) {
    const ScenarioResult& r = report.scenarios[root.scenario];
    const CauseGroup& g = causes.groups(root.scenario)[root.group];
    const char* s = Severity(r, g, report.strict);
    if (s && (!severity || std::string_view(s) == "error")) severity = s;
    result::SourceLoc here = AnnotationLoc(r, g);
    if (!loc) loc = here;
    one_place = one_place && here.file == loc->file && here.line == loc->line;
  }
  if (!severity) return "";
  const ScenarioResult& first = report.scenarios[c.roots.front().scenario];
  const CauseGroup& group = causes.groups(c.roots.front().scenario)[c.roots.front().group];
  const Failure& f = first.failures[group.root];
  std::string message = FailureLine(f);
  if (!f.expected.empty()) message += "\nexpected: " + f.expected;
  if (!f.actual.empty()) message += "\nactual: " + f.actual;
  if (f.frame && *f.frame < first.transcript.size())
    message += "\nframe " + FrameLine(first.transcript[*f.frame], *f.frame, 200);
  if (group.cause == Cause::kPluginGone && first.exit.exited)
    message += "\nplugin: " + ExitLine(first.exit);
  message += "\nin " + std::to_string(c.scenarios) + " scenarios:";
  std::vector<const std::string*> ids = SharedScenarioIds(report, c);
  for (std::size_t i = 0; i < ids.size(); ++i) message += (i ? ", " : " ") + *ids[i];
  result::Status worst = WorstStatus(report, c);
  return Annotation(severity, one_place ? &*loc : nullptr,
                    std::string("fakehost ") + StatusWord(worst) + " " +
                        std::to_string(c.scenarios) + " scenarios, one cause",
                    message);
}

}  // namespace

std::string GithubAnnotations(const result::RunReport& report) {
  RunCauses causes(report);
  std::string out;
  for (std::size_t k = 0; k < causes.shared().size(); ++k)
    out += SharedAnnotation(report, causes, k);
  for (std::size_t i = 0; i < report.scenarios.size(); ++i) {
    const ScenarioResult& r = report.scenarios[i];
    if (r.status != Status::kFail && r.status != Status::kError && r.status != Status::kWarn &&
        r.status != Status::kStale)
      continue;
    // A shared cause was annotated once above.
    std::vector<std::pair<const CauseGroup*, const char*>> shown;
    const std::vector<CauseGroup>& groups = causes.groups(i);
    for (std::size_t k = 0; k < groups.size(); ++k)
      if (const char* severity = Severity(r, groups[k], report.strict);
          severity && !causes.SharedOf(i, k))
        shown.emplace_back(&groups[k], severity);
    std::size_t dropped =
        shown.size() > kAnnotationsPerScenario ? shown.size() - kAnnotationsPerScenario : 0;
    shown.resize(shown.size() - dropped);
    for (std::size_t k = 0; k < shown.size(); ++k) {
      const CauseGroup& g = *shown[k].first;
      result::SourceLoc loc = AnnotationLoc(r, g);
      std::string message = AnnotationMessage(r, g);
      if (dropped > 0 && k + 1 == shown.size())
        message += "\n(" + std::to_string(dropped) + " more in this scenario: see the report)";
      out += Annotation(shown[k].second, &loc,
                        std::string("fakehost ") + StatusWord(r.status) + " " + r.id, message);
    }
  }
  return out;
}

}  // namespace fakehost::report
