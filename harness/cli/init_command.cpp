// `fakehost init DIR [--protocol P] [--force]`: the files a plugin needs to run fakehost in CI.
//
// Writes, from the protocol's profile: a starter fakehost.yaml (the protocol, and commented out:
// env, config where the host passes one, and every trigger the profile names with its own
// example), an example scenario that uses the standard handshake fragment, and a GitHub
// workflow that installs the .deb and runs the composite action it installed
// (share/fakehost/ci/github, from ci/templates/github), copied into the workspace. Commented-out
// YAML is written as `#` directly followed by the line (`#env:`, `#  slow:`), so deleting that one
// `#` makes it live; prose comments are `# ` followed by text. Nothing existing is overwritten
// without
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
#include "harness/report/destination.hpp"
#include "harness/report/text.hpp"
#include "harness/run/plugin_config.hpp"
#include "harness/scenario/yaml_json.hpp"

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

std::string Flow(std::string_view text) {
  return Flow(rapidjson::Value(
      rapidjson::StringRef(text.data(), static_cast<rapidjson::SizeType>(text.size()))));
}

// `s` as a YAML double-quoted scalar: reads back as itself whatever it holds (": ", "#", quotes,
// a leading "-" or "*"). Only '"' and '\\' need an escape once control characters are refused.
std::string DoubleQuoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// Why the plugin directory's path cannot go into the workflow, or "": a control character (a
// line break would start a line of the workflow, and no log shows the others), bytes that are
// not UTF-8 (YAML is text), or "${{", which GitHub evaluates in a step's inputs (a directory
// named for a secret would pass the secret's value).
std::string UnwritablePath(std::string_view path) {
  for (char c : path)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return "it holds a control character";
  if (report::ValidUtf8(path) != path) return "it is not valid UTF-8";
  if (path.find("${{") != std::string_view::npos)
    return "it holds \"${{\", which GitHub would evaluate as an expression";
  return {};
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
  std::string lines;
  for (const auto& [method, reply] : profile.host().replies) {
    const rapidjson::Value* result = reply.body ? json::Find(*reply.body, "result") : nullptr;
    if (result && !reply.stand_in.empty())
      lines += "#    " + Flow(method) + ": {result: " + Flow(*result) + "}\n";
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
      "# say (reference: docs/fakehost-yaml.md and schema/fakehost.schema.json in fakehost). "
      "Written by\n"
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
  if (profile.triggers().empty()) return y;
  y +=
      "\n# Triggers: NAME -> a request (usually one of your own commands) on which the plugin\n"
      "# does what NAME promises. A scenario that needs a trigger you do not give is reported\n"
      "# untested. Replace each example request with one your plugin really serves that way,\n"
      "# or write NAME: {none: \"why\"} for one it cannot have (its scenarios then do not apply).\n"
      "#triggers:\n";
  for (const protocol::TriggerSpec& t : profile.triggers()) {
    y += Comment("#  # ", t.name + ": " + t.does);
    y += "#  " + t.name + ":\n";
    y += "#    method: " + Flow(t.method) + "\n";
    if (t.params) y += "#    params: " + Flow(*t.params) + "\n";
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
  if (!profile.triggers().empty()) {
    const protocol::TriggerSpec& t = profile.triggers().front();
    y += "  # - send:\n";
    y += "  #     method: " + Flow(t.method) + "\n";
    if (t.params) y += "  #     params: " + Flow(*t.params) + "\n";
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
         "      # The action the package installed (share/fakehost/ci/github beside the binary),\n"
         "      # copied into the workspace: GitHub runs a local action only from there.\n"
         "      - name: The installed fakehost action\n"
         "        run: |\n"
         "          share=\"$(dirname \"$(readlink -f \"$(command -v "
         "fakehost)\")\")/../share/fakehost\"\n"
         "          rm -rf .fakehost-action\n"
         "          cp -R \"$share/ci/github\" .fakehost-action\n"
         "      - name: fakehost\n"
         "        id: fakehost\n"
         "        uses: ./.fakehost-action\n"
         "        with:\n"
         "          protocol: " +
         profile.name() +
         "\n"
         "          plugin: " +
         DoubleQuoted(plugin) +
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

// The value at `pointer` in `doc` when it is a string, else "".
std::string StringAt(const rapidjson::Value& doc, const char* pointer) {
  const rapidjson::Value* v = json::Resolve(doc, pointer);
  return v && v->IsString() ? std::string(v->GetString(), v->GetStringLength()) : std::string();
}

// What init writes must read back as what it means: each file parses as YAML, fakehost.yaml
// names the protocol, and the workflow's fakehost step has exactly the plugin directory and
// the protocol as inputs, and no other. "" when so; else the first thing wrong (init's bug).
std::string CheckWritten(const std::vector<std::pair<fs::path, std::string>>& files,
                         const std::string& protocol, const std::string& plugin) {
  for (const auto& [path, text] : files) {
    rapidjson::Document doc;
    std::vector<scenario::LoadError> errors;
    if (!scenario::ParseYamlToJson(text, path.filename().string(), &doc, nullptr, &errors))
      return errors.empty() ? path.filename().string() + " does not parse"
                            : errors.front().ToString();
    if (path.filename() == run::kPluginConfigName && StringAt(doc, "/protocol") != protocol)
      return path.filename().string() + " does not name the protocol";
    if (path.extension() != ".yml") continue;
    const rapidjson::Value* steps = json::Resolve(doc, "/jobs/conformance/steps");
    const rapidjson::Value* with = nullptr;
    if (steps && steps->IsArray())
      for (const auto& step : steps->GetArray())
        if (StringAt(step, "/id") == "fakehost") with = json::Resolve(step, "/with");
    if (!with || !with->IsObject() || StringAt(*with, "/plugin") != plugin ||
        StringAt(*with, "/protocol") != protocol || with->MemberCount() != 3)
      return path.filename().string() + ": the fakehost step's inputs are not the plugin's";
  }
  return {};
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
  if (std::string why = UnwritablePath(plugin); !why.empty()) {
    ctx.err << "fakehost: cannot write the plugin directory '" << report::TerminalSafe(plugin)
            << "' into a workflow: " << why << " (rename it)\n";
    return kBadInput;
  }

  const std::vector<std::pair<fs::path, std::string>> files = {
      {dir / run::kPluginConfigName, FakehostYaml(*profile)},
      {dir / "fakehost/scenarios/stops-when-asked.yaml", ExampleScenario(*profile, fragment)},
      {root / ".github/workflows/fakehost.yml", GithubWorkflow(*profile, plugin)},
  };
  if (std::string wrong = CheckWritten(files, profile->name(), plugin); !wrong.empty()) {
    ctx.err << "fakehost: internal error: init wrote a file that does not read back: " << wrong
            << "\n";
    return kHarnessError;
  }
  bool wrote_workflow = false;
  std::string error;
  for (const auto& [path, text] : files) {  // every destination before the first write
    if ((f.force || !fs::exists(path, ec)) && !report::CheckDestination(path.string(), &error)) {
      ctx.err << "fakehost: " << error << "\n";
      return kBadInput;
    }
  }
  for (const auto& [path, text] : files) {
    if (fs::exists(path, ec) && !f.force) {
      ctx.out << "left " << report::TerminalSafe(Shown(path))
              << " alone (it exists; --force overwrites it)\n";
      continue;
    }
    if (!report::WriteFileAtomically(path.string(), text, &error)) {
      ctx.err << "fakehost: " << error << "\n";
      return kHarnessError;
    }
    ctx.out << "wrote " << report::TerminalSafe(Shown(path)) << "\n";
    wrote_workflow |= path.extension() == ".yml";
  }
  if (std::string(FAKEHOST_GITHUB_REPO).rfind("OWNER/", 0) == 0 && wrote_workflow)
    ctx.out << "edit OWNER in .github/workflows/fakehost.yml: the GitHub repository that "
               "publishes fakehost\n";
  ctx.out << "next: fakehost run --plugin " << report::TerminalSafe(f.dir) << " --strict\n";
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
  commands->push_back({init, [f](const Context& ctx) { return Init(*f, ctx); }});
}

}  // namespace fakehost::cli
