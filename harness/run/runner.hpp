// Resolves a plugin, loads and selects scenarios, and plays one scenario against a plugin.
//
// The pieces of a run that can be checked before a plugin is spawned (the plugin's manifest and
// entrypoint, every scenario file, the selection), each reporting bad input as such, and the one
// way to play a scenario. run::Execute (execute.hpp) puts them together.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/interpreter/interpreter.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/result/run_report.hpp"
#include "harness/scenario/model.hpp"

namespace fakehost::schema {
class FrameSchema;
}

namespace fakehost::run {

struct PluginSpec {
  /// A plugin directory: with the profile's manifest, or, for a profile without one, with a
  /// fakehost.yaml whose `command:` starts the plugin. Or:
  std::string dir;
  std::vector<std::string> argv;  ///< a bare executable and its arguments, verbatim
  std::vector<std::string> env;   ///< KEY=VALUE added to (or replacing in) its environment
  /// --plugin-id: the plugin id when there is no manifest. Without it a bare executable is
  /// dev.fakehost.unnamed where the profile has a manifest (its id format is the manifest's),
  /// else derived from the command (run::DerivePluginId).
  std::string id_override;
  std::string config_path;  ///< --config FILE; "" = DIR/fakehost.yaml when it exists
};

/// The start of PluginTarget::never_spawned for a plugin whose manifest has no exec (Flash).
inline constexpr const char* kNeverSpawnedManifestOnly =
    "the host never spawns a manifest-only plugin";

/// Reads the manifest and the plugin's fakehost.yaml and builds the spawn spec. False with a
/// message for bad input: a directory that does not exist, no or unreadable manifest, a missing
/// or non-executable entrypoint, a fakehost.yaml with errors (each with file:line:col). A
/// manifest without the profile's exec (a Flash manifest-only plugin) resolves with nothing to
/// spawn: `never_spawned` says why. For a profile without a manifest, a directory's plugin is
/// its fakehost.yaml's `command:`, run in the file's directory (a relative program with a '/'
/// is a path from there, a bare one is looked up in PATH); `argv`, when given, wins over any
/// `command:` of a --config file. With `frames`, fakehost.yaml's `host: replies:` are checked
/// against the frame schema too (CheckPluginConfig).
bool ResolvePlugin(const protocol::Profile& profile, const PluginSpec& spec,
                   interpreter::PluginTarget* out, std::string* error,
                   const schema::FrameSchema* frames = nullptr);

/// Loads every scenario below each of `suite_dirs`, in id order. A scenario's `use:` fragments
/// come from its own suite's `fragments/`, then `<standard_dir>/fragments` (the protocol's own
/// suite, scenarios/<protocol>), then `<profile dir>/fragments`. Ids must be unique across the
/// suites: a clash is an error naming both files. False if any file has errors; all errors are
/// returned.
bool LoadSuites(const std::vector<std::string>& suite_dirs, const std::string& standard_dir,
                const protocol::Profile& profile, std::vector<scenario::Scenario>* out,
                std::vector<std::string>* errors);

/// The suite directories `--suite` flags name: none is the standard suite alone, and the word
/// `standard` names it among others. A directory given twice counts once.
std::vector<std::string> SuiteDirs(const std::vector<std::string>& flags,
                                   const std::string& standard_dir);

/// LoadSuites of the one suite `suite_dir`, taken as the standard one too.
bool LoadSuite(const std::string& suite_dir, const protocol::Profile& profile,
               std::vector<scenario::Scenario>* out, std::vector<std::string>* errors);

/// Which scenarios a run plays. A scenario is selected when its id matches any `only` glob (or
/// `only` is empty), it has any of `tags` (or `tags` is empty), its id matches no `skip` glob
/// and it has none of `skip_tags`.
struct Selection {
  std::vector<std::string> only, skip;       ///< fnmatch globs over scenario ids
  std::vector<std::string> tags, skip_tags;  ///< tag names, compared exactly
};

/// The scenarios of `all` that `selection` selects, in their order.
std::vector<const scenario::Scenario*> Select(const std::vector<scenario::Scenario>& all,
                                              const Selection& selection);

/// Plays one scenario: not run once `options.interrupted` is set; not applicable (skip, with the
/// reason) for a plugin its host never spawns; an exception is the scenario's error. The one way
/// every command plays a scenario (run::Execute for run and certify, the fuzzer for each session).
result::ScenarioResult PlayScenario(const scenario::Scenario& s, const protocol::Profile& profile,
                                    const schema::FrameSchema* schema,
                                    const interpreter::PluginTarget& plugin,
                                    const interpreter::PlayOptions& options);

/// `--limit-cpu SECONDS` and `--limit-memory MIB` (0: none; absent: the profile's).
struct LimitFlags {
  std::optional<std::int64_t> cpu_seconds, memory_mib;
};

/// The rlimits of every plugin process: the profile's, overridden by `flags`. False with `*error`
/// naming the flag when one is out of range (protocol::ResolveLimits).
bool PluginLimits(const protocol::Profile& profile, const LimitFlags& flags, process::Limits* out,
                  std::string* error);

}  // namespace fakehost::run
