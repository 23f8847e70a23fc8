// `fakehost init DIR [--protocol P] [--force]`: the files a plugin needs to run fakehost in CI.
//
// Writes, from the protocol's profile: a starter fakehost.yaml (the protocol, and commented out:
// env, config where the host passes one, and every trigger the profile names with its own
// example), an example scenario that uses the standard handshake fragment, and a GitHub
// workflow that runs the composite action in ci/templates/github. Commented-out YAML is written
// as `#` directly followed by the line (`#env:`, `#  slow:`), so deleting that one `#` makes it
// live; prose comments are `# ` followed by text. Nothing existing is overwritten without
// --force.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>

#include "harness/cli/cli.hpp"
#include "harness/cli/command.hpp"
#include "harness/cli/manifest_command.hpp"
#include "harness/json/json.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/run/plugin_config.hpp"

#ifndef FAKEHOST_VERSION
#define FAKEHOST_VERSION "0.0.0"
#endif
// Where the released fakehost lives on GitHub (its .deb and its composite action); set by
// CMake (FAKEHOST_GITHUB_REPO). The placeholder makes a workflow that fails until edited.
#ifndef FAKEHOST_GITHUB_REPO
#define FAKEHOST_GITHUB_REPO "OWNER/fakehost"
#endif

namespace fakehost::cli {
namespace {

namespace fs = std::filesystem;

// `text` as `prefix`-led comment lines of at most ~96 columns.
std::string Comment(const std::string& prefix, const std::string& text) {
  std::istringstream words(text);
  std::string out, line, word;
  while (words >> word) {
    if (!line.empty() && prefix.size() + line.size() + 1 + word.size() > 96) {
      out += prefix + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += prefix + line + "\n";
  return out;
}

// A string YAML reads back as that same string when written plain: a word that no YAML schema
// types as a null, a boolean or a number.
bool PlainSafe(std::string_view s) {
  static const std::set<std::string_view, std::less<>> typed = {
      "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE",
      "y",    "Y",    "n",    "N",    "yes",  "Yes",  "YES",   "no",    "No",
      "NO",   "on",   "On",   "ON",   "off",  "Off",  "OFF"};
  if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0])) || typed.count(s)) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

// A JSON value as a one-line YAML flow collection: plain words bare, every other string
// double-quoted (a JSON string is a valid YAML double-quoted scalar).
std::string Flow(const rapidjson::Value& v) {
  if (v.IsString() && PlainSafe(std::string_view(v.GetString(), v.GetStringLength())))
    return v.GetString();
  if (v.IsObject()) {
    std::string out;
    for (const auto& m : v.GetObject())
      out += (out.empty() ? "" : ", ") + Flow(m.name) + ": " + Flow(m.value);
    return "{" + out + "}";
  }
  if (v.IsArray()) {
    std::string out;
    for (const auto& e : v.GetArray()) out += (out.empty() ? "" : ", ") + Flow(e);
    return "[" + out + "]";
  }
  return json::ToCompact(v);
}

// Whether the profile's host passes a plugin its `config:` (asked of CheckPluginConfig itself,
// so that the starter file never offers what the loader refuses).
bool PassesConfig(const protocol::Profile& profile) {
  run::PluginConfig probe;
  probe.config = std::make_shared<rapidjson::Document>(rapidjson::kObjectType);
  std::vector<scenario::LoadError> errors;
  return run::CheckPluginConfig(probe, profile, &errors);
}

// The profile's stand-in answers (made-up data), as the `host: replies:` an author would edit.
std::string HostReplies(const protocol::Profile& profile) {
  const rapidjson::Value* replies = json::Find(profile.host(), "replies");
  std::string lines;
  if (replies && replies->IsObject())
    for (const auto& r : replies->GetObject()) {
      const rapidjson::Value* result = r.value.IsObject() ? json::Find(r.value, "result") : nullptr;
      if (result && json::Find(r.value, "stand_in"))
        lines += "#    " + Flow(r.name) + ": {result: " + Flow(*result) + "}\n";
    }
  if (lines.empty()) return {};
  return "\n# The fake host's answers to your plugin's host calls, in place of its defaults. "
         "These\n"
         "# defaults are stand-ins (made-up data): a scenario that fails after your plugin got "
         "one\n"
         "# is reported untested. Give the answers your plugin needs.\n"
         "#host:\n"
         "#  replies:\n" +
         lines;
}

std::string FakehostYaml(const protocol::Profile& profile) {
  std::string y =
      "# fakehost.yaml: what fakehost needs to know about this plugin that its manifest cannot\n"
      "# say (reference: schema/fakehost.schema.json in fakehost, and its README). Written by\n"
      "# `fakehost init`; delete the leading # of a line to use it.\n"
      "protocol: " +
      profile.name() +
      "\n\n"
      "# Added to the plugin's environment in every scenario (a --env flag overrides an entry).\n"
      "#env:\n"
      "#  LOG_LEVEL: debug\n";
  if (PassesConfig(profile))
    y += "\n# The configuration object the host passes the plugin (a scenario's own config: "
         "wins).\n"
         "#config:\n"
         "#  units: metric\n";
  y += HostReplies(profile);
  std::vector<std::string> names = profile.trigger_names();
  if (names.empty()) return y;
  y +=
      "\n# Triggers: NAME -> a request (usually one of your own commands) on which the plugin\n"
      "# does what NAME promises. A scenario that needs a trigger you do not give is reported\n"
      "# untested. Replace each example request with one your plugin really serves that way,\n"
      "# or write NAME: {none: \"why\"} for one it cannot have (its scenarios then do not apply).\n"
      "#triggers:\n";
  for (const std::string& name : names) {
    const rapidjson::Value* t = profile.trigger(name);
    const rapidjson::Value* does = t ? json::Find(*t, "does") : nullptr;
    const rapidjson::Value* example = t ? json::Find(*t, "example") : nullptr;
    if (does && does->IsString()) y += Comment("#  # ", name + ": " + does->GetString());
    y += "#  " + name + ":\n";
    const rapidjson::Value* method = example ? json::Find(*example, "method") : nullptr;
    const rapidjson::Value* params = example ? json::Find(*example, "params") : nullptr;
    y += "#    method: " + (method ? Flow(*method) : std::string("\"...\"")) + "\n";
    if (params) y += "#    params: " + Flow(*params) + "\n";
  }
  return y;
}

// "rim.shutdown, then close stdin", and the first signal of the default stop sequence.
void StopWords(const protocol::Profile& profile, std::string* asks, std::string* signal) {
  const auto* steps = profile.StopSequence("default");
  if (!steps) return;
  for (const auto& s : *steps) {
    if (s.kind == protocol::StopStepSpec::Kind::kSignal) {
      *signal = s.label;
      return;
    }
    if (s.kind != protocol::StopStepSpec::Kind::kWait)
      *asks += (asks->empty() ? "" : ", then ") + s.label;
  }
}

std::string ExampleScenario(const protocol::Profile& profile, const std::string& fragment) {
  const std::string p = profile.name();
  std::string asks, signal;
  StopWords(profile, &asks, &signal);
  std::string y =
      "# An example scenario, written by `fakehost init`: change it to check something your\n"
      "# plugin does. Its id is its path below fakehost/scenarios without .yaml. Check it with\n"
      "#   fakehost lint --protocol " +
      p +
      " --suite fakehost/scenarios\n"
      "# and run it with the standard suite with\n"
      "#   fakehost run --plugin . --suite standard --suite fakehost/scenarios --strict\n"
      "title: Starts, and stops when the host asks\n"
      "spec: \"example (fakehost init)\"\n"
      "requirement: >-\n" +
      Comment("  ", "After the handshake, the plugin exits when the host stops it (" +
                        (asks.empty() ? std::string("its stop sequence") : asks) + ")" +
                        (signal.empty() ? "" : ", before the host has to send " + signal) + ".") +
      "level: must\n"
      "tags: [example]\n"
      "steps:\n"
      "  - use: " +
      fragment +
      "  # the standard handshake, and the accepting answer\n"
      "  # Then a request of your own and what its answer must hold, for example:\n";
  std::vector<std::string> names = profile.trigger_names();
  const rapidjson::Value* t = names.empty() ? nullptr : profile.trigger(names.front());
  const rapidjson::Value* example = t ? json::Find(*t, "example") : nullptr;
  if (example) {
    const rapidjson::Value* method = json::Find(*example, "method");
    const rapidjson::Value* params = json::Find(*example, "params");
    y += "  # - send:\n";
    if (method) y += "  #     method: " + Flow(*method) + "\n";
    if (params) y += "  #     params: " + Flow(*params) + "\n";
    y += "  #   as: mine\n  # - expect:\n  #     reply_to: mine\n";
    y += "  #     result: {$type: object}\n";
  }
  return y + "  - shutdown: {}\n";
}

std::string GithubWorkflow(const protocol::Profile& profile, const std::string& plugin) {
  const std::string repo = FAKEHOST_GITHUB_REPO;
  const std::string version = FAKEHOST_VERSION;
  return "# Runs fakehost's " + profile.name() +
         " conformance suite on the plugin at every push and pull request.\n"
         "# Written by `fakehost init`.\n"
         "name: fakehost\n"
         "on: [push, pull_request]\n"
         "jobs:\n"
         "  conformance:\n"
         "    runs-on: ubuntu-latest\n"
         "    # fakehost's .deb is built for Debian 12; install your plugin's runtime here too.\n"
         "    container: debian:12\n"
         "    env:\n"
         "      FAKEHOST_VERSION: \"" +
         version +
         "\"\n"
         "    steps:\n"
         "      - uses: actions/checkout@v4\n"
         "      - name: Install fakehost\n"
         "        run: |\n"
         "          apt-get update\n"
         "          apt-get install -y --no-install-recommends ca-certificates curl\n"
         "          curl -fsSLo /tmp/fakehost.deb \"https://github.com/" +
         repo +
         "/releases/download/v${FAKEHOST_VERSION}/fakehost_${FAKEHOST_VERSION}_amd64.deb\"\n"
         "          apt-get install -y /tmp/fakehost.deb\n"
         "      # Build the plugin here if it needs building.\n"
         "      - name: fakehost\n"
         "        id: fakehost\n"
         "        uses: " +
         repo + "/ci/templates/github@v" + version +
         "\n"
         "        with:\n"
         "          protocol: " +
         profile.name() +
         "\n"
         "          plugin: " +
         plugin +
         "\n"
         "          strict: true\n"
         "      - if: always()\n"
         "        uses: actions/upload-artifact@v4\n"
         "        with:\n"
         "          name: fakehost-report\n"
         "          path: ${{ steps.fakehost.outputs.report-dir }}\n";
}

// The standard suite's fragment that sends the profile's handshake request: what `use:` names.
std::string HandshakeFragment(const std::string& data_dir, const protocol::Profile& profile) {
  std::error_code ec;
  fs::path dir = fs::path(data_dir) / "scenarios" / profile.name() / "fragments";
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    std::ifstream in(f);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.find("method: " + profile.handshake_method() + "\n") != std::string::npos)
      return f.stem().string();
  }
  return {};
}

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

struct InitFlags {
  std::string dir, protocol;
  bool force = false;
};

int Init(const InitFlags& f, const Context& ctx) {
  std::error_code ec;
  if (!fs::is_directory(f.dir, ec)) {
    ctx.err << "fakehost: " << f.dir << " is not a directory (give the plugin's directory)\n";
    return kBadInput;
  }
  std::string protocol = f.protocol;
  if (!PickProtocol(ctx.data_dir, &protocol, f.dir, ctx.err)) return kBadInput;
  auto profile = LoadProfile(ctx.data_dir, protocol, ctx.err);
  if (!profile) return kBadInput;
  std::string fragment = HandshakeFragment(ctx.data_dir, *profile);
  if (fragment.empty()) {
    ctx.err << "fakehost: no fragment in " << ctx.data_dir << "/scenarios/" << protocol
            << "/fragments sends " << profile->handshake_method() << "\n";
    return kHarnessError;
  }
  const fs::path dir = fs::absolute(f.dir, ec).lexically_normal();
  const fs::path root = RepositoryRoot(dir);
  std::string plugin = dir.lexically_relative(root).generic_string();
  if (plugin.empty() || plugin == "." || plugin == "./") plugin = ".";
  if (!plugin.empty() && plugin.back() == '/') plugin.pop_back();

  const std::vector<std::pair<fs::path, std::string>> files = {
      {dir / run::kPluginConfigName, FakehostYaml(*profile)},
      {dir / "fakehost/scenarios/stops-when-asked.yaml", ExampleScenario(*profile, fragment)},
      {root / ".github/workflows/fakehost.yml", GithubWorkflow(*profile, plugin)},
  };
  bool wrote_workflow = false;
  for (const auto& [path, text] : files) {
    if (fs::exists(path, ec) && !f.force) {
      ctx.out << "left " << Shown(path) << " alone (it exists; --force overwrites it)\n";
      continue;
    }
    fs::create_directories(path.parent_path(), ec);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
      ctx.err << "fakehost: cannot write " << path.string() << "\n";
      return kHarnessError;
    }
    ctx.out << "wrote " << Shown(path) << "\n";
    wrote_workflow |= path.extension() == ".yml";
  }
  if (std::string(FAKEHOST_GITHUB_REPO).rfind("OWNER/", 0) == 0 && wrote_workflow)
    ctx.out << "edit OWNER in .github/workflows/fakehost.yml: the GitHub repository that "
               "publishes fakehost\n";
  ctx.out << "next: fakehost run --plugin " << f.dir << " --strict\n";
  return kOk;
}

}  // namespace

void AddInitCommand(CLI::App& app, Commands* commands) {
  auto f = std::make_shared<InitFlags>();
  CLI::App* init = app.add_subcommand(
      "init", "write a starter fakehost.yaml, an example scenario and a CI workflow for a plugin");
  init->add_option("dir", f->dir, "the plugin directory")->required();
  init->add_option("--protocol,-p", f->protocol,
                   "rim-v1 or flash-v1 (default: detected from the directory)");
  init->add_flag("--force", f->force, "overwrite files that exist");
  commands->push_back({init, [f](const Context& ctx) { return Init(*f, ctx); }});
}

}  // namespace fakehost::cli
