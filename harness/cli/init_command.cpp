// `fakehost init DIR [--protocol P] [--force] [--dist SOURCE] [-- COMMAND...]`: the files a plugin
// needs to run fakehost, locally and in CI.
//
// Writes a starter fakehost.yaml, an example scenario that uses the standard handshake fragment
// (init_starter.hpp) and a GitHub workflow (init_workflow.hpp) at the root of the git checkout.
// For a protocol whose plugins have no manifest (an MCP server), fakehost.yaml also says how the
// server starts: the command after --, else what the project's files say (init_project.hpp). It
// prints the command that runs the suite next, as it can be typed where init was run. Nothing
// existing is overwritten without --force; bad input writes nothing.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "harness/cli/cli.hpp"
#include "harness/cli/command.hpp"
#include "harness/cli/flag_checks.hpp"
#include "harness/cli/init_project.hpp"
#include "harness/cli/init_starter.hpp"
#include "harness/cli/init_workflow.hpp"
#include "harness/cli/manifest_command.hpp"
#include "harness/json/json.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/report/destination.hpp"
#include "harness/report/text.hpp"
#include "harness/run/plugin_config.hpp"
#include "harness/scenario/yaml_json.hpp"

#ifndef FAKEHOST_VERSION
#define FAKEHOST_VERSION "0.0.0"
#endif
// Where the workflow installs fakehost from (harness/cli/CMakeLists.txt, FAKEHOST_DIST).
#ifndef FAKEHOST_DIST
#define FAKEHOST_DIST "registry"
#endif

namespace fakehost::cli {
namespace {

namespace fs = std::filesystem;

// The root of the git checkout holding `dir` (the workflow must be there), or `dir` itself.
fs::path RepositoryRoot(const fs::path& dir) {
  std::error_code ec;
  for (fs::path p = dir; !p.empty(); p = p.parent_path()) {
    if (fs::exists(p / ".git", ec)) return p;
    if (p == p.parent_path()) break;
  }
  return dir;
}

// `path` as the user would type it: relative to the working directory when below it.
std::string Shown(const fs::path& path) {
  std::error_code ec;
  fs::path rel = path.lexically_relative(fs::current_path(ec));
  if (ec || rel.empty() || *rel.begin() == "..") return path.string();
  return rel.string();
}

// `word` as one shell word: as it is when nothing in it is special to a shell, else quoted.
std::string ShellWord(const std::string& word) {
  bool plain = !word.empty() && word.find_first_not_of(
                                    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                    "0123456789_@%+=:,./-") == std::string::npos;
  if (plain) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// How the user runs fakehost, for a command to type next: `npx fakehost` under npm (npx runs it
// from a node_modules/.bin that is not on the user's PATH), the name alone when PATH finds this
// very file by it (a .deb, a pip console script), else the path it was run by.
std::string InvokedAs() {
  if (const char* npm = std::getenv("npm_execpath"); npm && *npm) return "npx fakehost";
  std::ifstream in("/proc/self/cmdline");
  std::string argv0;
  std::getline(in, argv0, '\0');
  if (argv0.empty()) return "fakehost";
  if (argv0.find('/') == std::string::npos) return ShellWord(argv0);
  const std::string name = fs::path(argv0).filename().string();
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "";
  while (!dirs.empty()) {
    std::string_view d = dirs.substr(0, dirs.find(':'));
    dirs.remove_prefix(std::min(dirs.size(), d.size() + 1));
    std::error_code ec;
    if (!d.empty() && fs::exists(fs::path(d) / name, ec))
      return fs::equivalent(fs::path(d) / name, argv0, ec) ? ShellWord(name) : ShellWord(argv0);
  }
  return ShellWord(argv0);
}

// The value at `pointer` in `doc` when it is a string, else "".
std::string StringAt(const rapidjson::Value& doc, const char* pointer) {
  const rapidjson::Value* v = json::Resolve(doc, pointer);
  return v && v->IsString() ? std::string(v->GetString(), v->GetStringLength()) : std::string();
}

// What init writes must read back as what it means: fakehost.yaml loads for the protocol (with
// the server's command), each other file parses as YAML, and the workflow's fakehost step has
// the plugin directory and the protocol as inputs. "" when so; else the first thing wrong
// (init's bug).
std::string CheckWritten(const std::vector<std::pair<fs::path, std::string>>& files,
                         const protocol::Profile& profile, const ServerProject* server,
                         const std::string& plugin) {
  for (const auto& [path, text] : files) {
    const std::string name = path.filename().string();
    std::vector<scenario::LoadError> errors;
    if (name == run::kPluginConfigName) {
      run::PluginConfig config;
      if (!run::ParsePluginConfig(text, name, &config, &errors) ||
          !run::CheckPluginConfig(config, profile, &errors))
        return errors.empty() ? name + " does not load" : errors.front().ToString();
      if (config.protocol != profile.name()) return name + " does not name the protocol";
      if (server && config.command != server->command) return name + " has another command";
      continue;
    }
    rapidjson::Document doc;
    if (!scenario::ParseYamlToJson(text, name, &doc, nullptr, &errors))
      return errors.empty() ? name + " does not parse" : errors.front().ToString();
    if (path.extension() != ".yml") continue;
    const rapidjson::Value* steps = json::Resolve(doc, "/jobs/conformance/steps");
    const rapidjson::Value* with = nullptr;
    if (steps && steps->IsArray())
      for (const auto& step : steps->GetArray())
        if (StringAt(step, "/id") == "fakehost") with = json::Resolve(step, "/with");
    if (!with || !with->IsObject() || StringAt(*with, "/plugin") != plugin ||
        StringAt(*with, "/protocol") != profile.name())
      return name + ": the fakehost step's inputs are not the plugin's";
  }
  return {};
}

// No --protocol, and the directory tells none: ask for the flag, naming the protocols, and say
// which fits when the project is plainly an MCP server.
void AskForProtocol(const std::string& data_dir, const std::string& dir, std::ostream& err) {
  std::string manifests, error;
  for (const plugin::KnownProtocol& k : KnownProtocols(data_dir)) {
    if (k.manifest_file.empty()) continue;
    std::error_code ec;
    if (fs::exists(fs::path(dir) / k.manifest_file, ec)) {  // two manifests: the detector says so
      DetectPluginProtocol(dir, KnownProtocols(data_dir), &error);
      err << "fakehost: " << error << "\n";
      return;
    }
    manifests += (manifests.empty() ? "" : ", ") + k.manifest_file + " for " + k.name;
  }
  const std::string shown = ShellWord(dir);
  // An MCP server's author has never heard of manifests: what was found leads.
  if (std::string hint = McpServerHint(dir); !hint.empty()) {
    err << "fakehost: " << hint << ", so it is an MCP server:\n  " << InvokedAs()
        << " init --protocol mcp-stdio " << report::TerminalSafe(shown)
        << "\n(an MCP server has no manifest, so init cannot tell the protocol by itself: give "
           "--protocol ("
        << ProtocolsHelp() << "))\n";
    return;
  }
  err << "fakehost: " << report::TerminalSafe(dir) << " has no manifest (" << manifests
      << ") and no " << run::kPluginConfigName << " naming its protocol: give --protocol ("
      << ProtocolsHelp() << "), for an MCP server: " << InvokedAs() << " init --protocol mcp-stdio "
      << report::TerminalSafe(shown) << "\n";
}

// The runtime a command given after -- needs, by its program's name (the project's otherwise).
Runtime RuntimeOf(const std::string& program, Runtime detected) {
  const std::string name = fs::path(program).filename().string();
  if (name == "node" || name == "npm" || name == "npx") return Runtime::kNode;
  if (name.rfind("python", 0) == 0) return Runtime::kPython;
  if (name == "uv" || name == "uvx") return Runtime::kUv;
  return detected;
}

struct InitFlags {
  std::string dir, protocol, dist = FAKEHOST_DIST;
  std::vector<std::string> command;
  bool force = false;
};

// A plugin without a manifest: how it starts (the command after --, else the project's files).
// False, with the message on `err`, when fakehost.yaml is to be written and nothing says how.
bool FindServer(const InitFlags& f, const fs::path& config, ServerProject* server,
                std::ostream& err) {
  std::string why, error;
  const bool detected = DetectServerProject(f.dir, server, &why, &error);
  if (!f.command.empty()) {
    const Runtime runtime = RuntimeOf(f.command[0], server->runtime);
    if (runtime != server->runtime) *server = {};
    server->runtime = runtime;
    server->command = f.command;
    server->env.clear();
    server->source = "the command given to fakehost init";
    return true;
  }
  std::error_code ec;
  if (fs::exists(config, ec) && !f.force) return true;  // left alone: it says how, or not
  if (!detected) {
    err << "fakehost: " << report::TerminalSafe(error) << "\n";
    return false;
  }
  if (!server->command.empty()) return true;
  err << "fakehost: cannot tell how " << report::TerminalSafe(f.dir) << " starts its server ("
      << report::TerminalSafe(why)
      << "): give its command after --, as its users start it, for example\n  " << InvokedAs()
      << " init --protocol " << f.protocol << " " << report::TerminalSafe(ShellWord(f.dir))
      << " -- node server.js\n";
  return false;
}

// "next: ..." : the run to type now, after what must be done first (npm install, a build) in DIR.
std::string NextCommand(const InitFlags& f, const ServerProject& server) {
  std::string first;
  for (const std::string& step : server.first) first += (first.empty() ? "" : " && ") + step;
  const std::string dir = ShellWord(f.dir);
  std::error_code ec;
  const bool here = fs::equivalent(f.dir, fs::current_path(ec), ec);
  if (!first.empty()) first = (here ? first : "(cd " + dir + " && " + first + ")") + " && ";
  // The same run as the workflow init writes: the standard suite, and the plugin's own
  // scenarios when it has some (init writes an example there).
  const bool own = fs::is_directory(fs::path(f.dir) / "fakehost" / "scenarios", ec);
  return first + InvokedAs() + " run --plugin " + dir + " --strict" +
         (own ? " --suite standard --suite " +
                    ShellWord((fs::path(f.dir) / "fakehost" / "scenarios").string())
              : std::string());
}

// The plugin's directory exists and its protocol is known: given, or told by its manifest.
int FindProtocol(InitFlags& f, const Context& ctx) {
  std::error_code ec;
  if (!fs::is_directory(f.dir, ec)) {
    ctx.err << "fakehost: " << f.dir << " is not a directory (give the plugin's directory)\n";
    return kBadInput;
  }
  if (!f.protocol.empty()) return kOk;
  std::string error;
  f.protocol = DetectPluginProtocol(f.dir, KnownProtocols(ctx.data_dir), &error);
  if (f.protocol.empty()) {
    AskForProtocol(ctx.data_dir, f.dir, ctx.err);
    return kBadInput;
  }
  return kOk;
}

// The flags the protocol or the workflow cannot take: a command for a plugin with a manifest,
// a --dist a workflow cannot hold.
int CheckFlagsFit(const InitFlags& f, const protocol::Profile& profile, const Context& ctx) {
  if (profile.has_manifest() && !f.command.empty()) {
    ctx.err << "fakehost: a " << profile.name() << " plugin is started as its "
            << profile.manifest().file << " says: give no command after --\n";
    return kBadInput;
  }
  if (std::string why = UnwritableDist(f.dist); !why.empty()) {
    ctx.err << "fakehost: --dist '" << report::TerminalSafe(f.dist)
            << "' cannot go into the workflow: " << why << "\n";
    return kBadInput;
  }
  return kOk;
}

// The plugin's directory as the workflow names it: relative to the checkout's root, "." for it.
std::string PluginInCheckout(const fs::path& dir, const fs::path& root) {
  std::string plugin = dir.lexically_relative(root).generic_string();
  if (plugin.empty() || plugin == "." || plugin == "./") plugin = ".";
  if (!plugin.empty() && plugin.back() == '/') plugin.pop_back();
  return plugin;
}

// Every destination is checked before the first write; an existing file is left alone
// without --force.
int WriteFiles(const std::vector<std::pair<fs::path, std::string>>& files, bool force,
               const Context& ctx) {
  std::error_code ec;
  std::string error;
  for (const auto& [path, text] : files) {
    if ((force || !fs::exists(path, ec)) && !report::CheckDestination(path.string(), &error)) {
      ctx.err << "fakehost: " << error << "\n";
      return kBadInput;
    }
  }
  for (const auto& [path, text] : files) {
    if (fs::exists(path, ec) && !force) {
      ctx.out << "left " << report::TerminalSafe(Shown(path))
              << " alone (it exists; --force overwrites it)\n";
      continue;
    }
    if (!report::WriteFileAtomically(path.string(), text, &error)) {
      ctx.err << "fakehost: " << error << "\n";
      return kHarnessError;
    }
    ctx.out << "wrote " << report::TerminalSafe(Shown(path)) << "\n";
  }
  return kOk;
}

// A server without a manifest: the command fakehost.yaml now holds, or that the one kept has none.
void SayHowServerStarts(const ServerProject& server, bool writes_config, const fs::path& config,
                        const Context& ctx) {
  if (writes_config) {
    std::string words;
    for (const std::string& w : server.command) words += (words.empty() ? "" : " ") + ShellWord(w);
    ctx.out << "the server starts as: " << report::TerminalSafe(words) << " (from " << server.source
            << "; change command: in " << run::kPluginConfigName
            << " if its users start it otherwise)\n";
    return;
  }
  run::PluginConfig existing;
  std::vector<scenario::LoadError> errors;
  if (run::ReadPluginConfig(config.string(), &existing, &errors) && existing.command.empty())
    ctx.out << "add command: [PROGRAM, ARGS...] to " << report::TerminalSafe(Shown(config))
            << ": it has none, and a server without a manifest is started by it\n";
}

int Init(InitFlags f, const Context& ctx) {
  if (int code = FindProtocol(f, ctx); code != kOk) return code;
  auto profile = LoadProfile(ctx.data_dir, f.protocol, ctx.err);
  if (!profile) return kBadInput;
  if (int code = CheckFlagsFit(f, *profile, ctx); code != kOk) return code;
  std::string fragment = HandshakeFragment(ctx.data_dir, *profile);
  if (fragment.empty()) {
    ctx.err << "fakehost: no fragment in " << ctx.data_dir << "/scenarios/" << profile->name()
            << "/fragments sends " << profile->handshake_method() << "\n";
    return kHarnessError;
  }
  std::error_code ec;
  const fs::path dir = fs::absolute(f.dir, ec).lexically_normal();
  const fs::path root = RepositoryRoot(dir);
  const std::string plugin = PluginInCheckout(dir, root);
  if (std::string why = UnwritablePath(plugin); !why.empty()) {
    ctx.err << "fakehost: cannot write the plugin directory '" << report::TerminalSafe(plugin)
            << "' into a workflow: " << why << " (rename it)\n";
    return kBadInput;
  }
  const fs::path config = dir / run::kPluginConfigName;
  ServerProject server;
  const bool manifestless = !profile->has_manifest();
  if (manifestless && !FindServer(f, config, &server, ctx.err)) return kBadInput;

  WorkflowSpec spec{profile->name(), plugin, manifestless ? &server : nullptr, f.dist,
                    FAKEHOST_VERSION};
  const std::vector<std::pair<fs::path, std::string>> files = {
      {config, FakehostYaml(*profile, manifestless ? &server : nullptr)},
      {dir / kOwnScenarios / "stops-when-asked.yaml", ExampleScenario(*profile, fragment)},
      {root / ".github/workflows/fakehost.yml", GithubWorkflow(spec)},
  };
  const bool writes_config = f.force || !fs::exists(config, ec);
  if (std::string wrong =
          CheckWritten(files, *profile, writes_config ? spec.server : nullptr, plugin);
      !wrong.empty()) {
    ctx.err << "fakehost: internal error: init wrote a file that does not read back: " << wrong
            << "\n";
    return kHarnessError;
  }
  if (int code = WriteFiles(files, f.force, ctx); code != kOk) return code;
  if (manifestless) SayHowServerStarts(server, writes_config, config, ctx);
  ctx.out << "next: " << report::TerminalSafe(NextCommand(f, server)) << "\n";
  return kOk;
}

}  // namespace

void AddInitCommand(CLI::App& app, Commands* commands) {
  auto f = std::make_shared<InitFlags>();
  CLI::App* init = app.add_subcommand(
      "init", "write a starter fakehost.yaml, an example scenario and a CI workflow for a plugin");
  init->add_option("dir", f->dir, "the plugin directory")->required();
  init->add_option("--protocol,-p", f->protocol,
                   ProtocolsHelp() + " (default: detected from the directory)");
  init->add_flag("--force", f->force, "overwrite files that exist");
  init->add_option("--dist", f->dist,
                   "where the CI workflow installs fakehost from: registry (npm and PyPI), or a "
                   "URL or directory holding the release's files, {version} standing for the "
                   "version (default: " FAKEHOST_DIST ")");
  AddPluginCommandLine(init, &f->command)
      ->description(
          "after --: the server's command line, for a protocol without a manifest (default: "
          "from package.json, pyproject.toml or the one executable file)");
  commands->push_back({init, [f](const Context& ctx) { return Init(*f, ctx); }});
}

}  // namespace fakehost::cli
