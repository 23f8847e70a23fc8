// fakehost.yaml: what fakehost needs to know about a plugin that its manifest cannot say.
//
// Real hosts refuse manifest keys they do not know, so nothing fakehost needs may live in a
// plugin's manifest. A plugin author puts it in `fakehost.yaml` beside the manifest (or passes
// `--config FILE`): the protocol (when the directory does not make it plain), for a protocol
// whose plugins have no manifest the command that starts the plugin, environment
// variables, the Flash configuration object, and the triggers — NAME -> the request that makes
// the plugin act as the profile's trigger NAME promises (see the profiles' "triggers"), or
// NAME: {none: "why"} for a trigger the plugin cannot have (its scenarios are then not
// applicable, with that reason); and `host: replies:`, METHOD -> the fake host's answer to
// that plugin->host method in place of the profile's. The file is YAML (so JSON too); unknown
// keys, wrong types, unknown trigger names and methods the protocol does not have are errors
// with file:line:col, like a scenario's.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/protocol/profile.hpp"
#include "harness/scenario/load_error.hpp"
#include "harness/scenario/model.hpp"

namespace fakehost::schema {
class FrameSchema;
}

namespace fakehost::run {

/// The name looked for beside the manifest.
inline constexpr const char* kPluginConfigName = "fakehost.yaml";

struct PluginConfig {
  std::string file;      ///< where it was read ("" = there is none)
  std::string protocol;  ///< "" = not given
  /// `plugin_id:`: the name reports give the plugin, in place of the one it announces (MCP's
  /// serverInfo) or its command's; "" = not given.
  std::string plugin_id;
  /// `tools: {call: ...}`: the tools fakehost may call on its own to make triggers, besides those
  /// the plugin annotates read-only; `call: all` opts into every one.
  std::vector<std::string> call_tools;
  bool call_all_tools = false;
  result::SourceLoc tools_loc;
  result::SourceLoc protocol_loc;
  /// `command:` [PROGRAM, ARGS...]: how a plugin without a manifest is started (see
  /// run::ResolvePlugin); empty when not given.
  std::vector<std::string> command;
  result::SourceLoc command_loc;
  std::vector<std::string> env;  ///< KEY=VALUE, in the file's order ($${ written as ${)
  /// KEY=VALUE entries whose value names ${scenario.data_dir}: a directory of each scenario's own
  /// (parallel scenarios never share it), filled in per scenario by the player.
  std::vector<std::string> scenario_env;
  scenario::JsonPtr config;  ///< `config:`, or null
  result::SourceLoc config_loc;
  std::map<std::string, scenario::JsonPtr> triggers;  ///< NAME -> {method, params}
  std::map<std::string, std::string> triggers_none;   ///< NAME -> why the plugin has none
  std::map<std::string, result::SourceLoc> trigger_locs;
  /// `host: replies:` METHOD -> the reply's members ({result: ...}, or {error: ...} where the
  /// protocol's answers carry errors).
  std::map<std::string, scenario::JsonPtr, std::less<>> host_replies;
  std::map<std::string, result::SourceLoc> host_reply_locs;
};

/// Parses a fakehost.yaml text (`file` names it in messages). Checks its shape; which trigger
/// names exist depends on the protocol: see CheckPluginConfig.
bool ParsePluginConfig(std::string_view text, const std::string& file, PluginConfig* out,
                       std::vector<scenario::LoadError>* errors);

/// Reads `path` (size-capped) and parses it.
bool ReadPluginConfig(const std::string& path, PluginConfig* out,
                      std::vector<scenario::LoadError>* errors);

/// Checks a parsed config against the protocol it is used with: `protocol:` names it,
/// `command:` only where the profile has no manifest (a manifest says how to start its plugin),
/// every
/// trigger is one the profile knows, `config:` only where the profile passes one to the plugin,
/// every `host: replies:` method is one the profile's host answers, shaped as its answers are.
/// With `frames` (the protocol's frame schema), each `host: replies:` answer must also be valid as
/// the frame schema's response to its method, as the host would send it.
bool CheckPluginConfig(const PluginConfig& config, const protocol::Profile& profile,
                       std::vector<scenario::LoadError>* errors,
                       const schema::FrameSchema* frames = nullptr);

}  // namespace fakehost::run
