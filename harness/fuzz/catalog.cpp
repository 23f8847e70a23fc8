// The fuzzer's catalogue: what the host may send, read once from the profile and the frame
// schema's examples (BuildCatalog), the variables only a scenario fills, and the handshake
// fragment every session starts with. generator.cpp draws sessions from it.
#include <algorithm>
#include <filesystem>
#include <set>

#include "harness/fuzz/generator.hpp"
#include "harness/json/json.hpp"
#include "harness/json/text_file.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/scenario/yaml_json.hpp"
#include "harness/schema/schema.hpp"

namespace fakehost::fuzz {
namespace {

using rapidjson::Value;

bool EndsWith(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// A schema example as a message: without its id and the members the profile adds itself.
Json AsMessage(const Value& example, const protocol::Profile& profile) {
  rapidjson::Document d;
  d.CopyFrom(example, d.GetAllocator());
  if (!d.IsObject()) return nullptr;
  d.RemoveMember("id");
  for (const auto& m : profile.host_members().GetObject()) d.RemoveMember(m.name);
  for (const protocol::RequestMember& m : profile.request_members()) d.RemoveMember(m.name.c_str());
  return MakeJson(std::move(d));
}

// The first names of the variables in every string of `v` ("${text}" -> "text", "${a.b}" ->
// "a"; the escape "$${" is no variable).
void VariableHeads(const rapidjson::Value& v, std::set<std::string>* out) {
  if (v.IsString()) {
    std::string_view s(v.GetString(), v.GetStringLength());
    for (std::size_t at = s.find("${"); at != std::string_view::npos; at = s.find("${", at + 2)) {
      if (at > 0 && s[at - 1] == '$') continue;
      std::size_t end = s.find('}', at);
      if (end == std::string_view::npos) break;
      std::string_view path = s.substr(at + 2, end - at - 2);
      out->emplace(path.substr(0, path.find('.')));
    }
  } else if (v.IsArray()) {
    for (const auto& e : v.GetArray()) VariableHeads(e, out);
  } else if (v.IsObject()) {
    for (const auto& m : v.GetObject()) VariableHeads(m.value, out);
  }
}

}  // namespace

std::vector<std::pair<std::string, std::string>> ScenarioOnlyVariables(
    const protocol::Profile& profile, const std::vector<const rapidjson::Value*>& requests) {
  std::set<std::string> heads;
  for (const rapidjson::Value* r : requests)
    if (r) VariableHeads(*r, &heads);
  // What interpreter::Player::BuildVars fills without a scenario's help.
  std::set<std::string> known = {"plugin", "host", "scenario", "manifest", "item", "item_args"};
  for (const auto& m : profile.vars().GetObject()) known.emplace(json::View(m.name));
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& head : heads)
    if (!known.count(head)) out.emplace_back(head, "fakehost-fuzz-" + head);
  return out;
}

namespace {

// The examples of a host->plugin response def, each a reply body: a result answers the method
// it is an example of, an error any method.
void AddReplyExamples(const std::string& def, const Value& examples, Catalog* out) {
  for (const auto& ex : examples.GetArray()) {
    rapidjson::Document body(rapidjson::kObjectType);
    for (const char* k : {"result", "error"})
      if (const Value* v = json::Find(ex, k))
        body.AddMember(Value(k, body.GetAllocator()), Value(*v, body.GetAllocator()),
                       body.GetAllocator());
    const std::string method = json::Find(body, "result") ? def.substr(0, def.rfind('.')) : "";
    if (body.MemberCount() == 1) out->reply_bodies.push_back({method, MakeJson(std::move(body))});
  }
}

// The examples of a request or notification def as messages the host may send. The handshake
// is sent once, first; the shutdown notification ends the session: neither is among them.
void AddMessageExamples(const protocol::Profile& profile, const std::string& def, bool request,
                        const Value& examples, Catalog* out) {
  Catalog::Entry e;
  e.def = def;
  for (const auto& ex : examples.GetArray()) {
    Json m = AsMessage(ex, profile);
    const Value* method = m ? json::Find(*m, "method") : nullptr;
    if (!method || !method->IsString()) continue;
    std::string name = method->GetString();
    if (name == out->handshake_method || name == out->shutdown_method) continue;
    e.method = name;
    e.messages.push_back(std::move(m));
  }
  if (e.messages.empty()) return;
  (request ? out->requests : out->notifications).push_back(std::move(e));
}

// The schema's defs with an x-direction and examples, each by its kind.
void AddSchemaExamples(const protocol::Profile& profile, const schema::FrameSchema& schema,
                       Catalog* out) {
  for (const std::string& def : schema.DefNames()) {
    const Value* d = schema.Def(def);
    const Value* dir = d ? json::Find(*d, "x-direction") : nullptr;
    const Value* examples = d ? json::Find(*d, "examples") : nullptr;
    if (!dir || !dir->IsString() || !examples || !examples->IsArray()) continue;
    std::string direction = dir->GetString();
    bool host_sends = direction == "host->plugin" || direction == "both";
    if (EndsWith(def, ".response") && direction == "host->plugin") {
      AddReplyExamples(def, *examples, out);
      continue;
    }
    bool request = EndsWith(def, ".request");
    if (!host_sends || (!request && !EndsWith(def, ".notification"))) continue;
    AddMessageExamples(profile, def, request, *examples, out);
  }
}

// The profile's own refusals are answers a host gives too.
void AddProfileRefusals(const protocol::Profile& profile, Catalog* out) {
  const protocol::HostSpec& host = profile.host();
  for (const auto* answer : {&host.denied, &host.unknown, &host.rate_limited}) {
    if (!*answer || !(*answer)->body) continue;
    std::string text = json::ToCompact(*(*answer)->body);
    std::string escaped;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text.compare(i, 2, "${") == 0) escaped += '$';  // $${ is a literal ${
      escaped += text[i];
    }
    if (Json j = JsonFromText(escaped)) out->reply_bodies.push_back({"", std::move(j)});
  }
}

}  // namespace

// The catalogue reads the profile and the schema's entries one kind at a time.
bool BuildCatalog(const protocol::Profile& profile, const schema::FrameSchema& schema,
                  Json handshake_fragment, std::vector<std::string> triggers, Catalog* out,
                  std::string* error) {
  out->handshake = std::move(handshake_fragment);
  out->triggers = std::move(triggers);
  out->handshake_method = profile.handshake_method();
  out->shutdown_method = profile.shutdown_notification();
  out->barrier_method = profile.barrier_method();
  for (const wire::RawFault& fault : profile.framing().raw_faults())
    (fault.loses_stream ? out->terminal_faults : out->resync_faults).push_back(fault);
  out->max_payload = profile.max_payload();
  AddSchemaExamples(profile, schema, out);
  AddProfileRefusals(profile, out);
  if (out->requests.empty() && out->notifications.empty()) {
    *error = "the frame schema has no host->plugin request or notification with examples";
    return false;
  }
  if (!out->handshake || !out->handshake->IsArray() || out->handshake->Empty()) {
    *error = "no handshake fragment";
    return false;
  }
  return true;
}

Json FindHandshakeFragment(const std::vector<std::string>& fragment_dirs,
                           const protocol::Profile& profile, std::string* error) {
  namespace fs = std::filesystem;
  for (const std::string& dir : fragment_dirs) {
    std::error_code ec;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.path().extension() == ".yaml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& path : files) {
      std::string text, read_error;
      if (!json::ReadFileCapped(path.string(), json::kInputFileCap, &text, &read_error)) continue;
      scenario::YamlTree tree;
      std::vector<scenario::LoadError> errors;
      if (!scenario::ParseYaml(text, path.string(), &tree, &errors) || !errors.empty()) continue;
      rapidjson::Document d;
      if (!scenario::YamlToJson(tree.root(), path.string(), &d, d.GetAllocator(), &errors))
        continue;
      if (!d.IsArray() || d.Empty()) continue;
      const Value* send = json::Find(d[0], "send");
      const Value* method = send ? json::Find(*send, "method") : nullptr;
      if (method && method->IsString() && method->GetString() == profile.handshake_method())
        return MakeJson(std::move(d));
    }
  }
  *error = "no fragment sends " + profile.handshake_method() + " first (looked in " +
           (fragment_dirs.empty() ? std::string("nothing") : fragment_dirs.front()) + ")";
  return nullptr;
}

}  // namespace fakehost::fuzz
