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
    if (!list || !list->IsArray()) return;
  } else {
    return;
  }
  granted_.clear();
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
  const rapidjson::Value& host = profile_.host();
  if (const rapidjson::Value* caps = json::Find(host, "capabilities"); caps && caps->IsObject()) {
    if (const rapidjson::Value* c = json::Find(*caps, method); c && c->IsString())
      return c->GetString();
  }
  if (const rapidjson::Value* pre = json::Find(host, "capability_prefixes");
      pre && pre->IsObject()) {
    for (const auto& p : pre->GetObject()) {
      std::string_view prefix(p.name.GetString(), p.name.GetStringLength());
      if (p.value.IsString() && method.substr(0, prefix.size()) == prefix)
        return p.value.GetString();
    }
  }
  return {};
}

void HostResponder::Fill(const rapidjson::Value& templ, std::string_view method,
                         std::string_view capability, Answer* out) const {
  Expand(templ, method, capability, out->body.GetAllocator(), &out->body);
}

bool HostResponder::Builtin(std::string_view name, const rapidjson::Value* params, Answer* out) {
  auto& a = out->body.GetAllocator();
  out->body.SetObject();
  rapidjson::Value result(rapidjson::kObjectType);
  const rapidjson::Value* key = params && params->IsObject() ? json::Find(*params, "key") : nullptr;
  if (name != "storage_get" && name != "storage_set") return false;
  if (!key || !key->IsString() || key->GetStringLength() == 0) {
    result.AddMember("ok", false, a);
    result.AddMember("error", "key must be a non-empty string", a);
  } else if (name == "storage_get") {
    const rapidjson::Value* stored = json::Find(storage_, key->GetString());
    result.AddMember("ok", true, a);
    rapidjson::Value value;
    if (stored) value.CopyFrom(*stored, a);
    result.AddMember("value", value, a);
  } else {
    const rapidjson::Value* value = json::Find(*params, "value");
    rapidjson::Value copy;
    if (value) copy.CopyFrom(*value, storage_.GetAllocator());
    if (auto* old = const_cast<rapidjson::Value*>(json::Find(storage_, key->GetString())))
      *old = copy;
    else
      storage_.AddMember(rapidjson::Value(key->GetString(), storage_.GetAllocator()), copy,
                         storage_.GetAllocator());
    result.AddMember("ok", true, a);
  }
  out->body.AddMember("result", result, a);
  out->why = "builtin " + std::string(name);
  return true;
}

// Over 60 lines: the fake host's decision in the order a real host makes it (held, scripted,
// capability, rate limit, defaults).
HostResponder::Answer HostResponder::Decide(std::string_view method, const rapidjson::Value* params,
                                            Clock::time_point now) {
  Answer a;
  if (auto it = held_.find(method); it != held_.end()) {
    a.hold = true;
    a.why = Why("held by the scenario", it->second);
    return a;
  }
  if (auto it = overrides_.find(method); it != overrides_.end()) {
    Fill(it->second.body, method, "", &a);
    a.why = Why("scenario reply", it->second.reason);
    return a;
  }
  const rapidjson::Value& host = profile_.host();
  if (const rapidjson::Value* replies = json::Find(host, "replies"); replies && replies->IsObject())
    if (const rapidjson::Value* r = json::Find(*replies, method)) {
      const rapidjson::Value* builtin = r->IsObject() ? json::Find(*r, "builtin") : nullptr;
      if (builtin && builtin->IsString() && Builtin(builtin->GetString(), params, &a)) return a;
      Fill(*r, method, "", &a);
      a.why = "profile reply";
      return a;
    }
  // A scenario's "*" scripts the host's answer to whatever the plugin calls, except what the
  // profile answers by itself (RIM rim.log, Flash storage): which method a plugin calls is its
  // own business, how the host answers it the scenario's.
  if (auto it = held_.find("*"); it != held_.end()) {
    ++wildcard_answers_;
    a.hold = true;
    a.why = Why("held by the scenario", it->second);
    return a;
  }
  if (auto it = overrides_.find("*"); it != overrides_.end()) {
    ++wildcard_answers_;
    Fill(it->second.body, method, "", &a);
    a.why = Why("scenario reply", it->second.reason);
    return a;
  }
  std::string capability = CapabilityFor(method);
  if (capability.empty()) {
    if (const rapidjson::Value* u = json::Find(host, "unknown")) Fill(*u, method, "", &a);
    a.why = "not implemented by the host";
    return a;
  }
  if (!granted_.count(capability)) {
    if (const rapidjson::Value* d = json::Find(host, "denied")) Fill(*d, method, capability, &a);
    a.why = "capability " + capability + " not granted";
    return a;
  }
  // Rate limit per capability over a sliding minute (RIM §12: 120 calls/minute by default).
  const rapidjson::Value* limit = json::Find(host, "rate_limit_per_minute");
  if (limit && limit->IsInt64()) {
    auto& calls = calls_[capability];
    while (!calls.empty() && now - calls.front() >= std::chrono::minutes(1)) calls.pop_front();
    if (static_cast<std::int64_t>(calls.size()) >= limit->GetInt64()) {
      if (const rapidjson::Value* rl = json::Find(host, "rate_limited"))
        Fill(*rl, method, capability, &a);
      a.why = "over the rate limit of " + std::to_string(limit->GetInt64()) + "/minute for " +
              capability;
      return a;
    }
    calls.push_back(now);
  }
  if (const rapidjson::Value* g = json::Find(host, "unimplemented_granted"))
    Fill(*g, method, capability, &a);
  a.why = "granted, but not implemented by the fake host";
  return a;
}

}  // namespace fakehost::protocol
