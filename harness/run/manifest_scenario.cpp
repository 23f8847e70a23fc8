#include "harness/run/manifest_scenario.hpp"

namespace fakehost::run {

scenario::Scenario ManifestScenario(const protocol::Profile& profile) {
  scenario::Scenario s;
  s.id = kManifestScenarioId;
  s.title = "The host loads the plugin's " + profile.manifest().file;
  s.spec = profile.manifest().spec;
  s.requirement = profile.manifest().requirement;
  s.level = result::Level::kMust;
  s.tags = {"manifest"};
  s.loc = {profile.manifest().schema.empty() ? profile.dir() : profile.manifest().schema, 0, 0};
  return s;
}

result::ScenarioResult ManifestResult(const protocol::Profile& profile,
                                      const plugin::ManifestCheck& check, double duration_ms) {
  result::ScenarioResult r = scenario::ResultFor(ManifestScenario(profile), result::Status::kPass);
  r.loc = {check.file, 1, 1};
  r.duration_ms = duration_ms;
  r.steps_total = r.steps_run = 1;
  for (const auto& p : check.problems) {
    result::Failure f;
    f.level = result::Level::kMust;
    f.check = "manifest " + p.rule;
    f.loc = {check.file, p.line, p.column};
    f.message = p.message + (p.line > 0 ? " (" + f.loc.ToString() + ")" : std::string());
    r.failures.push_back(std::move(f));
  }
  if (!r.failures.empty()) r.status = result::Status::kFail;
  return r;
}

}  // namespace fakehost::run
