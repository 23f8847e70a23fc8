#include <algorithm>
#include <sstream>

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

class ConsoleReporter : public Reporter {
 public:
  ConsoleReporter(std::ostream& out, ConsoleOptions options) : out_(out), options_(options) {}

  void RunStarting(const result::RunReport& r) override {
    out_ << "fakehost " << Safe(r.tool_version) << " · " << Safe(r.protocol_title) << " · "
         << Safe(r.plugin.id);
    if (!r.plugin.version.empty()) out_ << " " << Safe(r.plugin.version);
    out_ << " (" << Safe(r.plugin.dir) << ")\n";
    if (!r.plugin.never_spawned.empty())
      out_ << "not spawned: " << Safe(r.plugin.never_spawned)
           << "; its manifest check is all there is to check\n";
    if (!r.plugin.probe.empty()) out_ << "probed: " << Safe(r.plugin.probe) << "\n";
    if (!r.plugin.derived.empty()) out_ << Safe(r.plugin.derived) << "\n";
    out_ << "suite " << Safe(r.suite) << " · jobs " << r.jobs << (r.strict ? " · strict" : "")
         << "\n\n";
    out_.flush();
  }

  void ScenarioEnded(const ScenarioResult& r) override {
    // Every string of a result may come from a plugin or, under `report merge`, from a shard's
    // report file: all of it goes through Safe.
    std::string id = Safe(r.id);
    // Scenarios not applicable for one same reason (the 51 modern ones of a server that speaks
    // only legacy revisions) are one line: held while the reason repeats.
    if (r.status == Status::kSkip && !r.skip_reason.empty()) {
      if (held_.count && held_.reason == r.skip_reason) {
        held_.last = id;
        ++held_.count;
        return;
      }
      FlushHeld();
      held_ = {id, id, r.skip_reason, r.duration_ms, 1};
      return;
    }
    FlushHeld();
    out_ << "  " << Tag(r.status) << "  " << id;
    std::size_t pad = id.size() < 56 ? 56 - id.size() : 1;
    out_ << std::string(pad, ' ') << Duration(r.duration_ms);
    if (r.status == Status::kSkip || r.status == Status::kNotRun)
      out_ << "  (" << Safe(r.skip_reason) << ")";
    if (r.status == Status::kUntested)  // the reason carries the YAML to add: keep it indented
      out_ << "\n        " << Indent(TerminalSafe(r.skip_reason, true), "        ");
    if (r.status == Status::kXfail && r.expected_failure)
      out_ << "  (expected: " << Safe(r.expected_failure->reason) << ")";
    out_ << "\n";
    out_.flush();
  }

  bool RunEnded(const result::RunReport& r, std::string*) override {
    FlushHeld();
    // A cause that failed several scenarios leads, once; their entries below only name it.
    RunCauses causes(r);
    for (std::size_t k = 0; k < causes.shared().size(); ++k) Shared(r, causes, k);
    for (std::size_t i = 0; i < r.scenarios.size(); ++i) {
      const ScenarioResult& s = r.scenarios[i];
      if (s.status == Status::kFail || s.status == Status::kWarn || s.status == Status::kError ||
          s.status == Status::kStale)
        Details(s, causes, i);
    }
    const result::Summary& m = r.summary;
    out_ << "\n"
         << m.total << (m.total == 1 ? " scenario: " : " scenarios: ") << m.passed << " passed, "
         << m.failed << " failed, " << m.warned << " warned, " << m.untested << " untested, "
         << m.skipped << " not applicable, " << m.errored << " errored";
    if (m.not_run) out_ << ", " << m.not_run << " not run";
    if (m.xfailed) out_ << ", " << m.xfailed << " expected failures";
    if (m.stale) out_ << ", " << m.stale << " stale";
    out_ << " in " << Duration(m.duration_ms) << "\n";
    if (std::string judged = JudgedUnder(r.scenarios); !judged.empty())
      out_ << "judged under " << Safe(judged) << "\n";
    out_.flush();
    return true;
  }

 private:
  struct Held {
    std::string first, last, reason;
    double ms = 0;
    std::size_t count = 0;
  };

  void FlushHeld() {
    if (held_.count == 0) return;
    std::string ids = held_.count == 1 ? held_.first
                                       : held_.first + " … " + held_.last + " (" +
                                             std::to_string(held_.count) + " scenarios)";
    out_ << "  " << Tag(Status::kSkip) << "  " << ids;
    std::size_t pad = ids.size() < 56 ? 56 - ids.size() : 1;
    out_ << std::string(pad, ' ') << (held_.count == 1 ? Duration(held_.ms) + "  " : "") << "("
         << Safe(held_.reason) << ")\n";
    out_.flush();
    held_ = {};
  }

  static std::string Safe(std::string_view s) { return TerminalSafe(s); }
  static std::string Indent(const std::string& text, const std::string& prefix) {
    std::string out;
    for (char c : text) {
      out += c;
      if (c == '\n') out += prefix;
    }
    return out;
  }

  std::string Tag(Status s) const {
    const char* text = "PASS";
    const char* color = "32";
    switch (s) {
      case Status::kPass:
        break;
      case Status::kFail:
        text = "FAIL";
        color = "31";
        break;
      case Status::kWarn:
        text = "WARN";
        color = "33";
        break;
      case Status::kSkip:
        text = "SKIP";
        color = "36";
        break;
      case Status::kError:
        text = "ERR ";
        color = "35";
        break;
      case Status::kNotRun:
        text = "----";
        color = "90";
        break;
      case Status::kUntested:
        text = "UNTD";  // untested: a trigger is missing
        color = "36";
        break;
      case Status::kXfail:
        text = "XFL ";  // failed, as --expected-failures expects
        color = "34";
        break;
      case Status::kStale:
        text = "STAL";  // passed, though --expected-failures expects a failure
        color = "31";
        break;
    }
    if (!options_.color) return text;
    return std::string("\x1b[") + color + "m" + text + "\x1b[0m";
  }

  // The miss that is a cause: what, where, expected and actual.
  void Root(const Failure& f) {
    out_ << "  ✗ [" << FailureMark(f) << "] ";
    if (f.check == "step")
      out_ << "step " << f.step << " " << Safe(f.step_kind) << " (" << Safe(f.loc.ToString())
           << "): ";
    else
      out_ << Safe(f.check) << ": ";
    out_ << Safe(f.message) << "\n";
    if (!f.expected.empty()) out_ << "      expected: " << Safe(f.expected) << "\n";
    if (!f.actual.empty()) out_ << "      actual:   " << Safe(f.actual) << "\n";
  }

  // Shared cause `k`: its root as its first scenario saw it, the frame, the scenarios it failed.
  void Shared(const result::RunReport& report, const RunCauses& causes, std::size_t k) {
    const SharedCause& c = causes.shared()[k];
    const ScenarioResult& first = report.scenarios[c.roots.front().scenario];
    const CauseGroup& group = causes.groups(c.roots.front().scenario)[c.roots.front().group];
    const Failure& f = first.failures[group.root];
    out_ << "\n"
         << Tag(WorstStatus(report, c)) << " cause " << k + 1 << " — one failure in " << c.scenarios
         << " scenarios\n";
    Root(f);
    if (f.frame && *f.frame < first.transcript.size())
      out_ << "  ▶ " << Safe(FrameLine(first.transcript[*f.frame], *f.frame)) << "\n";
    if (group.cause == Cause::kPluginGone && first.exit.exited)
      out_ << "  plugin: " << Safe(ExitLine(first.exit)) << "\n";
    out_ << "  in:";
    std::vector<const std::string*> ids = SharedScenarioIds(report, c);
    for (std::size_t i = 0; i < ids.size(); ++i) out_ << (i ? ", " : " ") << Safe(*ids[i]);
    out_ << "\n";
  }

  void Details(const ScenarioResult& r, const RunCauses& causes, std::size_t index) {
    out_ << "\n" << Tag(r.status) << " " << Safe(r.id) << " — " << Safe(r.title) << "\n";
    // Failed only by causes shown above: naming them is all its entry needs (the frames and
    // stderr are in the JSON and HTML reports).
    bool short_entry = causes.AllShared(index);
    if (!short_entry) {
      out_ << "  " << Safe(r.spec) << ": " << Safe(RequirementText(r.sentence, r.requirement))
           << "\n";
      out_ << "  " << Safe(r.loc.ToString()) << "\n";
    }
    // A cause once, with the steps it broke; its consequences are in the JSON report in full.
    const std::vector<CauseGroup>& groups = causes.groups(index);
    for (std::size_t k = 0; k < groups.size(); ++k) {
      const CauseGroup& g = groups[k];
      const Failure& f = r.failures[g.root];
      if (std::optional<std::size_t> shared = causes.SharedOf(index, k)) {
        out_ << "  ✗ [" << FailureMark(f) << "] " << Safe(FailurePlace(f)) << ": "
             << SharedCauseRef(causes, *shared) << "\n";
      } else {
        Root(f);
      }
      if (!g.consequences.empty()) out_ << "      caused: " << Safe(ConsequenceList(r, g)) << "\n";
    }
    if (short_entry) return;
    Frames(r);
    if (r.exit.exited || !r.exit.stop_stage.empty()) {
      out_ << "  plugin: " << (r.exit.exited ? Safe(r.exit.description) : "still running");
      if (!r.exit.stop_stage.empty())
        out_ << " (stop: " << Safe(r.exit.stop_stage) << ", " << Duration(r.exit.stop_ms) << ")";
      out_ << "\n";
    }
    if (std::string last = StderrLastLines(r.stderr_tail); !last.empty()) {
      out_ << "  stderr (last lines):\n";
      std::istringstream in(last);
      for (std::string line; std::getline(in, line);) out_ << "    | " << Safe(line) << "\n";
    }
  }

  // The frames around the failures: what a plugin author needs to see the exchange that broke.
  // The same excerpt the JUnit and Markdown reports quote (violations and notes included).
  void Frames(const ScenarioResult& r) {
    std::string excerpt = FramesExcerpt(r, options_.frames_shown);
    if (excerpt.empty()) return;
    out_ << "  frames:\n";
    std::istringstream in(excerpt);
    for (std::string line; std::getline(in, line);) out_ << "  " << Safe(line) << "\n";
  }

  std::ostream& out_;
  ConsoleOptions options_;
  Held held_;
};

}  // namespace

std::unique_ptr<Reporter> MakeConsoleReporter(std::ostream& out, ConsoleOptions options) {
  return std::make_unique<ConsoleReporter>(out, options);
}

}  // namespace fakehost::report
