#include "harness/run/verdict.hpp"

#include <algorithm>

#include "harness/run/exit_code.hpp"
#include "harness/run/manifest_scenario.hpp"

namespace fakehost::run {

int Verdict(const result::RunReport& report, const VerdictRules& rules, std::ostream& err) {
  const result::Summary& m = report.summary;
  // The manifest check alone is not a check of the plugin's protocol behaviour (nor is it when
  // the manifest's refusal is a listed, expected failure), unless the host never spawns the
  // plugin: then the manifest is all its host reads, and its check is the plugin's whole test.
  int manifest_passed = static_cast<int>(
      std::count_if(report.scenarios.begin(), report.scenarios.end(), [&](const auto& r) {
        if (!report.plugin.never_spawned.empty()) return false;
        return r.id == kManifestScenarioId &&
               (r.status == result::Status::kPass || r.status == result::Status::kXfail);
      }));
  if (!rules.shard && m.passed - manifest_passed + m.failed + m.warned + m.xfailed + m.stale == 0) {
    err << "fakehost: no scenario checked anything about this plugin (" << m.untested
        << " untested, " << m.skipped << " not applicable): this is not a pass\n";
    return kFailures;
  }
  // Most of what applies untested is a run that checked little, whatever its counts say.
  const int judged = m.passed + m.failed + m.warned + m.xfailed + m.stale;
  if (m.untested > judged)
    err << "fakehost: " << m.untested << " scenarios were untested and only " << judged
        << " judged: the plugin's fakehost.yaml lacks the triggers they need (each untested line "
           "above names its own)\n";
  if (rules.fail_untested && m.untested > 0) {
    err << "fakehost: " << m.untested
        << " scenarios untested (--fail-untested): give their triggers in fakehost.yaml\n";
    return kFailures;
  }
  return m.failed + m.stale > 0 ? kFailures : kOk;
}

}  // namespace fakehost::run
