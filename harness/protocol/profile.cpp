// What a loaded profile answers at use: check wordings, classification, ids, deadlines, stop
// sequences, triggers and the host's table (loading is profile_load.cpp).
#include "harness/protocol/profile.hpp"

#include <algorithm>

#include "harness/json/json.hpp"
#include "harness/text/template.hpp"

namespace fakehost::protocol {

const char* MessageKindName(MessageKind kind) {
  switch (kind) {
    case MessageKind::kRequest:
      return "request";
    case MessageKind::kNotification:
      return "notification";
    case MessageKind::kResponse:
      return "response";
    case MessageKind::kInvalid:
      break;
  }
  return "invalid";
}

bool Profile::TurnsOn(std::string_view id) const {
  if (id == "reused-request-id") return plugin_ids_unique_;
  if (id == "unannounced-notification") return !announced_before_.empty();
  if (id.rfind("progress-", 0) == 0) return progress_.has_value();
  return false;
}

const CheckWording& Profile::Check(std::string_view id, std::string_view revision) const {
  static const CheckWording missing{"(no wording for check ${section})", "", {}};
  auto it = checks_.find(id);
  if (it == checks_.end() || it->second.empty()) return missing;
  if (revision.empty() && revisions_) revision = revisions_->offer;
  for (const CheckWording& wording : it->second)
    if (wording.revisions.empty() || std::find(wording.revisions.begin(), wording.revisions.end(),
                                               revision) != wording.revisions.end())
      return wording;
  return it->second.back();
}

// The loader let through only the names the check's engine passes (and section and revision), so
// every name is known; should the engine omit one, it shows as written rather than losing the
// message.
std::string Profile::FillCheck(
    std::string_view id, std::string_view revision,
    const std::function<const std::string_view*(std::string_view)>& var) const {
  if (revision.empty() && revisions_) revision = revisions_->offer;
  const CheckWording& wording = Check(id, revision);
  auto fill = [&](const std::string& pattern, const std::string* section) {
    std::string out, error;
    const bool ok = text::Fill(
        pattern,
        [&](std::string_view name) -> std::optional<std::string> {
          if (name == "revision") return std::string(revision);
          if (name == "section" && section) return *section;
          if (const std::string_view* value = var(name)) return std::string(*value);
          return text::Placeholder(name);
        },
        &out, &error);
    return ok ? out : pattern;
  };
  const std::string section = fill(wording.section, nullptr);
  return fill(wording.text, &section);
}

std::string Profile::CheckMessage(
    std::string_view id, std::initializer_list<std::pair<std::string_view, std::string_view>> vars,
    std::string_view revision) const {
  return FillCheck(id, revision, [&](std::string_view name) -> const std::string_view* {
    for (const auto& pair : vars)
      if (pair.first == name) return &pair.second;
    return nullptr;
  });
}

std::string Profile::CheckMessage(std::string_view id,
                                  const std::vector<std::pair<std::string, std::string>>& vars,
                                  std::string_view revision) const {
  std::string_view found;
  return FillCheck(id, revision, [&](std::string_view name) -> const std::string_view* {
    for (const auto& [key, value] : vars)
      if (key == name) return &(found = value);
    return nullptr;
  });
}

Classified Profile::Classify(const rapidjson::Value& message) const {
  Classified c;
  if (!message.IsObject()) {
    c.reason = std::string("not an object but ") + json::TypeName(message);
    return c;
  }
  const rapidjson::Value* method = json::Find(message, "method");
  const rapidjson::Value* id = json::Find(message, "id");
  c.id = id;
  bool has_id = id && !(null_id_is_notification_ && id->IsNull());
  if (method) {
    if (!method->IsString()) {
      c.reason = std::string("method is ") + json::TypeName(*method) + ", not a string";
      return c;
    }
    c.method.assign(method->GetString(), method->GetStringLength());
    c.kind = has_id ? MessageKind::kRequest : MessageKind::kNotification;
    return c;
  }
  if (id || (error_without_id_ && json::Find(message, "error"))) {
    c.kind = MessageKind::kResponse;
    return c;
  }
  c.reason = "neither method nor id";
  return c;
}

IdSequence Profile::IdsFor(std::string_view method) const {
  auto it = ids_by_method_.find(method);
  return it == ids_by_method_.end() ? default_ids_ : it->second;
}

Ms Profile::DeadlineFor(std::string_view method) const {
  auto it = deadlines_by_method_.find(method);
  return it == deadlines_by_method_.end() ? default_deadline_ : it->second;
}

std::optional<Ms> Profile::ManifestDeadlineFor(const rapidjson::Value& request,
                                               const rapidjson::Value* manifest) const {
  const rapidjson::Value* method = json::Find(request, "method");
  if (!manifest || !method || !method->IsString()) return std::nullopt;
  for (const ManifestDeadline& rule : manifest_deadlines_) {
    if (rule.method != json::View(*method)) continue;
    const rapidjson::Value* items = json::Resolve(*manifest, rule.items);
    if (!items || !items->IsArray()) continue;
    for (const auto& item : items->GetArray()) {
      if (!item.IsObject()) continue;
      bool same = true;
      for (const auto& [member, pointer] : rule.match) {
        const rapidjson::Value* mine = json::Find(item, member);
        const rapidjson::Value* sent = json::Resolve(request, pointer);
        auto fallback = rule.defaults.find(member);
        if (!sent || !sent->IsString()) {
          same = false;
        } else if (mine && mine->IsString()) {
          same = json::View(*mine) == json::View(*sent);
        } else {
          same = !mine && fallback != rule.defaults.end() && fallback->second == json::View(*sent);
        }
        if (!same) break;
      }
      const rapidjson::Value* ms = json::Find(item, rule.value);
      if (same && ms && ms->IsInt64() && ms->GetInt64() > 0) return Ms(ms->GetInt64());
    }
  }
  return std::nullopt;
}

const Revision* Revisions::Find(std::string_view revision) const {
  for (const Revision& r : known)
    if (r.name == revision) return &r;
  return nullptr;
}

std::string Revisions::KnownList() const {
  std::string list;
  for (const Revision& r : known) list += (list.empty() ? "" : ", ") + r.name;
  return list;
}

std::string Revisions::NewestWithoutHandshake() const {
  for (auto r = known.rbegin(); r != known.rend(); ++r)
    if (!r->handshake) return r->name;
  return {};
}

bool Profile::AllowedBeforeHandshake(std::string_view method) const {
  return allowed_before_handshake_.count(method) > 0;
}

const std::vector<StopStepSpec>* Profile::StopSequence(std::string_view name) const {
  auto it = stop_sequences_.find(name);
  return it == stop_sequences_.end() ? nullptr : &it->second;
}

bool ResolveLimits(const LimitsSpec& profile, std::optional<std::int64_t> cpu_seconds,
                   std::optional<std::int64_t> memory_mib, LimitsSpec* out, std::string* error) {
  *out = profile;
#if defined(__SANITIZE_ADDRESS__)
  out->address_space_bytes = 0;
#endif
  if (cpu_seconds) {
    if (*cpu_seconds < 0 || *cpu_seconds > 86400) {
      *error = "--limit-cpu takes 0 (none) to 86400 seconds, got " + std::to_string(*cpu_seconds);
      return false;
    }
    out->cpu_seconds = static_cast<std::uint64_t>(*cpu_seconds);
  }
  if (memory_mib) {
    if (*memory_mib != 0 && (*memory_mib < 16 || *memory_mib > (std::int64_t{1} << 30))) {
      *error =
          "--limit-memory takes 0 (none) or 16 to 2^30 MiB, got " + std::to_string(*memory_mib);
      return false;
    }
    out->address_space_bytes = static_cast<std::uint64_t>(*memory_mib) << 20;
  }
  return true;
}

const TriggerSpec* Profile::trigger(std::string_view name) const {
  for (const TriggerSpec& t : triggers_)
    if (t.name == name) return &t;
  return nullptr;
}

std::vector<std::string> Profile::trigger_names() const {
  std::vector<std::string> out;
  for (const TriggerSpec& t : triggers_) out.push_back(t.name);
  return out;
}

const HostAnswer* HostSpec::Reply(std::string_view method) const {
  for (const auto& [name, answer] : replies)
    if (name == method) return &answer;
  return nullptr;
}

std::string HostSpec::CapabilityFor(std::string_view method) const {
  for (const auto& [name, capability] : capabilities)
    if (name == method) return capability;
  for (const auto& [prefix, capability] : capability_prefixes)
    if (method.substr(0, prefix.size()) == prefix) return capability;
  return {};
}

}  // namespace fakehost::protocol
