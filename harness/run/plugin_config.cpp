#include "harness/run/plugin_config.hpp"

#include <algorithm>
#include <set>

#include "harness/json/json.hpp"
#include "harness/json/text_file.hpp"
#include "harness/scenario/template.hpp"
#include "harness/scenario/yaml_json.hpp"
#include "harness/schema/schema.hpp"
#include "harness/text/template.hpp"

namespace fakehost::run {
namespace {

using result::SourceLoc;
using scenario::LoadError;

// Linux's MAX_ARG_STRLEN (32 pages of 4 KiB): execve refuses a longer argument or environment
// string with E2BIG, so such a word is known to fail before anything is spawned.
constexpr std::size_t kMaxArgBytes = 32 * 4096;

class ConfigReader {
 public:
  ConfigReader(const scenario::YamlLocator& where, std::vector<LoadError>* errors)
      : where_(where), errors_(errors) {}

  void Read(const rapidjson::Value& doc, PluginConfig* out) {
    if (doc.IsNull()) return;  // an empty file says nothing, which is allowed
    if (!doc.IsObject())
      return Error(
          "",
          "fakehost.yaml is a map of protocol, plugin_id, command, env, config, triggers, tools, "
          "host");
    for (const auto& m : doc.GetObject()) {
      std::string key(m.name.GetString(), m.name.GetStringLength());
      std::string at = "/" + json::EscapePointerToken(key);
      if (key == "protocol") {
        if (!m.value.IsString())
          Error(at, "protocol is a string: a protocol's name, as --protocol takes");
        else
          out->protocol = m.value.GetString();
        out->protocol_loc = Loc(at, false);
      } else if (key == "command") {
        Command(m.value, at, out);
      } else if (key == "env") {
        Env(m.value, at, out);
      } else if (key == "config") {
        if (!m.value.IsObject())
          Error(at, "config is a map: the plugin's configuration object");
        else
          out->config = Copy(m.value);
        out->config_loc = Loc(at, false);
      } else if (key == "triggers") {
        Triggers(m.value, at, out);
      } else if (key == "host") {
        Host(m.value, at, out);
      } else if (key == "plugin_id") {
        if (!m.value.IsString() || m.value.GetStringLength() == 0 ||
            m.value.GetStringLength() > 128)
          Error(at, "plugin_id is a string of 1 to 128 bytes: the name reports give the plugin");
        else
          out->plugin_id = m.value.GetString();
      } else if (key == "tools") {
        Tools(m.value, at, out);
        out->tools_loc = Loc(at, false);
      } else {
        Error(at,
              "unknown key '" + key +
                  "' (known: protocol, plugin_id, command, env, config, triggers, tools, host)",
              true);
      }
    }
  }

 private:
  // tools: {call: all | [NAME, ...]}: the tools fakehost may call on its own to make triggers,
  // beyond those the plugin annotates as read-only.
  void Tools(const rapidjson::Value& v, const std::string& at, PluginConfig* out) {
    const char* shape =
        "tools is a map {call: all} or {call: [NAME, ...]}: the tools fakehost may "
        "call on its own besides those annotated readOnlyHint: true";
    if (!v.IsObject()) return Error(at, shape);
    for (const auto& m : v.GetObject()) {
      std::string key(m.name.GetString(), m.name.GetStringLength());
      std::string here = at + "/" + json::EscapePointerToken(key);
      if (key != "call")
        return Error(here, "unknown key '" + key + "' in tools (known: call)", true);
      if (m.value.IsString() && std::string_view(m.value.GetString()) == "all") {
        out->call_all_tools = true;
        continue;
      }
      if (!m.value.IsArray() || m.value.Size() > 256) return Error(here, shape);
      for (rapidjson::SizeType i = 0; i < m.value.Size(); ++i) {
        const rapidjson::Value& name = m.value[i];
        if (!name.IsString() || name.GetStringLength() == 0 || name.GetStringLength() > 128)
          return Error(here + "/" + std::to_string(i),
                       "each tool name is a string of 1 to 128 bytes");
        out->call_tools.emplace_back(name.GetString(), name.GetStringLength());
      }
    }
  }

  // command: [PROGRAM, ARGS...]; numbers and booleans are taken as the text they are written as
  // (`[serve, --port, 8080]`), as in env:.
  void Command(const rapidjson::Value& v, const std::string& at, PluginConfig* out) {
    out->command_loc = Loc(at, false);
    if (!v.IsArray() || v.Empty())
      return Error(at, "command is a list [PROGRAM, ARGS...] with at least the program");
    std::vector<std::string> argv;
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
      const rapidjson::Value& word = v[i];
      std::string here = at + "/" + std::to_string(i);
      std::string text;
      if (word.IsString())
        text.assign(word.GetString(), word.GetStringLength());
      else if (word.IsNumber() || word.IsBool())
        text = json::ToCompact(word);
      else
        return Error(here, "each word of command is a string (or a number or boolean)");
      if (text.find('\0') != std::string::npos)
        return Error(here, "a word of command cannot hold a NUL byte");
      if (i == 0 && text.empty()) return Error(here, "command's program is an empty string");
      if (text.size() >= kMaxArgBytes)
        return Error(here, "a word of command of " + std::to_string(text.size()) +
                               " bytes: execve takes at most " + std::to_string(kMaxArgBytes - 1) +
                               " (the system's MAX_ARG_STRLEN)");
      argv.push_back(std::move(text));
    }
    out->command = std::move(argv);
  }

  void Env(const rapidjson::Value& v, const std::string& at, PluginConfig* out) {
    if (!v.IsObject()) return Error(at, "env is a map of NAME: value");
    for (const auto& e : v.GetObject()) {
      std::string name(e.name.GetString(), e.name.GetStringLength());
      std::string here = at + "/" + json::EscapePointerToken(name);
      bool ok_name = !name.empty() && name.find('=') == std::string::npos &&
                     name.find('\0') == std::string::npos;
      if (!ok_name) {
        Error(here, "an environment variable name is not empty and holds no '='", true);
        continue;
      }
      std::string value;
      if (e.value.IsString())
        value.assign(e.value.GetString(), e.value.GetStringLength());
      else if (e.value.IsNumber() || e.value.IsBool())
        value = json::ToCompact(e.value);
      else {
        Error(here, "env values are strings, numbers or booleans");
        continue;
      }
      if (value.find('\0') != std::string::npos) {
        Error(here, "an environment value cannot hold a NUL byte");
        continue;
      }
      if (name.size() + 1 + value.size() >= kMaxArgBytes) {
        Error(here, "NAME=value of " + std::to_string(name.size() + 1 + value.size()) +
                        " bytes: execve takes at most " + std::to_string(kMaxArgBytes - 1) +
                        " (the system's MAX_ARG_STRLEN)");
        continue;
      }
      // ${scenario.data_dir}, the one placeholder: a directory of each scenario's own, so that
      // scenarios played in parallel never share the plugin's files. "$${" is a literal "${".
      std::string filled, error;
      bool per_scenario = false;
      const text::Lookup lookup = [&](std::string_view var) -> std::optional<std::string> {
        if (var != "scenario.data_dir") return std::nullopt;
        per_scenario = true;
        return text::Placeholder(var);
      };
      if (text::HasPlaceholders(value) && !text::Fill(value, lookup, &filled, &error)) {
        Error(here, error +
                        " (an env value may name ${scenario.data_dir}, a directory of the "
                        "scenario's own; $${ is a literal ${)");
        continue;
      }
      if (per_scenario)
        out->scenario_env.push_back(name + "=" + value);
      else
        out->env.push_back(name + "=" + (text::HasPlaceholders(value) ? filled : value));
    }
  }

  void Triggers(const rapidjson::Value& v, const std::string& at, PluginConfig* out) {
    if (!v.IsObject()) return Error(at, "triggers is a map of NAME: {method: ..., params: ...}");
    for (const auto& t : v.GetObject()) {
      std::string name(t.name.GetString(), t.name.GetStringLength());
      std::string here = at + "/" + json::EscapePointerToken(name);
      out->trigger_locs[name] = Loc(here, true);
      if (!t.value.IsObject()) {
        Error(here, "a trigger is a map {method: METHOD, params: {...}} or {none: \"why\"}");
        continue;
      }
      if (const rapidjson::Value* none = json::Find(t.value, "none")) {
        if (t.value.MemberCount() != 1)
          Error(here, "a trigger the plugin cannot have is {none: \"why\"} alone", true);
        else if (!none->IsString() || none->GetStringLength() == 0)
          Error(here + "/none", "none: says why the plugin cannot have this trigger (a string)");
        else
          out->triggers_none[name] = none->GetString();
        continue;
      }
      bool ok = true;
      for (const auto& m : t.value.GetObject()) {
        std::string k(m.name.GetString(), m.name.GetStringLength());
        if (k != "method" && k != "params") {
          Error(here + "/" + json::EscapePointerToken(k),
                "unknown key '" + k + "' in a trigger (known: method, params; or none alone)",
                true);
          ok = false;
        }
      }
      const rapidjson::Value* method = json::Find(t.value, "method");
      if (!method || !method->IsString() || method->GetStringLength() == 0) {
        Error(method ? here + "/method" : here, "a trigger needs method: a non-empty string",
              method == nullptr);
        ok = false;
      }
      const rapidjson::Value* params = json::Find(t.value, "params");
      if (params && !params->IsObject() && !params->IsArray()) {
        Error(here + "/params", "params is a map or a list");
        ok = false;
      }
      std::vector<std::pair<std::string, std::string>> bad;
      scenario::CheckTemplates(t.value, &bad);
      for (const auto& [pointer, message] : bad) {
        Error(here + pointer, message);
        ok = false;
      }
      if (ok) out->triggers[name] = Copy(t.value);
    }
  }

  // host: {replies: {METHOD: {result: ...} | {error: ...}}}; which methods exist and which
  // members an answer has are the profile's (CheckPluginConfig).
  void Host(const rapidjson::Value& v, const std::string& at, PluginConfig* out) {
    if (!v.IsObject()) return Error(at, "host is a map with replies: {METHOD: {result: ...}}");
    for (const auto& m : v.GetObject()) {
      std::string key(m.name.GetString(), m.name.GetStringLength());
      std::string here = at + "/" + json::EscapePointerToken(key);
      if (key != "replies") {
        Error(here, "unknown key '" + key + "' in host (known: replies)", true);
        continue;
      }
      if (!m.value.IsObject()) {
        Error(here, "replies is a map of METHOD: {result: ...}");
        continue;
      }
      for (const auto& r : m.value.GetObject()) {
        std::string method(r.name.GetString(), r.name.GetStringLength());
        std::string there = here + "/" + json::EscapePointerToken(method);
        out->host_reply_locs[method] = Loc(there, true);
        bool one = r.value.IsObject() && r.value.MemberCount() == 1 &&
                   (json::Find(r.value, "result") || json::Find(r.value, "error"));
        if (!one)
          Error(there,
                "a reply is a map with one key, result (or error where the protocol has "
                "error answers): {result: {...}}",
                true);
        else
          out->host_replies[method] = Copy(r.value);
      }
    }
  }

  scenario::JsonPtr Copy(const rapidjson::Value& v) {
    auto doc = std::make_shared<rapidjson::Document>();
    doc->CopyFrom(v, doc->GetAllocator());
    return doc;
  }

  SourceLoc Loc(const std::string& pointer, bool at_key) const {
    return where_.At(pointer, at_key);
  }

  void Error(const std::string& pointer, std::string message, bool at_key = false) {
    errors_->push_back({Loc(pointer, at_key), std::move(message)});
  }

  const scenario::YamlLocator& where_;
  std::vector<LoadError>* errors_;
};

// The methods the profile's host answers: those it has a reply for or a capability guards
// (by name or prefix). The members an answer may have are those of the profile's own answers
// (Flash: result; RIM: result or error); where those results carry `ok` (Flash's response
// law) everywhere, a reply's result must carry a boolean ok too.
void CheckHostReplies(const PluginConfig& config, const protocol::Profile& profile,
                      std::vector<LoadError>* errors) {
  const protocol::HostSpec& host = profile.host();
  std::set<std::string, std::less<>> methods, members;
  bool ok_law = true, any_result = false;  // every result of the profile's carries ok
  auto answer = [&](const protocol::HostAnswer& a) {
    if (!a.body) return;  // a builtin
    for (const auto& m : a.body->GetObject()) members.emplace(json::View(m.name));
    if (const rapidjson::Value* r = json::Find(*a.body, "result")) {
      any_result = true;
      ok_law = ok_law && r->IsObject() && json::Find(*r, "ok") != nullptr;
    }
  };
  for (const auto& [method, reply] : host.replies) {
    methods.insert(method);
    answer(reply);
  }
  for (const auto& [method, capability] : host.capabilities) methods.insert(method);
  for (const auto* a :
       {&host.denied, &host.unknown, &host.rate_limited, &host.unimplemented_granted})
    if (*a) answer(**a);
  auto known = [&](const std::string& method) {
    if (methods.count(method)) return true;
    for (const auto& [prefix, capability] : host.capability_prefixes)
      if (method.size() > prefix.size() && method.compare(0, prefix.size(), prefix) == 0)
        return true;
    return false;
  };
  for (const auto& [method, loc] : config.host_reply_locs) {
    if (!known(method)) {
      std::string list;
      for (const auto& m : methods) list += (list.empty() ? "" : ", ") + m;
      errors->push_back({loc, "host: replies: " + profile.name() + " has no plugin->host method '" +
                                  method + "' (known: " + list + ")"});
      continue;
    }
    auto it = config.host_replies.find(method);
    if (it == config.host_replies.end()) continue;  // its shape is already an error
    const rapidjson::Value& reply = *it->second;
    const std::string key = reply.MemberBegin()->name.GetString();
    if (!members.count(key)) {
      errors->push_back(
          {loc, "a " + profile.name() + " host never answers with " + key + "; use result"});
      continue;
    }
    const rapidjson::Value* result = json::Find(reply, "result");
    const rapidjson::Value* ok = result && result->IsObject() ? json::Find(*result, "ok") : nullptr;
    if (ok_law && any_result && result && !(ok && ok->IsBool()))
      errors->push_back({loc, "a " + profile.name() +
                                  " result is a map carrying boolean ok (the response law): "
                                  "{result: {ok: true, ...}}"});
  }
}

// Each answer as the host sends it (the envelope's members, an id, the answer's member) against
// the frame schema's response to its method: `{result: {roots: x}}` is refused at its line.
void CheckHostRepliesAgainstSchema(const PluginConfig& config, const protocol::Profile& profile,
                                   const schema::FrameSchema& frames,
                                   std::vector<LoadError>* errors) {
  for (const auto& [method, reply] : config.host_replies) {
    const std::string def = schema::RouteDef(frames, schema::FrameKind::kResponse, method);
    if (def.empty() || !reply || !reply->IsObject()) continue;
    rapidjson::Document frame(rapidjson::kObjectType);
    auto& a = frame.GetAllocator();
    for (const auto& m : profile.host_members().GetObject())
      frame.AddMember(rapidjson::Value(m.name, a), rapidjson::Value(m.value, a), a);
    frame.AddMember("id", 1, a);
    for (const auto& m : reply->GetObject())
      frame.AddMember(rapidjson::Value(m.name, a), rapidjson::Value(m.value, a), a);
    std::vector<schema::Violation> violations = frames.Validate(def, frame);
    if (violations.empty()) continue;
    auto loc = config.host_reply_locs.find(method);
    errors->push_back({loc == config.host_reply_locs.end() ? result::SourceLoc{} : loc->second,
                       "host: replies: " + method + ": not an answer " + profile.name() +
                           " allows (" +
                           (violations.front().pointer.empty() ? "/" : violations.front().pointer) +
                           ": " + violations.front().message + ")"});
  }
}

}  // namespace

bool ParsePluginConfig(std::string_view text, const std::string& file, PluginConfig* out,
                       std::vector<LoadError>* errors) {
  const std::size_t before = errors->size();
  out->file = file;
  rapidjson::Document doc;
  scenario::YamlLocator where;
  if (!scenario::ParseYamlToJson(text, file, &doc, &where, errors)) return false;
  ConfigReader(where, errors).Read(doc, out);
  return errors->size() == before;
}

bool ReadPluginConfig(const std::string& path, PluginConfig* out, std::vector<LoadError>* errors) {
  std::string text;
  return scenario::ReadInputFile(path, &text, errors) && ParsePluginConfig(text, path, out, errors);
}

bool CheckPluginConfig(const PluginConfig& config, const protocol::Profile& profile,
                       std::vector<LoadError>* errors, const schema::FrameSchema* frames) {
  const std::size_t before = errors->size();
  if (!config.protocol.empty() && config.protocol != profile.name())
    errors->push_back({config.protocol_loc,
                       "protocol: " + config.protocol + ", but the run is " + profile.name()});
  bool passes_config = false;
  for (const auto& [name, templ] : profile.plugin_env())
    passes_config |= templ.find("${scenario.config_json}") != std::string::npos;
  if (config.config && !passes_config)
    errors->push_back({config.config_loc, "config: is not passed to a " + profile.name() +
                                              " plugin (its host has no configuration object)"});
  if (!config.command.empty() && profile.has_manifest())
    errors->push_back({config.command_loc, "command: is for plugins without a manifest; a " +
                                               profile.name() + " plugin is started as its " +
                                               profile.manifest().file + " says"});
  if ((config.call_all_tools || !config.call_tools.empty()) &&
      !json::Find(profile.document(), "derive"))
    errors->push_back({config.tools_loc,
                       "tools: is for a protocol whose triggers fakehost makes "
                       "from the plugin's own tools (mcp-stdio), not " +
                           profile.name()});
  CheckHostReplies(config, profile, errors);
  if (frames) CheckHostRepliesAgainstSchema(config, profile, *frames, errors);
  std::vector<std::string> known = profile.trigger_names();
  for (const auto& [name, loc] : config.trigger_locs) {
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    errors->push_back(
        {loc, "unknown trigger '" + name + "' for " + profile.name() + " (known: " + list + ")"});
  }
  return errors->size() == before;
}

}  // namespace fakehost::run
