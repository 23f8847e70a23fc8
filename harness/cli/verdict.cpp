#include "harness/cli/verdict.hpp"

#include <algorithm>

#include "harness/cli/cli.hpp"
#include "harness/run/manifest_scenario.hpp"

namespace fakehost::cli {

int Verdict(const run::RunReport& report, const VerdictRules& rules, std::ostream& err) {
  const run::Summary& m = report.summary;
  // The manifest check alone is not a check of the plugin's protocol behaviour.
  int manifest_passed = static_cast<int>(
      std::count_if(report.scenarios.begin(), report.scenarios.end(), [](const auto& r) {
        return r.id == run::kManifestScenarioId && r.status == scenario::Status::kPass;
      }));
  if (!rules.shard && m.passed - manifest_passed + m.failed + m.warned == 0) {
    err << "fakehost: no scenario checked anything about this plugin (" << m.untested
        << " untested, " << m.skipped << " not applicable): this is not a pass\n";
    return kFailures;
  }
  if (rules.fail_untested && m.untested > 0) {
    err << "fakehost: " << m.untested
        << " scenarios untested (--fail-untested): give their triggers in fakehost.yaml\n";
    return kFailures;
  }
  return m.failed > 0 ? kFailures : kOk;
}

}  // namespace fakehost::cli
