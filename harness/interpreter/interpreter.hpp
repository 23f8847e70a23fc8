// Plays one scenario against one freshly spawned plugin and grades it.
//
// The interpreter owns the session for the scenario's lifetime: it spawns the plugin, runs the
// steps in order, turns every miss and every always-on finding into a Failure, stops the plugin
// (graded by a `shutdown` step, or an ungraded teardown) and returns plain results. A must-level
// miss ends the steps (later steps would only report its consequences); a should-level miss is
// recorded and the steps go on. Every wait is bounded by the step's deadline and by the
// scenario's hard limit, so a hung plugin costs at most that limit.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "harness/json/rapidjson.hpp"
#include "harness/process/child.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/result/result.hpp"
#include "harness/scenario/model.hpp"
#include "harness/scenario/template.hpp"
#include "harness/session/transport.hpp"

namespace fakehost::schema {
class FrameSchema;
}

namespace fakehost::interpreter {

/// The plugin under test, resolved once per run.
struct PluginTarget {
  process::SpawnSpec spawn;                             ///< argv, cwd, complete environment
  std::shared_ptr<const rapidjson::Document> manifest;  ///< null for a bare executable
  std::string id, version, dir;
  /// The id is the user's (--plugin-id, fakehost.yaml plugin_id:): what the plugin announces in
  /// its handshake does not replace it. `config_plugin_id` is the file's.
  bool id_given = false;
  std::string config_plugin_id = {};
  /// fakehost.yaml `tools: {call: ...}`: the tools fakehost may call on its own to make triggers,
  /// besides those the plugin annotates read-only (run::DeriveTriggers).
  std::vector<std::string> call_tools = {};
  bool call_all_tools = false;
  /// fakehost.yaml env entries, KEY=VALUE, whose value names ${scenario.data_dir}: filled in and
  /// added to the environment per scenario (each gets a directory of its own).
  std::vector<std::string> scenario_env = {};
  /// From the plugin's fakehost.yaml: NAME -> {method, params}, the request that makes the
  /// plugin act as the trigger NAME says (templates, filled in when sent).
  std::map<std::string, scenario::JsonPtr> triggers;
  /// Triggers the plugin cannot have (fakehost.yaml NAME: {none: "why"}): NAME -> why. The
  /// scenarios that send one are not applicable, with that reason.
  std::map<std::string, std::string> triggers_none;
  /// fakehost.yaml `host: replies:`: METHOD -> the fake host's answer in place of the profile's.
  std::map<std::string, scenario::JsonPtr, std::less<>> host_replies;
  /// fakehost.yaml's config: (Flash: FLASH_PLUGIN_CONFIG) for scenarios that give none; may be
  /// null.
  scenario::JsonPtr config;
  std::string config_file;  ///< the fakehost.yaml read, "" if none (for messages)
  /// Why its host never spawns this plugin, so that no scenario applies to it (a Flash
  /// manifest-only plugin: "the host never spawns a manifest-only plugin"); "" when it does.
  /// `spawn.argv` is then empty. Set by run::ResolvePlugin.
  std::string never_spawned;
  /// What the run's probe (profile revisions.probe) found, once per plugin: which revisions
  /// without a handshake the plugin speaks. Set by run::ProbeRevisions.
  struct Probe {
    bool done = false;                ///< the probe was played
    bool answered = false;            ///< it answered with a list (a result or a listed error)
    std::vector<std::string> listed;  ///< the revisions it listed, as it listed them
    std::string summary;              ///< "server/discover listed 2026-07-28, 2025-11-25"
    /// The answer frame: under a revision without a handshake, what the plugin announces is
    /// read in it (MCP: the DiscoverResult's capabilities, where initialize's result has them).
    std::shared_ptr<const rapidjson::Document> answer;
  } probe;
  /// What run::DeriveTriggers made of the plugin's own lists (profile derive), for the triggers
  /// its fakehost.yaml does not give: NAME -> what serves it ("tools/call get_time"), and NAME
  /// -> why none could be made. `summary` is one line for the report.
  struct Derived {
    std::map<std::string, std::string> served_by = {};
    std::map<std::string, std::string> why_not = {};
    std::string summary = {};
  } derived = {};
};

struct PlayOptions {
  bool strict = false;
  /// The revision the host offers and requires (`--revision R`), for a profile with revisions;
  /// "": the profile's offer, and whatever known revision the plugin answers.
  std::string revision;
  /// The frame schemas of the revisions that have their own (profile known[].schema), by
  /// revision; may be null.
  const std::map<std::string, const schema::FrameSchema*>* revision_schemas = nullptr;
  scenario::Ms timeout{0};  ///< hard limit override; 0: the scenario's, else the profile's
  /// Payload bytes the transcript keeps per frame; 0: the session's default. A play that reads
  /// the plugin's answers back from its transcript (run::DeriveTriggers) keeps them whole.
  std::size_t transcript_text_cap = 0;
  /// Set from outside (SIGINT) to end the scenario at its next event.
  const std::atomic<bool>* interrupted = nullptr;
  /// Makes the plugin's process; empty: a real one from the target's SpawnSpec. The player's
  /// unit tests give a fake (harness/session/test_support/fake_child.hpp).
  session::ChildFactory spawn;
};

/// The message a `send`/`notify` step sends, before the profile's envelope (protocol::HostFrame):
/// id (`auto_id` when the step leaves it to the host), method, params with variables filled
/// in by `lookup`. False with `*error` when a variable is unknown.
bool BuildSendMessage(const scenario::Send& send, const scenario::Lookup& lookup,
                      const rapidjson::Value& auto_id, rapidjson::Document* out,
                      std::string* error);

result::ScenarioResult Play(const scenario::Scenario& scenario, const protocol::Profile& profile,
                            const schema::FrameSchema* schema, const PluginTarget& plugin,
                            const PlayOptions& options);

}  // namespace fakehost::interpreter
