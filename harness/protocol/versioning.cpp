#include "harness/protocol/versioning.hpp"

#include <algorithm>
#include <set>
#include <string_view>

#include "harness/json/json.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/schema/schema.hpp"

namespace fakehost::protocol {
namespace {

using rapidjson::Value;

std::string S(const Value& v) { return {v.GetString(), v.GetStringLength()}; }

bool Fail(const std::string& path, const std::string& where, const std::string& what,
          std::string* error) {
  *error = path + ": /versioning" + where + ": " + what;
  return false;
}

bool Strings(const Value& v, std::vector<std::string>* out) {
  if (!v.IsArray()) return false;
  for (const auto& s : v.GetArray()) {
    if (!s.IsString()) return false;
    out->push_back(S(s));
  }
  return true;
}

bool IsDirection(const std::string& d) {
  return d == "host->plugin" || d == "plugin->host" || d == "both";
}

bool ReadCondition(const Value& when, const std::string& path, const std::string& where,
                   RuleCondition* out, std::string* error) {
  if (!when.IsObject()) return Fail(path, where, "expected an object", error);
  for (const auto& m : when.GetObject()) {
    const std::string key = S(m.name), at = where + "/" + key;
    if (key == "area") {
      if (!m.value.IsString() || (S(m.value) != "schema" && S(m.value) != "profile"))
        return Fail(path, at, "expected \"schema\" or \"profile\"", error);
      out->area = S(m.value);
    } else if (key == "kinds" || key == "topics" || key == "directions") {
      auto* list = key == "kinds" ? &out->kinds : key == "topics" ? &out->topics : &out->directions;
      if (!Strings(m.value, list) || list->empty())
        return Fail(path, at, "expected a non-empty array of strings", error);
      if (key == "directions")
        for (const auto& d : *list)
          if (!IsDirection(d)) return Fail(path, at, "unknown direction \"" + d + "\"", error);
    } else if (key == "frozen" || key == "closed_set" || key == "error_code" ||
               key == "compatible") {
      if (!m.value.IsBool()) return Fail(path, at, "expected a boolean", error);
      auto* flag = key == "frozen"       ? &out->frozen
                   : key == "closed_set" ? &out->closed_set
                   : key == "error_code" ? &out->error_code
                                         : &out->compatible;
      *flag = m.value.GetBool();
    } else if (key[0] != '$') {
      return Fail(path, at, "unknown condition", error);
    }
  }
  return true;
}

bool ReadRule(const Value& v, const std::string& path, const std::string& where,
              VersioningRule* out, std::string* error) {
  if (!v.IsObject()) return Fail(path, where, "expected a rule object", error);
  for (const char* key : {"id", "section", "text", "verdict"}) {
    const Value* s = json::Find(v, key);
    if (!s || !s->IsString() || s->GetStringLength() == 0)
      return Fail(path, where + "/" + key, "expected a non-empty string", error);
  }
  out->id = S(*json::Find(v, "id"));
  out->section = S(*json::Find(v, "section"));
  out->text = S(*json::Find(v, "text"));
  const std::string verdict = S(*json::Find(v, "verdict"));
  if (verdict != "allowed" && verdict != "breaking")
    return Fail(path, where + "/verdict", "expected \"allowed\" or \"breaking\"", error);
  out->allowed = verdict == "allowed";
  if (const Value* note = json::Find(v, "note")) {
    if (!note->IsString()) return Fail(path, where + "/note", "expected a string", error);
    out->note = S(*note);
  }
  const Value* when = json::Find(v, "when");
  return !when || ReadCondition(*when, path, where + "/when", &out->when, error);
}

bool IsCatchAll(const RuleCondition& c) {
  return !c.area && c.kinds.empty() && c.topics.empty() && c.directions.empty() && !c.frozen &&
         !c.closed_set && !c.error_code && !c.compatible;
}

bool In(const std::vector<std::string>& list, const std::string& x) {
  return list.empty() || std::find(list.begin(), list.end(), x) != list.end();
}

bool Matches(const RuleCondition& c, const VersionChange& ch) {
  auto flag = [](const std::optional<bool>& want, bool have) { return !want || *want == have; };
  return (!c.area || *c.area == ch.area) && In(c.kinds, ch.kind) && In(c.topics, ch.topic) &&
         In(c.directions, ch.direction) && flag(c.frozen, ch.frozen) &&
         flag(c.closed_set, ch.closed_set) && flag(c.error_code, ch.error_code) &&
         flag(c.compatible, ch.compatible);
}

void DiffValue(const Value& o, const Value& n, const std::string& pointer, const ProfileFact& fact,
               std::vector<VersionChange>* out) {
  if (json::StrictEqual(o, n)) return;
  if (o.IsObject() && n.IsObject()) {
    std::set<std::string> keys;
    for (const auto& m : o.GetObject()) keys.insert(S(m.name));
    for (const auto& m : n.GetObject()) keys.insert(S(m.name));
    for (const auto& k : keys) {
      if (k[0] == '$') continue;  // "$comment": prose, not a protocol fact
      const std::string at = pointer + "/" + json::EscapePointerToken(k);
      const Value* a = json::Find(o, k);
      const Value* b = json::Find(n, k);
      VersionChange c;
      c.area = "profile";
      c.topic = fact.topic;
      c.direction = fact.direction;
      c.pointer = at;
      if (a && b) {
        DiffValue(*a, *b, at, fact, out);
        continue;
      }
      c.kind = a ? "profile-removed" : "profile-added";
      c.old_value = a ? json::ToCompact(*a) : "";
      c.new_value = b ? json::ToCompact(*b) : "";
      c.detail = k + (a ? " removed" : " added");
      out->push_back(std::move(c));
    }
    return;
  }
  VersionChange c;
  c.area = "profile";
  c.topic = fact.topic;
  c.direction = fact.direction;
  c.pointer = pointer;
  c.old_value = json::ToCompact(o);
  c.new_value = json::ToCompact(n);
  c.kind = "profile-changed";
  if (o.IsNumber() && n.IsNumber())
    c.kind = n.GetDouble() > o.GetDouble() ? "profile-increased" : "profile-decreased";
  c.detail = c.old_value + " -> " + c.new_value;
  out->push_back(std::move(c));
}

}  // namespace

bool ReadVersioning(const Value& table, const std::string& path, Versioning* out,
                    std::string* error) {
  if (!table.IsObject()) return Fail(path, "", "expected an object", error);
  const Value* version = json::Find(table, "version");
  if (!version || !version->IsInt64() || version->GetInt64() < 1)
    return Fail(path, "/version", "expected the protocol's version, an integer >= 1", error);
  out->version = version->GetInt64();
  if (const Value* codes = json::Find(table, "error_codes")) {
    if (!codes->IsString()) return Fail(path, "/error_codes", "expected a schema pointer", error);
    out->error_codes = S(*codes);
  }
  const Value* facts = json::Find(table, "profile");
  if (!facts || !facts->IsArray())
    return Fail(path, "/profile", "expected an array of {pointer, topic, direction}", error);
  for (rapidjson::SizeType i = 0; i < facts->Size(); ++i) {
    const Value& f = (*facts)[i];
    const std::string at = "/profile/" + std::to_string(i);
    const Value* p = f.IsObject() ? json::Find(f, "pointer") : nullptr;
    const Value* t = f.IsObject() ? json::Find(f, "topic") : nullptr;
    const Value* d = f.IsObject() ? json::Find(f, "direction") : nullptr;
    if (!p || !p->IsString() || !t || !t->IsString() || !d || !d->IsString() || !IsDirection(S(*d)))
      return Fail(path, at, "expected {pointer, topic, direction}", error);
    out->profile.push_back({S(*p), S(*t), S(*d)});
  }
  const Value* rules = json::Find(table, "rules");
  if (!rules || !rules->IsArray() || rules->Empty())
    return Fail(path, "/rules", "expected a non-empty array of rules", error);
  std::set<std::string> ids;
  for (rapidjson::SizeType i = 0; i < rules->Size(); ++i) {
    VersioningRule rule;
    const std::string at = "/rules/" + std::to_string(i);
    if (!ReadRule((*rules)[i], path, at, &rule, error)) return false;
    if (!ids.insert(rule.id).second)
      return Fail(path, at + "/id", "repeats the rule id " + rule.id, error);
    out->rules.push_back(std::move(rule));
  }
  if (!IsCatchAll(out->rules.back().when))
    return Fail(path, "/rules/" + std::to_string(rules->Size() - 1),
                "the last rule must have no \"when\": it judges what no other rule covers", error);
  return true;
}

std::vector<VersionChange> DiffProfiles(const Value& old_doc, const Value& new_doc,
                                        const std::vector<ProfileFact>& facts) {
  std::vector<VersionChange> out;
  static const Value kNull;
  for (const ProfileFact& fact : facts) {
    const Value* o = json::Resolve(old_doc, fact.pointer);
    const Value* n = json::Resolve(new_doc, fact.pointer);
    if (!o && !n) continue;
    if (o && n) {
      DiffValue(*o, *n, fact.pointer, fact, &out);
      continue;
    }
    VersionChange c;
    c.area = "profile";
    c.topic = fact.topic;
    c.direction = fact.direction;
    c.pointer = fact.pointer;
    c.kind = o ? "profile-removed" : "profile-added";
    c.old_value = o ? json::ToCompact(*o) : "";
    c.new_value = n ? json::ToCompact(*n) : "";
    c.detail = fact.pointer + (o ? " removed" : " added");
    out.push_back(std::move(c));
  }
  return out;
}

const VersioningRule& Judge(const std::vector<VersioningRule>& rules, const VersionChange& change) {
  for (const VersioningRule& rule : rules)
    if (Matches(rule.when, change)) return rule;
  return rules.back();
}

std::size_t VersionDiff::breaking() const {
  return static_cast<std::size_t>(std::count_if(
      changes.begin(), changes.end(), [](const VersionChange& c) { return !c.rule.allowed; }));
}

bool DiffVersions(const Profile& old_profile, const Value& old_schema, const Profile& new_profile,
                  const Value& new_schema, VersionDiff* out, std::string* error) {
  const std::string old_path = old_profile.dir() + "/profile.json";
  const std::string new_path = new_profile.dir() + "/profile.json";
  if (!old_profile.versioning())
    return *error = old_path + ": no \"versioning\" table: the rules to judge a change by", false;
  if (!new_profile.versioning())
    return *error = new_path +
                    ": no \"versioning\" table (its \"version\" says whether the "
                    "protocol version changed)",
           false;
  const Versioning& rules = *old_profile.versioning();
  const Versioning& new_rules = *new_profile.versioning();
  out->protocol = old_profile.name();
  out->old_version = rules.version;
  out->new_version = new_rules.version;
  out->changes.clear();
  for (schema::SchemaChange& s : schema::DiffSchemas(old_schema, new_schema)) {
    VersionChange c;
    c.area = "schema";
    c.kind = std::move(s.kind);
    c.detail = std::move(s.detail);
    c.direction = s.direction;
    c.pointer = s.locations.front().pointer;
    c.schema_pointer = std::move(s.schema_pointer);
    c.locations = std::move(s.locations);
    c.old_value = std::move(s.old_value);
    c.new_value = std::move(s.new_value);
    c.frozen = s.frozen;
    c.closed_set = s.closed_set;
    c.error_code =
        !rules.error_codes.empty() && schema::PointerAtOrBelow(c.schema_pointer, rules.error_codes);
    c.compatible = c.direction == "host->plugin"   ? s.narrows
                   : c.direction == "plugin->host" ? s.widens
                                                   : s.widens && s.narrows;
    out->changes.push_back(std::move(c));
  }
  for (VersionChange& c :
       DiffProfiles(old_profile.document(), new_profile.document(), rules.profile))
    out->changes.push_back(std::move(c));
  for (VersionChange& c : out->changes) c.rule = Judge(rules.rules, c);
  return true;
}

}  // namespace fakehost::protocol
