#include "harness/cli/verdict.hpp"

#include <algorithm>

#include "harness/cli/cli.hpp"
#include "harness/run/manifest_scenario.hpp"

namespace fakehost::cli {

int Verdict(const run::RunReport& report, const VerdictRules& rules, std::ostream& err) {
  const run::Summary& m = report.summary;
  // The manifest check alone is not a check of the plugin's protocol behaviour (nor is it when
  // the manifest's refusal is a listed, expected failure).
  int manifest_passed = static_cast<int>(
      std::count_if(report.scenarios.begin(), report.scenarios.end(), [](const auto& r) {
        return r.id == run::kManifestScenarioId &&
               (r.status == scenario::Status::kPass || r.status == scenario::Status::kXfail);
      }));
  if (!rules.shard && m.passed - manifest_passed + m.failed + m.warned + m.xfailed + m.stale == 0) {
    err << "fakehost: no scenario checked anything about this plugin (" << m.untested
        << " untested, " << m.skipped << " not applicable): this is not a pass\n";
    return kFailures;
  }
  if (rules.fail_untested && m.untested > 0) {
    err << "fakehost: " << m.untested
        << " scenarios untested (--fail-untested): give their triggers in fakehost.yaml\n";
    return kFailures;
  }
  return m.failed + m.stale > 0 ? kFailures : kOk;
}

}  // namespace fakehost::cli
