// One run: a suite played against a plugin, or against every plugin of a corpus, and judged.
//
// The entry point of running. `fakehost run` and `fakehost certify` (through certify::Certify)
// fill a RunRequest from their flags and hand what Execute returns to their reporters; `fakehost
// fuzz`, whose every session depends on the last, plays with the same pieces (ResolvePlugin,
// PluginLimits, PlayScenario: runner.hpp). Execute first checks everything that can be checked
// before a plugin is spawned (the shard, the suites, the selection, the known-failure baseline
// and where a new one goes, the limits, the timeout, the plugin): bad input is kBadInput, with
// every message on `err` and nothing run. Then it plays `jobs` scenarios at a time over all the
// plugins, each scenario with its own plugin process, hands every result to `on_result` as it
// ends, and judges the run (docs/ARCHITECTURE.md, "Exit codes").
//
// Threads: the observers are called one at a time (never two at once), from the thread that
// called Execute or from a worker; everything in the request must outlive the call.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "harness/protocol/profile.hpp"
#include "harness/result/result.hpp"
#include "harness/result/run_report.hpp"
#include "harness/run/exit_code.hpp"
#include "harness/run/runner.hpp"
#include "harness/scenario/model.hpp"
#include "harness/session/transport.hpp"

namespace fakehost::schema {
class FrameSchema;
}

namespace fakehost::run {

/// Scenarios played at once when a request says 0: one per core.
int DefaultJobs();

/// Now, as "2026-12-02T04:59:32Z".
std::string NowIso8601();

/// How a plugin of the request stands once its manifest is read and its spawn resolved.
enum class PluginState {
  kReady,       ///< its scenarios are played
  kRefused,     ///< its host refuses its manifest: its scenarios are not run
  kUnrunnable,  ///< (a corpus only) its manifest cannot be read, or it cannot be spawned
};

/// One plugin of a run, as the observers see it.
struct PluginRun {
  std::size_t index = 0;    ///< in RunRequest::plugins
  result::PluginInfo info;  ///< id and version (from its manifest when it has one), dir, argv
  PluginState state = PluginState::kReady;
  std::string detail;                 ///< kUnrunnable: why, on one line; "" otherwise
  std::size_t manifest_problems = 0;  ///< the problems its host's loader finds in its manifest
};

/// What a run settled before its first play, for `on_start`.
struct RunPlan {
  result::RunReport report;  ///< the report's header: protocol, suites, plugin (one), jobs, shard
  /// The scenarios the interpreter plays against each plugin, in id order, shard applied.
  std::vector<const scenario::Scenario*> selected;
  /// manifest/loads-in-host when it is selected (and the plugins have manifests), else null.
  const scenario::Scenario* manifest = nullptr;
};

struct RunRequest {
  // --- the protocol
  const protocol::Profile* profile = nullptr;   ///< required
  const schema::FrameSchema* schema = nullptr;  ///< the protocol's frame schema; may be null

  // --- the scenarios
  std::string standard_suite;       ///< the protocol's own suite: `standard`, fragments
  std::vector<std::string> suites;  ///< `--suite` as given; none: the standard suite alone
  Selection selection;
  /// The flags that select, named when nothing is selected.
  std::string selection_flags = "--only/--skip/--tag/--skip-tag";
  std::string shard;  ///< "K/N": play shard K of N of the selection (shard.hpp); "": all of it

  // --- the plugins
  /// One plugin; or, with `corpus`, every plugin of a corpus. manifest/loads-in-host heads the
  /// suite when they are directories with a manifest.
  std::vector<PluginSpec> plugins;
  /// A corpus (certify): each plugin is prepared only when the pool reaches it (a resolved plugin
  /// holds its manifest and environment), one that cannot be run is that plugin's state, not bad
  /// input, and results are handed to the observers, not kept in the outcome's report.
  bool corpus = false;

  // --- how
  int jobs = 0;         ///< scenarios at once, over all plugins; 0: DefaultJobs()
  int repeat = 1;       ///< plays of every scenario (a stability check)
  bool strict = false;  ///< a should-level miss fails its scenario (Grade)
  /// `--revision R`: offer R and judge only a plugin that speaks it (a profile with revisions);
  /// "": offer the profile's and judge by whatever known revision the plugin answers.
  std::string revision;
  bool fail_untested = false;
  std::string timeout;  ///< `--timeout`, a duration: the hard limit per scenario; "" the profile's
  LimitFlags limits;
  std::string expected_failures;        ///< FILE: the known-failure baseline (xfail, stale)
  std::string write_expected_failures;  ///< FILE: this run's failures written as a baseline
  const std::atomic<bool>* interrupted = nullptr;  ///< set: the rest of the run is not run
  session::ChildFactory spawn;  ///< makes each plugin process; empty: a real one (tests: a fake)
  std::string tool_version;     ///< for the report
  std::ostream* err = nullptr;  ///< bad input and notes, one "fakehost: ..." line each; null: none

  // --- observers
  std::function<void(const RunPlan&)> on_start;  ///< once, before the first result
  /// Every result as it ends (expected failures applied), the manifest check's and the not-run
  /// ones of a plugin that is not played included.
  std::function<void(const PluginRun&, const result::ScenarioResult&)> on_result;
  /// A plugin whose last result has been handed to on_result.
  std::function<void(const PluginRun&)> on_plugin;
};

struct RunOutcome {
  /// kBadInput: nothing was run. For one plugin, the run's code: kHarnessError (a scenario
  /// errored, the run was interrupted, the baseline could not be written), else the Verdict.
  /// For a corpus, kHarnessError or kOk: judging its plugins is the caller's.
  int exit_code = kOk;
  /// The plugin's report, every result in id order, manifest/loads-in-host first; for a corpus,
  /// the header alone. Writing it is the caller's (a report not written is exit 3).
  result::RunReport report;
  /// Every scenario id of the suites, and the day the baseline was applied (YYYY-MM-DD, UTC):
  /// what WriteExpectedFailures needs to write this run's failures as a baseline.
  std::vector<std::string> suite_ids;
  std::string today;
};

RunOutcome Execute(const RunRequest& request);

}  // namespace fakehost::run
