// run::ResolvePlugin (runner.hpp): from a plugin directory or a command line to what is spawned.
//
// A plugin is found one of three ways: its manifest (RIM's entrypoint, Flash's exec, or a Flash
// manifest-only plugin that is never spawned); for a profile without a manifest, the `command:`
// of the directory's fakehost.yaml; or the command line after `--`. Each checks what it can
// before anything is forked, so a plugin that cannot start is bad input, not an error in every
// scenario.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "harness/json/json.hpp"
#include "harness/json/text_file.hpp"
#include "harness/plugin/launch.hpp"
#include "harness/process/resolve.hpp"
#include "harness/run/plugin_config.hpp"
#include "harness/run/plugin_id.hpp"
#include "harness/run/runner.hpp"

extern char** environ;

namespace fakehost::run {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> BuildEnvironment(const protocol::Profile& profile,
                                          const std::vector<std::string>& add) {
  std::map<std::string, std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string kv = *e;
    auto eq = kv.find('=');
    if (eq == std::string::npos) continue;
    std::string key = kv.substr(0, eq);
    if (profile.environment().scrub &&
        std::find(profile.environment().allow.begin(), profile.environment().allow.end(), key) ==
            profile.environment().allow.end())
      continue;
    env[key] = kv.substr(eq + 1);
  }
  for (const auto& kv : add) {
    auto eq = kv.find('=');
    env[kv.substr(0, eq)] = eq == std::string::npos ? "" : kv.substr(eq + 1);
  }
  std::vector<std::string> out;
  for (const auto& [k, v] : env) out.push_back(k + "=" + v);
  return out;
}

std::string String(const rapidjson::Value& doc, const std::string& pointer) {
  const rapidjson::Value* v = pointer.empty() ? nullptr : json::Resolve(doc, pointer);
  return v && v->IsString() ? std::string(v->GetString(), v->GetStringLength()) : std::string();
}

bool CheckExecutable(const std::string& path, const std::string& what, std::string* error) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    *error = what + " " + path + " does not exist";
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    *error = what + " " + path + " is a directory, not an executable file";
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    *error = what + " " + path + " is not a regular file";
    return false;
  }
  if (access(path.c_str(), X_OK) != 0) {
    *error = what + " " + path +
             " is not executable (chmod +x it: the host runs it directly, so a script needs "
             "its exec bit and a #! line)";
    return false;
  }
  return true;
}

// RIM §2: the host executes <plugin dir>/<entrypoint> directly, with no interpreter.
bool ResolveEntrypoint(const protocol::Profile& profile, const fs::path& dir,
                       const std::string& manifest_path, const rapidjson::Value& manifest,
                       interpreter::PluginTarget* out, std::string* error) {
  std::string entry = String(manifest, profile.manifest().entrypoint);
  if (entry.empty()) {
    *error = manifest_path + ": no entrypoint at " + profile.manifest().entrypoint;
    return false;
  }
  if (!plugin::PathStaysInside(entry)) {
    *error = manifest_path + ": the entrypoint " + entry +
             " is outside the plugin directory (the host executes <plugin dir>/<entrypoint>); "
             "nothing was run. `fakehost manifest check` lists every manifest problem";
    return false;
  }
  std::string resolved;
  if (!plugin::ResolvesInside(dir.string(), entry, &resolved)) {
    *error = manifest_path + ": the entrypoint " + entry + " leads to " + resolved +
             ", outside the plugin directory (a symlink out of it is not the plugin's own "
             "file); nothing was run. `fakehost manifest check` lists every manifest problem";
    return false;
  }
  std::string path = (dir / entry).lexically_normal().string();
  if (!CheckExecutable(path, "the entrypoint", error) ||
      !plugin::CheckExecFormat(path, "the entrypoint", error))
    return false;
  out->spawn.argv = {path};
  return true;
}

// Flash: exec is an argv array; ./-style paths resolve against the plugin root, bare names
// through PATH, absolute paths are taken as they are. No exec: a manifest-only plugin, which
// its host loads and never spawns (flash-manifest.md, Activation: "manifest-only: no exec,
// never spawned"), so it resolves with nothing to spawn and every scenario is not applicable.
bool ResolveExec(const protocol::Profile& profile, const fs::path& dir,
                 const std::string& manifest_path, const rapidjson::Value& manifest,
                 interpreter::PluginTarget* out, std::string* error) {
  const rapidjson::Value* exec = json::Resolve(manifest, profile.manifest().exec);
  if (!exec) {
    out->never_spawned = std::string(kNeverSpawnedManifestOnly) + " (" + profile.manifest().file +
                         " has no " + profile.manifest().exec.substr(1) + ")";
    return true;
  }
  if (!exec->IsArray() || exec->Empty()) {
    *error = manifest_path + ": " + profile.manifest().exec + " must be a non-empty argv array";
    return false;
  }
  for (const auto& arg : exec->GetArray()) {
    if (!arg.IsString()) {
      *error = manifest_path + ": every element of exec must be a string";
      return false;
    }
    out->spawn.argv.emplace_back(arg.GetString(), arg.GetStringLength());
  }
  std::string& exe = out->spawn.argv[0];
  if (exe.empty()) {
    *error = manifest_path + ": exec[0] is empty";
    return false;
  }
  if (exe[0] != '/' && exe.find('/') != std::string::npos) {
    if (!plugin::PathStaysInside(exe)) {
      *error = manifest_path + ": exec[0] " + exe +
               " leaves the plugin directory (a relative exec resolves against the plugin "
               "root); nothing was run";
      return false;
    }
    exe = (dir / exe).lexically_normal().string();
  }
  std::string found = exe;
  if (exe.find('/') == std::string::npos &&
      !process::ResolveExecutable(exe, dir.string(), out->spawn.env, &found, error)) {
    *error = manifest_path + ": exec[0] " + exe + ": " + *error;
    return false;
  }
  return (exe.find('/') == std::string::npos || CheckExecutable(exe, "exec[0]", error)) &&
         plugin::CheckExecFormat(found, "exec[0]", error);
}

}  // namespace

namespace {

// What a fakehost.yaml says of starting its plugin: `command:`, and the directory it is read
// relative to and run in (the file's own).
struct ConfigCommand {
  std::vector<std::string> argv;
  std::string file, dir;
};

// The plugin's fakehost.yaml (given, or beside the manifest): its environment, triggers,
// configuration and command. Its environment comes before --env, so a flag overrides the file.
bool ApplyPluginConfig(const protocol::Profile& profile, const PluginSpec& spec,
                       const schema::FrameSchema* frames, interpreter::PluginTarget* out,
                       std::vector<std::string>* env, ConfigCommand* command, std::string* error) {
  std::string path = spec.config_path;
  std::error_code ec;
  if (path.empty() && !spec.dir.empty()) {
    fs::path beside = fs::path(spec.dir) / kPluginConfigName;
    if (fs::exists(beside, ec)) path = beside.string();
  }
  if (path.empty()) return true;
  PluginConfig config;
  std::vector<scenario::LoadError> errors;
  if (ReadPluginConfig(path, &config, &errors)) CheckPluginConfig(config, profile, &errors, frames);
  if (!errors.empty()) {
    for (const auto& e : errors) *error += (error->empty() ? "" : "\n") + e.ToString();
    return false;
  }
  // A --env flag (already in `env`) overrides the file's entry of the same name, per-scenario
  // ones included.
  for (std::string& entry : config.scenario_env) {
    const std::string name = entry.substr(0, entry.find('=') + 1);
    if (std::none_of(env->begin(), env->end(),
                     [&](const std::string& kv) { return kv.rfind(name, 0) == 0; }))
      out->scenario_env.push_back(std::move(entry));
  }
  env->insert(env->begin(), config.env.begin(), config.env.end());
  out->triggers = std::move(config.triggers);
  out->triggers_none = std::move(config.triggers_none);
  out->host_replies = std::move(config.host_replies);
  out->config = config.config;
  out->config_file = path;
  out->call_tools = std::move(config.call_tools);
  out->call_all_tools = config.call_all_tools;
  if (!config.plugin_id.empty()) {
    out->config_plugin_id = config.plugin_id;
    out->id_given = true;
  }
  command->argv = std::move(config.command);
  command->file = path;
  fs::path dir = fs::absolute(path, ec).parent_path();
  command->dir = fs::weakly_canonical(dir, ec).string();
  if (ec) command->dir = dir.lexically_normal().string();
  return true;
}

// The id of a plugin without a manifest: --plugin-id, else derived from its command. A plugin
// directory whose command names its own file (`./server`, `node ./index.js`) is better told
// apart by the directory's name than by that file's, which is often the same in every plugin.
std::string CommandPluginId(const PluginSpec& spec, const std::vector<std::string>& argv,
                            const std::string& dir) {
  if (!spec.id_override.empty()) return spec.id_override;
  std::size_t word = 0;
  std::string id = DerivePluginId(argv, &word);
  const std::string& from = argv[word];
  if (!dir.empty() && from.find('/') != std::string::npos && from[0] != '/')
    return fs::path(dir).filename().string();
  return id;
}

// A plugin directory of a profile without a manifest: its fakehost.yaml's `command:` is the
// plugin, run in the file's directory. A relative program with a '/' is a path from there, a bare
// one is looked up in the PATH the plugin will have.
bool ResolveCommand(const PluginSpec& spec, const ConfigCommand& command,
                    interpreter::PluginTarget* out, std::string* error) {
  std::error_code ec;
  fs::path dir = fs::absolute(spec.dir, ec);
  if (!fs::is_directory(dir, ec)) {
    *error = "plugin directory " + spec.dir + " does not exist";
    return false;
  }
  dir = fs::canonical(dir, ec);
  if (command.file.empty()) {
    *error = "plugin directory " + spec.dir + " has no " + kPluginConfigName +
             " (a plugin without a manifest is started by its command: [PROGRAM, ARGS...])";
    return false;
  }
  if (command.argv.empty()) {
    *error = command.file +
             ": no command: (a plugin without a manifest is started by its "
             "command: [PROGRAM, ARGS...])";
    return false;
  }
  out->spawn.argv = command.argv;
  std::string& exe = out->spawn.argv[0];
  std::string resolved;
  if (exe.find('/') != std::string::npos) {
    if (exe[0] != '/') exe = (fs::path(command.dir) / exe).lexically_normal().string();
    if (!CheckExecutable(exe, command.file + ": command's program", error) ||
        !plugin::CheckExecFormat(exe, "command's program", error))
      return false;
  } else if (!process::ResolveExecutable(exe, command.dir, out->spawn.env, &resolved, error)) {
    *error = command.file + ": command's program " + exe + ": " + *error;
    return false;
  }
  out->dir = dir.string();
  out->spawn.cwd = command.dir;
  out->id = CommandPluginId(spec, command.argv, out->dir);
  return true;
}

bool ResolveTarget(const protocol::Profile& profile, const PluginSpec& spec,
                   const schema::FrameSchema* frames, interpreter::PluginTarget* out,
                   std::string* error);

}  // namespace

// The id a user gave (--plugin-id, then fakehost.yaml plugin_id:) wins over the manifest's or
// the command's, and over what the plugin announces in its handshake (run::DeriveTriggers).
bool ResolvePlugin(const protocol::Profile& profile, const PluginSpec& spec,
                   interpreter::PluginTarget* out, std::string* error,
                   const schema::FrameSchema* frames) {
  if (!ResolveTarget(profile, spec, frames, out, error)) return false;
  // execve's whole budget (ARG_MAX: the strings and their pointers): a command and environment
  // over it fail every spawn with E2BIG, which is known now.
  std::size_t bytes = 0;
  for (const auto* list : {&out->spawn.argv, &out->spawn.env})
    for (const std::string& s : *list) bytes += s.size() + 1 + sizeof(char*);
  const long arg_max = ::sysconf(_SC_ARG_MAX);
  if (arg_max > 0 && bytes > static_cast<std::size_t>(arg_max)) {
    *error = "the plugin's command and environment take " + std::to_string(bytes) +
             " bytes, more than the system's argument limit (ARG_MAX " + std::to_string(arg_max) +
             "): every spawn would fail with E2BIG";
    return false;
  }
  if (!spec.id_override.empty()) {
    out->id = spec.id_override;
    out->id_given = true;
  } else if (out->id_given) {
    out->id = out->config_plugin_id;
  }
  return true;
}

namespace {

// `-- ARGV`: the program as given, checked now (a path is executable, a bare name is on the
// plugin's PATH); the working directory is the harness's.
bool ResolveArgv(const protocol::Profile& profile, const PluginSpec& spec,
                 interpreter::PluginTarget* out, std::string* error) {
  if (spec.argv.empty()) {
    *error = "no plugin: give --plugin DIR or -- ARGV...";
    return false;
  }
  out->spawn.argv = spec.argv;
  const std::string& exe = spec.argv[0];
  if (exe.empty()) {
    *error = "-- '': the plugin program is an empty string";
    return false;
  }
  if (exe.find('/') != std::string::npos && !CheckExecutable(exe, "the plugin executable", error))
    return false;
  // A bare name is looked up in the PATH the plugin will have, as the spawn would: one that is
  // not there is bad input now, not an error in every scenario after the run.
  std::string resolved, cwd = fs::current_path().string();
  if (exe.find('/') == std::string::npos &&
      !process::ResolveExecutable(exe, cwd, out->spawn.env, &resolved, error)) {
    *error = "-- " + exe + ": " + *error;
    return false;
  }
  // Without a manifest the command is the plugin's identity; a protocol with one has its
  // own id format (its manifest schema's), which a placeholder meets and a program name may not.
  out->id = !profile.has_manifest()    ? CommandPluginId(spec, spec.argv, "")
            : spec.id_override.empty() ? "dev.fakehost.unnamed"
                                       : spec.id_override;
  out->dir = fs::current_path().string();
  return true;
}

// The manifest at `path` as a JSON object; null with `*error` (file:line:col when it does not
// parse) otherwise.
std::shared_ptr<rapidjson::Document> ReadManifest(const fs::path& path, std::string* error) {
  std::string text;
  if (!json::ReadFileCapped(path.string(), json::kInputFileCap, &text, error)) return nullptr;
  auto manifest = std::make_shared<rapidjson::Document>();
  json::ParseResult parsed = json::Parse(text, manifest.get());
  if (!parsed.ok) {
    json::LineCol lc = json::LocateOffset(text, parsed.error_offset);
    std::string what = parsed.error.substr(0, parsed.error.rfind(" at byte "));
    *error = path.string() + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.column) +
             ": " + what;
    return nullptr;
  }
  if (!manifest->IsObject()) {
    *error = path.string() + ": expected a JSON object";
    return nullptr;
  }
  return manifest;
}

// `--plugin DIR` of a protocol with manifests: the plugin is what its manifest says, started
// in DIR.
bool ResolveManifestDir(const protocol::Profile& profile, const PluginSpec& spec,
                        interpreter::PluginTarget* out, std::string* error) {
  std::error_code ec;
  fs::path dir = fs::absolute(spec.dir, ec);
  if (!fs::is_directory(dir, ec)) {
    *error = "plugin directory " + spec.dir + " does not exist";
    return false;
  }
  dir = fs::canonical(dir, ec);
  fs::path manifest_path = dir / profile.manifest().file;
  if (!fs::exists(fs::symlink_status(manifest_path, ec))) {
    *error = "plugin directory " + spec.dir + " has no " + profile.manifest().file;
    return false;
  }
  auto manifest = ReadManifest(manifest_path, error);
  if (!manifest) return false;
  out->manifest = manifest;
  out->dir = dir.string();
  out->id = spec.id_override.empty() ? String(*manifest, profile.manifest().id) : spec.id_override;
  out->version = String(*manifest, profile.manifest().version);
  if (out->id.empty()) {
    *error = manifest_path.string() + ": no plugin id at " + profile.manifest().id;
    return false;
  }
  out->spawn.cwd = dir.string();
  if (!profile.manifest().entrypoint.empty())
    return ResolveEntrypoint(profile, dir, manifest_path.string(), *manifest, out, error);
  return ResolveExec(profile, dir, manifest_path.string(), *manifest, out, error);
}

bool ResolveTarget(const protocol::Profile& profile, const PluginSpec& spec,
                   const schema::FrameSchema* frames, interpreter::PluginTarget* out,
                   std::string* error) {
  std::vector<std::string> env = spec.env;
  ConfigCommand command;
  if (!ApplyPluginConfig(profile, spec, frames, out, &env, &command, error)) return false;
  out->spawn.env = BuildEnvironment(profile, env);
  if (!spec.dir.empty() && !profile.has_manifest())
    return ResolveCommand(spec, command, out, error);
  if (spec.dir.empty()) return ResolveArgv(profile, spec, out, error);
  return ResolveManifestDir(profile, spec, out, error);
}

}  // namespace

}  // namespace fakehost::run
