#include "harness/protocol/host.hpp"

#include "harness/json/json.hpp"
#include "harness/text/template.hpp"

namespace fakehost::protocol {
namespace {

// Copies `in`, filling ${method} and ${capability} in every string. Any other placeholder, and a
// string whose "${" is never closed, stays as written: the templates are the profile's and a
// scenario's `host:` replies, which the loader does not fill, and an answer has no error path.
void Expand(const rapidjson::Value& in, std::string_view method, std::string_view capability,
            rapidjson::Document::AllocatorType& alloc, rapidjson::Value* out) {
  if (in.IsString()) {
    const std::string_view s(in.GetString(), in.GetStringLength());
    std::string filled, error;
    const bool ok =
        text::HasPlaceholders(s) && text::Fill(
                                        s,
                                        [&](std::string_view name) -> std::optional<std::string> {
                                          if (name == "method") return std::string(method);
                                          if (name == "capability") return std::string(capability);
                                          return text::Placeholder(name);
                                        },
                                        &filled, &error);
    if (!ok) filled = s;
    out->SetString(filled.data(), static_cast<rapidjson::SizeType>(filled.size()), alloc);
  } else if (in.IsObject()) {
    out->SetObject();
    for (const auto& m : in.GetObject()) {
      rapidjson::Value v;
      Expand(m.value, method, capability, alloc, &v);
      out->AddMember(rapidjson::Value(m.name, alloc), v, alloc);
    }
  } else if (in.IsArray()) {
    out->SetArray();
    for (const auto& e : in.GetArray()) {
      rapidjson::Value v;
      Expand(e, method, capability, alloc, &v);
      out->PushBack(v, alloc);
    }
  } else {
    out->CopyFrom(in, alloc);
  }
}

// "held by the scenario (the expect at f.yaml:12 replies to it)".
std::string Why(std::string what, const std::string& reason) {
  return reason.empty() ? what : what + " (" + reason + ")";
}

}  // namespace

HostResponder::HostResponder(const Profile& profile, const rapidjson::Value* manifest)
    : profile_(profile) {
  Grant(manifest, nullptr);
}

void HostResponder::HandshakeSent(const rapidjson::Value& frame) { Grant(nullptr, &frame); }

void HostResponder::Grant(const rapidjson::Value* manifest, const rapidjson::Value* handshake) {
  // Flash grants what the manifest declares (checked per process against it); RIM grants what
  // the host's handshake says. A profile names one source; the other never grants anything.
  const std::string& from_manifest = profile_.granted_from_manifest();
  const std::string& from_handshake = profile_.granted_capabilities_pointer();
  const rapidjson::Value* list = nullptr;
  if (manifest && !from_manifest.empty()) {
    list = json::Resolve(*manifest, from_manifest);  // a manifest without it grants nothing
  } else if (handshake && !from_handshake.empty()) {
    list = json::Resolve(*handshake, from_handshake);
    if (!list || !(list->IsArray() || list->IsObject())) return;
  } else {
    return;
  }
  granted_.clear();
  // A list of names (RIM, a Flash manifest), or an object whose member names are the
  // capabilities (MCP's ClientCapabilities: {"roots": {...}, "sampling": {}}).
  if (list && list->IsObject())
    for (const auto& m : list->GetObject())
      if (!m.value.IsNull() && !m.value.IsFalse()) granted_.emplace(json::View(m.name));
  if (!list || !list->IsArray()) return;
  for (const auto& c : list->GetArray())
    if (c.IsString()) granted_.emplace(c.GetString(), c.GetStringLength());
}

void HostResponder::Apply(const AnswerPolicy& policy) {
  for (const auto& [method, rule] : policy.by_method) {
    if (rule.hold)
      Hold(method, rule.reason);
    else if (rule.reply)
      Override(method, *rule.reply, rule.reason);
  }
}

void HostResponder::Override(std::string method, const rapidjson::Value& body, std::string reason) {
  Scripted s{rapidjson::Document(), std::move(reason)};
  s.body.CopyFrom(body, s.body.GetAllocator());
  held_.erase(method);
  overrides_.insert_or_assign(std::move(method), std::move(s));
}

void HostResponder::Hold(std::string method, std::string reason) {
  overrides_.erase(method);
  held_.insert_or_assign(std::move(method), std::move(reason));
}

std::string HostResponder::CapabilityFor(std::string_view method) const {
  return profile_.host().CapabilityFor(method);
}

void HostResponder::FillProfile(const HostAnswer& answer, std::string_view method,
                                std::string_view capability, Answer* out) const {
  if (answer.body) Fill(*answer.body, method, capability, out);
  out->stand_in = answer.stand_in;
}

void HostResponder::Fill(const rapidjson::Value& templ, std::string_view method,
                         std::string_view capability, Answer* out) const {
  Expand(templ, method, capability, out->body.GetAllocator(), &out->body);
  // A profile's answer may say it is a stand-in; that note is the engine's, never the frame's.
  if (out->body.IsObject()) {
    if (const rapidjson::Value* s = json::Find(out->body, "stand_in"); s && s->IsString())
      out->stand_in = s->GetString();
    out->body.RemoveMember("stand_in");
  }
}

void HostResponder::SetPluginReplies(std::map<std::string, JsonPtr, std::less<>> replies,
                                     std::string source) {
  plugin_replies_ = std::move(replies);
  plugin_source_ = std::move(source);
}

void HostResponder::Answered(std::string_view method, const Answer& a) {
  if (a.stand_in.empty()) return;
  for (const auto& s : stand_ins_)
    if (s.method == method) return;
  stand_ins_.push_back({std::string(method), a.stand_in});
}

bool HostResponder::Builtin(std::string_view name, const rapidjson::Value* params, Answer* out) {
  if (name != "echo" && name != "storage_get" && name != "storage_set") return false;
  auto& a = out->body.GetAllocator();
  out->body.SetObject();
  rapidjson::Value result(rapidjson::kObjectType);
  out->why = "builtin " + std::string(name);
  if (name == "echo") {  // Flash host.ping: {ok: true, echo: the params}
    rapidjson::Value echo(rapidjson::kObjectType);
    if (params && params->IsObject()) echo.CopyFrom(*params, a);
    result.AddMember("ok", true, a);
    result.AddMember("echo", echo, a);
    out->body.AddMember("result", result, a);
    return true;
  }
  std::string error = StorageError(name, params);
  if (!error.empty()) {
    result.AddMember("ok", false, a);
    result.AddMember("error", rapidjson::Value(error.c_str(), a), a);
  } else {
    const rapidjson::Value& key = *json::Find(*params, "key");
    auto& store = storage_.GetAllocator();
    auto it = storage_.FindMember(key);
    rapidjson::Value* stored = it == storage_.MemberEnd() ? nullptr : &it->value;
    result.AddMember("ok", true, a);
    if (name == "storage_get") {
      result.AddMember("present", stored != nullptr, a);
      rapidjson::Value value;
      if (stored) value.CopyFrom(*stored, a);
      result.AddMember("value", value, a);
    } else if (const rapidjson::Value* value = json::Find(*params, "value");
               !value || value->IsNull()) {
      if (stored) storage_.EraseMember(it);  // null deletes
    } else if (stored) {
      stored->CopyFrom(*value, store);
    } else {
      storage_.AddMember(rapidjson::Value(key, store), rapidjson::Value(*value, store), store);
    }
  }
  out->body.AddMember("result", result, a);
  return true;
}

// The Flash host's bounds on its key-value store (its tests of the storage arms): a key of 1 to
// 128 bytes, a string or null value of at most 64 KiB, at most 256 keys.
std::string HostResponder::StorageError(std::string_view name,
                                        const rapidjson::Value* params) const {
  const std::string arm = "host." + std::string(name);
  const rapidjson::Value* key = params && params->IsObject() ? json::Find(*params, "key") : nullptr;
  if (!key || !key->IsString() || key->GetStringLength() == 0 || key->GetStringLength() > 128)
    return arm + " requires a key under 128 bytes";
  if (name != "storage_set") return {};
  const rapidjson::Value* value = json::Find(*params, "value");
  if (value && !value->IsNull() && !value->IsString())
    return arm + " value must be a string or null";
  if (value && value->IsString() && value->GetStringLength() > 64 * 1024)
    return "storage bound exceeded: a value holds at most 64 KiB";
  if (value && value->IsString() && storage_.FindMember(*key) == storage_.MemberEnd() &&
      storage_.MemberCount() >= 256)
    return "storage bound exceeded: at most 256 keys";
  return {};
}

// The profile's fixed reply for `method`, computed when it names a builtin; false when the
// profile has none.
bool HostResponder::ProfileReply(std::string_view method, const rapidjson::Value* params,
                                 Answer* out) {
  const HostAnswer* reply = profile_.host().Reply(method);
  if (!reply) return false;
  if (!reply->builtin.empty() && Builtin(reply->builtin, params, out)) return true;
  FillProfile(*reply, method, "", out);
  out->why = out->stand_in.empty() ? "profile reply" : "profile reply, a stand-in";
  return true;
}

bool HostResponder::PluginReply(std::string_view method, Answer* out) const {
  auto it = plugin_replies_.find(method);
  if (it == plugin_replies_.end() || !it->second) return false;
  Fill(*it->second, method, "", out);
  out->stand_in.clear();  // the plugin's author gave it: the answer the plugin needs
  out->why = "reply from " + (plugin_source_.empty() ? "fakehost.yaml" : plugin_source_);
  return true;
}

bool HostResponder::ScenarioAnswer(std::string_view key, std::string_view method,
                                   Answer* out) const {
  if (auto it = held_.find(key); it != held_.end()) {
    out->hold = true;
    out->why = Why("held by the scenario", it->second);
    return true;
  }
  if (auto it = overrides_.find(key); it != overrides_.end()) {
    Fill(it->second.body, method, "", out);
    out->stand_in.clear();
    out->why = Why("scenario reply", it->second.reason);
    return true;
  }
  return false;
}

// Per capability over a sliding minute (RIM §12: 120 calls/minute by default).
bool HostResponder::OverRateLimit(const std::string& capability, std::string_view method,
                                  Clock::time_point now, Answer* out) {
  const HostSpec& host = profile_.host();
  const std::int64_t limit = host.rate_limit_per_minute;
  if (limit <= 0) return false;
  auto& calls = calls_[capability];
  while (!calls.empty() && now - calls.front() >= std::chrono::minutes(1)) calls.pop_front();
  if (static_cast<std::int64_t>(calls.size()) >= limit) {
    if (host.rate_limited) FillProfile(*host.rate_limited, method, capability, out);
    out->why = "over the rate limit of " + std::to_string(limit) + "/minute for " + capability;
    return true;
  }
  calls.push_back(now);
  return false;
}

// The fake host's decision in the order a real host makes it (held, scripted, the answers that
// need no capability, capability, rate limit, the method's answer).
HostResponder::Answer HostResponder::Decide(std::string_view method, const rapidjson::Value* params,
                                            Clock::time_point now) {
  Answer a;
  if (ScenarioAnswer(method, method, &a)) return a;
  const HostSpec& host = profile_.host();
  std::string capability = CapabilityFor(method);
  // A method no capability guards (RIM rim.log, Flash host.ping and storage) is answered by the
  // plugin's fakehost.yaml or the profile before a scenario's "*": which method a plugin calls
  // is its own business, how the host answers it the scenario's.
  if (capability.empty() && (PluginReply(method, &a) || ProfileReply(method, params, &a))) {
    Answered(method, a);
    return a;
  }
  if (ScenarioAnswer("*", method, &a)) {
    ++wildcard_answers_;
    return a;
  }
  if (capability.empty()) {
    if (host.unknown) FillProfile(*host.unknown, method, "", &a);
    a.why = "not implemented by the host";
    return a;
  }
  if (!granted_.count(capability)) {
    if (host.denied) FillProfile(*host.denied, method, capability, &a);
    a.why = "capability " + capability + " not granted";
    return a;
  }
  if (OverRateLimit(capability, method, now, &a)) return a;
  if (!PluginReply(method, &a) && !ProfileReply(method, params, &a)) {
    if (host.unimplemented_granted)
      FillProfile(*host.unimplemented_granted, method, capability, &a);
    a.why = "granted, but not implemented by the fake host";
  }
  Answered(method, a);
  return a;
}

}  // namespace fakehost::protocol
