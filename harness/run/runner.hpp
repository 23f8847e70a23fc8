// Selects scenarios and plays them against a plugin, in parallel, each with its own process.
//
// Everything that can be checked before a plugin is spawned is checked here first (the profile,
// the schema, every scenario file, the plugin's manifest and entrypoint, the selection), so that
// bad input is reported as such (exit 2) with nothing run. Results stream out through a callback
// as scenarios finish and are also returned in id order.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness/protocol/profile.hpp"
#include "harness/run/run_report.hpp"
#include "harness/scenario/interpreter.hpp"
#include "harness/scenario/model.hpp"

namespace fakehost::schema {
class FrameSchema;
}

namespace fakehost::run {

struct PluginSpec {
  std::string dir;                ///< a plugin directory with the profile's manifest, or
  std::vector<std::string> argv;  ///< a bare executable and its arguments
  std::vector<std::string> env;   ///< KEY=VALUE added to (or replacing in) its environment
  std::string id_override;        ///< plugin id when there is no manifest
  std::string config_path;        ///< --config FILE; "" = DIR/fakehost.yaml when it exists
};

/// Reads the manifest and the plugin's fakehost.yaml and builds the spawn spec. False with a
/// message for bad input: a directory that does not exist, no or unreadable manifest, a missing
/// or non-executable entrypoint, a fakehost.yaml with errors (each with file:line:col).
bool ResolvePlugin(const protocol::Profile& profile, const PluginSpec& spec,
                   scenario::PluginTarget* out, std::string* error);

/// Loads every scenario below `suite_dir` (fragments from `<suite_dir>/fragments` and
/// `<profile dir>/fragments`). False if any file has errors; all errors are returned.
bool LoadSuite(const std::string& suite_dir, const protocol::Profile& profile,
               std::vector<scenario::Scenario>* out, std::vector<std::string>* errors);

/// Scenario ids matching any `only` glob (all when empty) and no `skip` glob.
std::vector<const scenario::Scenario*> Select(const std::vector<scenario::Scenario>& all,
                                              const std::vector<std::string>& only,
                                              const std::vector<std::string>& skip);

struct RunOptions {
  int jobs = 1;
  int repeat = 1;  ///< play every scenario this many times (a stability check)
  scenario::PlayOptions play;
};

/// Plays the selected scenarios, `jobs` at a time; `on_result` is called (serialised) as each
/// finishes. Scenarios not started because of an interruption are reported as not run.
std::vector<scenario::ScenarioResult> RunScenarios(
    const std::vector<const scenario::Scenario*>& selected, const protocol::Profile& profile,
    const schema::FrameSchema* schema, const scenario::PluginTarget& plugin,
    const RunOptions& options,
    const std::function<void(const scenario::ScenarioResult&)>& on_result);

}  // namespace fakehost::run
