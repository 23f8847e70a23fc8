#include "harness/protocol/profile.hpp"

#include "harness/os/signals.hpp"

#include <csignal>
#include <cstring>
#include <fstream>
#include <sstream>

#include "harness/json/json.hpp"
#include "harness/protocol/versioning.hpp"
#include "harness/text/template.hpp"

namespace fakehost::protocol {
namespace {

// Reads profile members with messages that name the member, so a maintainer editing a profile
// sees "profile.json: /deadlines_ms/default: expected an integer" rather than a crash.
class Reader {
 public:
  Reader(const std::string& path, std::string* error) : path_(path), error_(error) {}

  const rapidjson::Value* Get(const rapidjson::Value& root, const char* pointer, bool required) {
    const rapidjson::Value* v = json::Resolve(root, pointer);
    if (!v && required) Fail(pointer, "missing");
    return v;
  }
  bool String(const rapidjson::Value& root, const char* pointer, std::string* out, bool required) {
    const rapidjson::Value* v = Get(root, pointer, required);
    if (!v) return !required;
    if (!v->IsString()) return Fail(pointer, "expected a string");
    out->assign(v->GetString(), v->GetStringLength());
    return true;
  }
  bool Int(const rapidjson::Value& root, const char* pointer, std::int64_t* out, bool required) {
    const rapidjson::Value* v = Get(root, pointer, required);
    if (!v) return !required;
    if (!v->IsInt64()) return Fail(pointer, "expected an integer");
    *out = v->GetInt64();
    return true;
  }
  bool Fail(std::string_view pointer, std::string_view what) {
    if (error_->empty()) *error_ = path_ + ": " + std::string(pointer) + ": " + std::string(what);
    return false;
  }
  bool ok() const { return error_->empty(); }

 private:
  std::string path_;
  std::string* error_;
};

bool ReadIds(Reader& r, const rapidjson::Value& v, const std::string& where, IdSequence* out) {
  if (!v.IsObject()) return r.Fail(where, "expected {start, step}");
  const rapidjson::Value* start = json::Find(v, "start");
  const rapidjson::Value* step = json::Find(v, "step");
  if (!start || !start->IsInt64() || !step || !step->IsInt64() || step->GetInt64() == 0)
    return r.Fail(where, "expected integer start and non-zero integer step");
  *out = {start->GetInt64(), step->GetInt64()};
  return true;
}

bool ReadStopStep(Reader& r, const rapidjson::Value& v, const std::string& where,
                  StopStepSpec* out) {
  if (!v.IsObject()) return r.Fail(where, "expected an object");
  if (const rapidjson::Value* label = json::Find(v, "label"); label && label->IsString())
    out->label = label->GetString();
  if (const rapidjson::Value* w = json::Find(v, "write")) {
    const rapidjson::Value* method = w->IsObject() ? json::Find(*w, "method") : nullptr;
    if (!method || !method->IsString()) return r.Fail(where + "/write", "expected {method}");
    const rapidjson::Value* cap = json::Find(v, "cap_ms");
    if (!cap || !cap->IsInt64()) return r.Fail(where + "/cap_ms", "expected an integer");
    out->kind = StopStepSpec::Kind::kWrite;
    out->method = method->GetString();
    out->time = Ms(cap->GetInt64());
  } else if (json::Find(v, "close_stdin")) {
    out->kind = StopStepSpec::Kind::kCloseStdin;
  } else if (const rapidjson::Value* wait = json::Find(v, "wait_ms")) {
    if (!wait->IsInt64() || wait->GetInt64() < 0)
      return r.Fail(where + "/wait_ms", "expected a non-negative integer");
    out->kind = StopStepSpec::Kind::kWait;
    out->time = Ms(wait->GetInt64());
  } else if (const rapidjson::Value* sig = json::Find(v, "signal")) {
    out->kind = StopStepSpec::Kind::kSignal;
    out->signal = sig->IsString() ? os::SignalNumber(sig->GetString()) : 0;
    if (out->signal == 0) return r.Fail(where + "/signal", "expected a signal name");
  } else {
    return r.Fail(where, "expected one of write, close_stdin, wait_ms, signal");
  }
  if (out->label.empty()) out->label = where;
  return true;
}

// "limits": {"cpu_seconds": N, "address_space_mib": N}, each optional; 0 or absent: none.
void ReadLimits(Reader& r, const rapidjson::Value& d, LimitsSpec* out) {
  const rapidjson::Value* limits = r.Get(d, "/limits", false);
  if (!limits) return;
  if (!limits->IsObject()) {
    r.Fail("/limits", "expected an object");
    return;
  }
  std::int64_t value = 0;
  if (r.Int(d, "/limits/cpu_seconds", &value, false) && value != 0) {
    if (value < 0 || value > 86400) {
      r.Fail("/limits/cpu_seconds", "expected 0 (none) to 86400");
    } else {
      out->cpu_seconds = static_cast<std::uint64_t>(value);
    }
  }
  value = 0;
  if (r.Int(d, "/limits/address_space_mib", &value, false) && value != 0) {
    if (value < 16 || value > (std::int64_t{1} << 30)) {
      r.Fail("/limits/address_space_mib", "expected 0 (none) or 16 to 2^30");
    } else {
      out->address_space_bytes = static_cast<std::uint64_t>(value) << 20;
    }
  }
}

// "transport_budget": {"frames": N, "bytes": N}, both required when present, each >= 1.
void ReadTransportBudget(Reader& r, const rapidjson::Value& d, TransportBudget* out) {
  const rapidjson::Value* budget = r.Get(d, "/transport_budget", false);
  if (!budget) return;
  if (!budget->IsObject()) {
    r.Fail("/transport_budget", "expected an object");
    return;
  }
  std::int64_t frames = 0, bytes = 0;
  if (r.Int(d, "/transport_budget/frames", &frames, true) && frames < 1)
    r.Fail("/transport_budget/frames", "expected a positive integer");
  if (r.Int(d, "/transport_budget/bytes", &bytes, true) && bytes < 1)
    r.Fail("/transport_budget/bytes", "expected a positive integer");
  if (frames > 0 && bytes > 0) {
    out->frames = static_cast<std::uint64_t>(frames);
    out->bytes = static_cast<std::uint64_t>(bytes);
  }
}

}  // namespace

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

std::unique_ptr<Profile> Profile::Load(const std::string& path, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + ": cannot open profile: " + std::strerror(errno);
    return nullptr;
  }
  std::stringstream text;
  text << in.rdbuf();
  return LoadText(text.str(), path, error);
}

std::unique_ptr<Profile> Profile::LoadText(std::string_view text, const std::string& path,
                                           std::string* error) {
  std::unique_ptr<Profile> profile(new Profile());
  json::ParseResult parsed = json::Parse(text, &profile->doc_);
  if (!parsed.ok) {
    *error = path + ": " + parsed.error;
    return nullptr;
  }
  if (!profile->Init(path, error)) return nullptr;
  return profile;
}

// Over 60 lines: it reads the profile's members one after another, each in a few lines, so a
// profile's shape can be checked against this one function.
bool Profile::Init(const std::string& path, std::string* error) {
  error->clear();
  Reader r(path, error);
  const rapidjson::Value& d = doc_;
  if (!d.IsObject()) return r.Fail("", "expected an object");
  auto slash = path.find_last_of('/');
  dir_ = slash == std::string::npos ? "." : path.substr(0, slash);

  r.String(d, "/name", &name_, true);
  r.String(d, "/title", &title_, false);
  if (r.String(d, "/schema", &schema_path_, false) && !schema_path_.empty() &&
      schema_path_[0] != '/')
    schema_path_ = dir_ + "/" + schema_path_;
  std::string framing;
  if (r.String(d, "/framing", &framing, true) && !(framing_ = wire::FindFraming(framing))) {
    std::string known;
    for (const std::string& name : wire::FramingNames())
      known += (known.empty() ? "" : ", ") + name;
    r.Fail("/framing", "no framing is called '" + framing + "' (known: " + known + ")");
  }
  std::int64_t max = 0;
  if (r.Int(d, "/max_payload", &max, true) && max <= 0) r.Fail("/max_payload", "must be > 0");
  max_payload_ = static_cast<std::uint64_t>(max);

  const rapidjson::Value* members = r.Get(d, "/envelope/host_members", true);
  if (members && !members->IsObject()) r.Fail("/envelope/host_members", "expected an object");
  if (const rapidjson::Value* n = r.Get(d, "/envelope/null_id_is_notification", false))
    null_id_is_notification_ = n->IsBool() && n->GetBool();

  r.String(d, "/manifest/file", &manifest_.file, true);
  r.String(d, "/manifest/id", &manifest_.id, true);
  r.String(d, "/manifest/version", &manifest_.version, false);
  r.String(d, "/manifest/entrypoint", &manifest_.entrypoint, false);
  r.String(d, "/manifest/exec", &manifest_.exec, false);
  if (r.ok() && manifest_.entrypoint.empty() == manifest_.exec.empty())
    r.Fail("/manifest", "exactly one of entrypoint and exec");
  if (r.String(d, "/manifest/schema", &manifest_.schema, false) && !manifest_.schema.empty() &&
      manifest_.schema[0] != '/')
    manifest_.schema = dir_ + "/" + manifest_.schema;
  r.String(d, "/manifest/scenario/spec", &manifest_.spec, false);
  r.String(d, "/manifest/scenario/requirement", &manifest_.requirement, false);
  if (const rapidjson::Value* rules = r.Get(d, "/manifest/rules", false);
      rules && !rules->IsArray())
    r.Fail("/manifest/rules", "expected an array of rules");

  std::string env_mode = "inherit";
  r.String(d, "/environment/mode", &env_mode, false);
  environment_.scrub = env_mode == "scrub";
  if (env_mode != "scrub" && env_mode != "inherit")
    r.Fail("/environment/mode", "expected inherit or scrub");
  if (const rapidjson::Value* allow = r.Get(d, "/environment/allow", false); allow) {
    if (!allow->IsArray()) return r.Fail("/environment/allow", "expected an array of names");
    for (const auto& name : allow->GetArray())
      if (name.IsString()) environment_.allow.emplace_back(name.GetString());
  }

  if (const rapidjson::Value* ids = r.Get(d, "/ids/default", true))
    ReadIds(r, *ids, "/ids/default", &default_ids_);
  if (const rapidjson::Value* by = r.Get(d, "/ids/by_method", false); by && by->IsObject()) {
    for (const auto& m : by->GetObject()) {
      IdSequence seq;
      if (ReadIds(r, m.value, std::string("/ids/by_method/") + m.name.GetString(), &seq))
        ids_by_method_.emplace(m.name.GetString(), seq);
    }
  }

  std::int64_t ms = 5000;
  r.Int(d, "/deadlines_ms/default", &ms, true);
  default_deadline_ = Ms(ms);
  if (const rapidjson::Value* by = r.Get(d, "/deadlines_ms/by_method", false);
      by && by->IsObject()) {
    for (const auto& m : by->GetObject()) {
      if (!m.value.IsInt64()) {
        r.Fail(std::string("/deadlines_ms/by_method/") + m.name.GetString(), "expected ms");
        continue;
      }
      deadlines_by_method_.emplace(m.name.GetString(), Ms(m.value.GetInt64()));
    }
  }
  if (const rapidjson::Value* rules = r.Get(d, "/deadlines_ms/from_manifest", false)) {
    if (!rules->IsArray()) r.Fail("/deadlines_ms/from_manifest", "expected an array of rules");
    for (rapidjson::SizeType i = 0; rules->IsArray() && i < rules->Size(); ++i) {
      const rapidjson::Value& rule = (*rules)[i];
      const std::string at = "/deadlines_ms/from_manifest/" + std::to_string(i);
      ManifestDeadline md;
      md.method = json::StringMember(rule, "method");
      md.items = json::StringMember(rule, "items");
      md.value = json::StringMember(rule, "value");
      auto strings = [&](const char* key, std::map<std::string, std::string>* out) {
        const rapidjson::Value* m = json::Find(rule, key);
        if (!m) return;
        if (!m->IsObject()) {
          r.Fail(at + "/" + key, "expected an object of strings");
          return;
        }
        for (const auto& member : m->GetObject())
          if (member.value.IsString())
            out->emplace(json::View(member.name), json::View(member.value));
          else
            r.Fail(at + "/" + key + "/" + json::EscapePointerToken(json::View(member.name)),
                   "expected a string");
      };
      strings("match", &md.match);
      strings("defaults", &md.defaults);
      if (md.method.empty() || md.items.empty() || md.value.empty() || md.match.empty())
        r.Fail(at, "a rule needs method, items, match and value");
      else
        manifest_deadlines_.push_back(std::move(md));
    }
  }

  r.String(d, "/handshake/method", &handshake_method_, true);
  if (const rapidjson::Value* allowed = r.Get(d, "/handshake/allowed_before_answer", false);
      allowed && allowed->IsArray()) {
    for (const auto& m : allowed->GetArray())
      if (m.IsString()) allowed_before_handshake_.emplace(m.GetString());
  }
  if (const rapidjson::Value* g = r.Get(d, "/handshake/granted_capabilities", false)) {
    if (g->IsString())
      granted_pointer_ = g->GetString();
    else if (!r.String(d, "/handshake/granted_capabilities/manifest", &granted_manifest_pointer_,
                       true))
      r.Fail("/handshake/granted_capabilities", "expected a pointer or {manifest: pointer}");
  }
  for (const char* member : {"request_members", "plugin_env"}) {
    const rapidjson::Value* m = json::Find(d, member);
    if (m && !m->IsObject()) r.Fail(std::string("/") + member, "expected an object");
  }
  if (const rapidjson::Value* after = json::Find(d, "after_handshake")) {
    const rapidjson::Value* send = after->IsObject() ? json::Find(*after, "send") : nullptr;
    if (!send || !send->IsArray()) r.Fail("/after_handshake/send", "expected an array");
  }
  r.String(d, "/barrier/method", &barrier_method_, true);
  r.String(d, "/shutdown_notification", &shutdown_notification_, false);

  const rapidjson::Value* seqs = r.Get(d, "/stop_sequences", true);
  if (seqs && seqs->IsObject()) {
    for (const auto& s : seqs->GetObject()) {
      std::string name = s.name.GetString();
      if (name[0] == '$') continue;  // "$comment"
      if (!s.value.IsArray() || s.value.Empty()) {
        r.Fail("/stop_sequences/" + name, "expected a non-empty array");
        continue;
      }
      std::vector<StopStepSpec> steps;
      for (rapidjson::SizeType i = 0; i < s.value.Size(); ++i) {
        StopStepSpec step;
        if (ReadStopStep(r, s.value[i], "/stop_sequences/" + name + "/" + std::to_string(i), &step))
          steps.push_back(step);
      }
      stop_sequences_.emplace(name, std::move(steps));
    }
    if (!stop_sequences_.count("default")) r.Fail("/stop_sequences/default", "missing");
    if (!stop_sequences_.count("teardown")) r.Fail("/stop_sequences/teardown", "missing");
  }
  const rapidjson::Value* host = r.Get(d, "/host", true);
  if (host && !host->IsObject()) r.Fail("/host", "expected an object");
  const rapidjson::Value* vars = r.Get(d, "/vars", true);
  if (vars && !vars->IsObject()) r.Fail("/vars", "expected an object");
  if (r.Int(d, "/scenario_timeout_ms", &ms, false)) scenario_timeout_ = Ms(ms);
  ReadLimits(r, d, &limits_);
  ReadTransportBudget(r, d, &transport_budget_);
  Versioning versioning;
  if (const rapidjson::Value* v = json::Find(d, "versioning"); v && r.ok())
    if (!ReadVersioning(*v, path, &versioning, error)) return false;
  return r.ok() && InitChecks(path, error);
}

// Reads "checks": {id: {"text": "...", "section": "..."}}. Every check the engine raises must be
// worded, and a wording may use only the placeholders the engine fills in, so a typo in a
// profile is an error at load time rather than a "{fram}" in a report.
bool Profile::InitChecks(const std::string& path, std::string* error) {
  Reader r(path, error);
  const rapidjson::Value* table = r.Get(doc_, "/checks", true);
  if (!table) return false;
  if (!table->IsObject()) return r.Fail("/checks", "expected an object");
  // The engine's checks and the framing's own, each with the placeholders it may use.
  std::vector<EngineCheck> raised = EngineChecks();
  for (const wire::FramingCheck& check : framing_->checks())
    raised.push_back({check.id, check.vars});
  for (const auto& m : table->GetObject()) {
    std::string_view name(m.name.GetString(), m.name.GetStringLength());
    bool known = name.substr(0, 1) == "$";  // "$comment"
    for (const EngineCheck& check : EngineChecks()) known |= name == check.id;
    // Another framing's wording is let be (never raised): a profile whose framing changed, as a
    // `schema diff` case makes one, still loads.
    for (const std::string& other : wire::FramingNames())
      for (const wire::FramingCheck& check : wire::FindFraming(other)->checks())
        known |= name == check.id;
    if (!known)
      return r.Fail("/checks/" + std::string(name), "not a check the engine or a framing raises");
  }
  for (const EngineCheck& check : raised) {
    std::string where = std::string("/checks/") + check.id;
    const rapidjson::Value* entry = json::Find(*table, check.id);
    if (!entry) return r.Fail(where, "missing: the engine raises this check and needs its wording");
    const rapidjson::Value* text = entry->IsObject() ? json::Find(*entry, "text") : nullptr;
    const rapidjson::Value* section = entry->IsObject() ? json::Find(*entry, "section") : nullptr;
    if (!text || !text->IsString() || (section && !section->IsString()))
      return r.Fail(where, "expected {\"text\": string, \"section\": string}");
    CheckWording wording;
    wording.text.assign(text->GetString(), text->GetStringLength());
    if (section) wording.section.assign(section->GetString(), section->GetStringLength());
    std::vector<text::Piece> pieces;
    std::string syntax;
    if (!text::Split(wording.text, &pieces, &syntax)) return r.Fail(where + "/text", syntax);
    for (const text::Piece& piece : pieces) {
      if (!piece.placeholder) continue;
      bool known = piece.text == "section";
      for (const char* v : check.vars) known |= piece.text == v;
      if (!known)
        return r.Fail(where + "/text", "unknown placeholder " + text::Placeholder(piece.text));
    }
    checks_.emplace(check.id, std::move(wording));
  }
  return r.ok();
}

const CheckWording& Profile::Check(std::string_view id) const {
  static const CheckWording missing{"(no wording for check ${section})", ""};
  auto it = checks_.find(id);
  return it == checks_.end() ? missing : it->second;
}

// The loader let through only the names the check's engine passes (and section), so every name
// is known; should the engine omit one, it shows as written rather than losing the message.
std::string Profile::FillCheck(
    std::string_view id,
    const std::function<const std::string_view*(std::string_view)>& var) const {
  const CheckWording& wording = Check(id);
  std::string out, error;
  const bool ok = text::Fill(
      wording.text,
      [&](std::string_view name) -> std::optional<std::string> {
        if (name == "section") return wording.section;
        if (const std::string_view* value = var(name)) return std::string(*value);
        return text::Placeholder(name);
      },
      &out, &error);
  return ok ? out : wording.text;
}

std::string Profile::CheckMessage(
    std::string_view id,
    std::initializer_list<std::pair<std::string_view, std::string_view>> vars) const {
  return FillCheck(id, [&](std::string_view name) -> const std::string_view* {
    for (const auto& pair : vars)
      if (pair.first == name) return &pair.second;
    return nullptr;
  });
}

std::string Profile::CheckMessage(
    std::string_view id, const std::vector<std::pair<std::string, std::string>>& vars) const {
  std::string_view found;
  return FillCheck(id, [&](std::string_view name) -> const std::string_view* {
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
  if (id) {
    c.kind = MessageKind::kResponse;
    return c;
  }
  c.reason = "neither method nor id";
  return c;
}

const rapidjson::Value* Profile::manifest_rules() const {
  const rapidjson::Value* rules = json::Resolve(doc_, "/manifest/rules");
  return rules && rules->IsArray() ? rules : nullptr;
}

const rapidjson::Value* Profile::json_member(const char* name) const {
  const rapidjson::Value* v = json::Find(doc_, name);
  return v && !v->IsNull() ? v : nullptr;
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

const rapidjson::Value* Profile::trigger(std::string_view name) const {
  const rapidjson::Value* all = json_member("triggers");
  return all && all->IsObject() ? json::Find(*all, name) : nullptr;
}

std::vector<std::string> Profile::trigger_names() const {
  std::vector<std::string> out;
  if (const rapidjson::Value* all = json_member("triggers"); all && all->IsObject())
    for (const auto& m : all->GetObject())
      if (m.name.GetString()[0] != '$') out.emplace_back(m.name.GetString());
  return out;
}

}  // namespace fakehost::protocol
