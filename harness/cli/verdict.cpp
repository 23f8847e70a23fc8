#include "harness/cli/verdict.hpp"

#include <algorithm>

#include "harness/cli/cli.hpp"
#include "harness/report/reporter.hpp"
#include "harness/run/manifest_scenario.hpp"

namespace fakehost::cli {

int Verdict(const run::RunReport& report, const VerdictRules& rules, std::ostream& err) {
  const run::Summary& m = report.summary;
  // The manifest check alone is not a check of the plugin's protocol behaviour (nor is it when
  // the manifest's refusal is a listed, expected failure), unless the host never spawns the
  // plugin: then the manifest is all its host reads, and its check is the plugin's whole test.
  int manifest_passed = static_cast<int>(
      std::count_if(report.scenarios.begin(), report.scenarios.end(), [&](const auto& r) {
        if (!report.plugin.never_spawned.empty()) return false;
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

bool MakeReporters(const std::string& out_dir, const std::vector<std::string>& specs,
                   const std::string& transcripts_dir,
                   std::vector<std::unique_ptr<report::Reporter>>* files, std::ostream& err) {
  std::string error;
  if (!report::CheckDestinationDir(out_dir, &error) ||
      !report::CheckDestination(out_dir + "/report.json", &error)) {
    err << "fakehost: --out " << out_dir << ": " << error << "\n";
    return false;
  }
  files->push_back(report::MakeJsonReporter(out_dir + "/report.json"));
  for (const auto& spec : specs) {
    auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
      err << "fakehost: --report takes FORMAT=PATH, got '" << spec << "'\n";
      return false;
    }
    auto reporter = report::MakeFileReporter(spec.substr(0, eq), spec.substr(eq + 1), &error);
    if (!reporter || !report::CheckDestination(spec.substr(eq + 1), &error)) {
      err << "fakehost: --report " << spec << ": " << error << "\n";
      return false;
    }
    files->push_back(std::move(reporter));
  }
  if (!transcripts_dir.empty()) {
    if (!report::CheckDestinationDir(transcripts_dir, &error)) {
      err << "fakehost: --transcripts " << transcripts_dir << ": " << error << "\n";
      return false;
    }
    files->push_back(report::MakeTranscriptsReporter(transcripts_dir));
  }
  return true;
}

bool WriteReports(const std::vector<std::unique_ptr<report::Reporter>>& files,
                  const run::RunReport& report, std::ostream& err) {
  bool written = true;
  for (const auto& r : files) {
    std::string error;
    if (!r->RunEnded(report, &error)) {
      err << "fakehost: " << error << "\n";
      written = false;
    }
  }
  return written;
}

}  // namespace fakehost::cli
