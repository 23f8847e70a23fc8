#include "harness/run/plugin_config.hpp"

#include <algorithm>

#include "harness/json/json.hpp"
#include "harness/json/text_file.hpp"
#include "harness/scenario/template.hpp"
#include "harness/scenario/yaml_json.hpp"

namespace fakehost::run {
namespace {

using scenario::LoadError;
using scenario::SourceLoc;

class ConfigReader {
 public:
  ConfigReader(const scenario::YamlLocator& where, std::vector<LoadError>* errors)
      : where_(where), errors_(errors) {}

  void Read(const rapidjson::Value& doc, PluginConfig* out) {
    if (doc.IsNull()) return;  // an empty file says nothing, which is allowed
    if (!doc.IsObject())
      return Error("", "fakehost.yaml is a map of protocol, env, config, triggers");
    for (const auto& m : doc.GetObject()) {
      std::string key(m.name.GetString(), m.name.GetStringLength());
      std::string at = "/" + json::EscapePointerToken(key);
      if (key == "protocol") {
        if (!m.value.IsString())
          Error(at, "protocol is a string such as rim-v1 or flash-v1");
        else
          out->protocol = m.value.GetString();
        out->protocol_loc = Loc(at, false);
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
      } else {
        Error(at, "unknown key '" + key + "' (known: protocol, env, config, triggers)", true);
      }
    }
  }

 private:
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
      out->env.push_back(name + "=" + value);
    }
  }

  void Triggers(const rapidjson::Value& v, const std::string& at, PluginConfig* out) {
    if (!v.IsObject()) return Error(at, "triggers is a map of NAME: {method: ..., params: ...}");
    for (const auto& t : v.GetObject()) {
      std::string name(t.name.GetString(), t.name.GetStringLength());
      std::string here = at + "/" + json::EscapePointerToken(name);
      out->trigger_locs[name] = Loc(here, true);
      if (!t.value.IsObject()) {
        Error(here, "a trigger is a map {method: METHOD, params: {...}}");
        continue;
      }
      bool ok = true;
      for (const auto& m : t.value.GetObject()) {
        std::string k(m.name.GetString(), m.name.GetStringLength());
        if (k != "method" && k != "params") {
          Error(here + "/" + json::EscapePointerToken(k),
                "unknown key '" + k + "' in a trigger (known: method, params)", true);
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
                       std::vector<LoadError>* errors) {
  const std::size_t before = errors->size();
  if (!config.protocol.empty() && config.protocol != profile.name())
    errors->push_back({config.protocol_loc,
                       "protocol: " + config.protocol + ", but the run is " + profile.name()});
  bool passes_config = false;
  if (const rapidjson::Value* env = profile.plugin_env())
    for (const auto& m : env->GetObject())
      passes_config |= m.value.IsString() &&
                       std::string_view(m.value.GetString()).find("${scenario.config_json}") !=
                           std::string_view::npos;
  if (config.config && !passes_config)
    errors->push_back({config.config_loc, "config: is not passed to a " + profile.name() +
                                              " plugin (its host has no configuration object)"});
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
