// manifest/loads-in-host: the check that heads every `fakehost run` report.
//
// Before anything is spawned, the plugin's manifest is read as its real host's loader reads it
// (harness/plugin/manifest.hpp). The outcome is reported as a must-level scenario like any
// other, so a refused manifest is the plugin's failure (exit 1) with every problem listed at
// its line:column, never a harness error. Its title, section and requirement come from the
// profile.
#pragma once

#include <string>

#include "harness/plugin/manifest.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/result/result.hpp"
#include "harness/scenario/model.hpp"

namespace fakehost::run {

/// The id of the scenario: selectable with --only/--skip like any other.
inline constexpr const char* kManifestScenarioId = "manifest/loads-in-host";

/// The scenario as `fakehost list` shows it (no plugin needed).
scenario::Scenario ManifestScenario(const protocol::Profile& profile);

/// The scenario's result for a checked manifest: pass, or fail with one miss per problem.
result::ScenarioResult ManifestResult(const protocol::Profile& profile,
                                      const plugin::ManifestCheck& check, double duration_ms);

}  // namespace fakehost::run
