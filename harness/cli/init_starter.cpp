#include "harness/cli/init_starter.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>

#include "harness/json/json.hpp"
#include "harness/run/plugin_config.hpp"

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
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
           c == '/';
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

std::string FlowList(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : ", ") + Flow(w);
  return "[" + out + "]";
}

// Whether the profile's host passes a plugin its `config:` (asked of CheckPluginConfig itself,
// so that the starter file never offers what the loader refuses).
bool PassesConfig(const protocol::Profile& profile) {
  run::PluginConfig probe;
  probe.config = std::make_shared<rapidjson::Document>(rapidjson::kObjectType);
  std::vector<scenario::LoadError> errors;
  return run::CheckPluginConfig(probe, profile, &errors);
}

// Whether fakehost makes the profile's triggers from the plugin's own tools, which `tools:` lets
// it call (asked of CheckPluginConfig too).
bool CallsTools(const protocol::Profile& profile) {
  run::PluginConfig probe;
  probe.call_all_tools = true;
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

std::string CommandLines(const ServerProject& server) {
  return "\n" +
         Comment("# ", "How fakehost starts the server (from " + server.source +
                           "): [PROGRAM, ARGS...], run in this directory. A PROGRAM with a '/' "
                           "is a file from here, a bare one is looked up in PATH. Write it as "
                           "your users start the server.") +
         "command: " + FlowList(server.command) + "\n";
}

std::string EnvLines(const ServerProject* server) {
  std::string y =
      "\n# Added to the plugin's environment in every scenario (a --env flag overrides an "
      "entry).\n";
  if (!server || server->env.empty()) return y + "#env:\n#  LOG_LEVEL: debug\n";
  y += "env:\n";
  for (const auto& [name, value] : server->env) y += "  " + Flow(name) + ": " + Flow(value) + "\n";
  return y;
}

std::string TriggerLines(const protocol::Profile& profile) {
  if (profile.triggers().empty()) return {};
  std::string y;
  const bool tools = CallsTools(profile);
  if (tools)
    y += "\n" +
         Comment("# ",
                 "Tools: fakehost makes each trigger below that you do not give from the "
                 "server's own lists, calling on its own only the tools annotated readOnlyHint: "
                 "true. Name the other tools it may call with made-up arguments (ones that "
                 "change nothing you care about), or let it call all of them:") +
         "#tools: {call: all}\n";
  y += "\n" +
       Comment("# ", std::string("Triggers: NAME -> a request (usually one of your own commands) "
                                 "on which the plugin does what NAME promises. A scenario that "
                                 "needs a trigger ") +
                         (tools ? "neither you give nor fakehost can make" : "you do not give") +
                         " is reported untested. Replace each example request with one your "
                         "plugin really serves that way, or write NAME: {none: \"why\"} for one "
                         "it cannot have (its scenarios then do not apply).") +
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

}  // namespace

std::string FakehostYaml(const protocol::Profile& profile, const ServerProject* server) {
  std::string y =
      "# fakehost.yaml: what fakehost needs to know about this plugin that " +
      std::string(profile.has_manifest() ? "its manifest cannot\n# say" : "no manifest\n# says") +
      " (reference: docs/fakehost-yaml.md and schema/fakehost.schema.json in fakehost). "
      "Written by\n"
      "# `fakehost init`; delete the leading # of a line to use it.\n"
      "protocol: " +
      profile.name() + "\n";
  if (server) y += CommandLines(*server);
  y += EnvLines(server);
  if (PassesConfig(profile))
    y += "\n# The configuration object the host passes the plugin (a scenario's own config: "
         "wins).\n"
         "#config:\n"
         "#  units: metric\n";
  return y + HostReplies(profile) + TriggerLines(profile);
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

}  // namespace fakehost::cli
