#include "harness/schema/instance.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <vector>

#include "harness/json/json.hpp"
#include "harness/schema/supplied.hpp"

namespace fakehost::schema {
namespace {

using Alloc = rapidjson::Document::AllocatorType;
constexpr int kMakeDepth = 12;

// The sample a string of a common `format` gets; the marker for any other.
std::string StringFor(const rapidjson::Value& schema, const std::string& marker) {
  static const std::pair<std::string_view, std::string_view> kSamples[] = {
      {"date-time", "2026-01-01T00:00:00Z"},
      {"date", "2026-01-01"},
      {"time", "00:00:00Z"},
      {"email", "fakehost@example.com"},
      {"uri", "https://example.com/"},
      {"url", "https://example.com/"},
      {"uri-reference", "https://example.com/"},
      {"iri", "https://example.com/"},
      {"hostname", "example.com"},
      {"ipv4", "127.0.0.1"},
      {"ipv6", "::1"},
      {"uuid", "00000000-0000-4000-8000-000000000000"},
  };
  std::string text = marker;
  if (const rapidjson::Value* f = json::Find(schema, "format"); f && f->IsString())
    for (const auto& [format, sample] : kSamples)
      if (json::View(*f) == format) text = sample;
  const rapidjson::Value* min = json::Find(schema, "minLength");
  if (min && min->IsUint64() && text.size() < min->GetUint64() && min->GetUint64() <= 4096)
    text.append(min->GetUint64() - text.size(), 'x');
  const rapidjson::Value* max = json::Find(schema, "maxLength");
  if (max && max->IsUint64() && text.size() > max->GetUint64()) text.resize(max->GetUint64());
  return text;
}

// The smallest number the bounds allow near 1 (an integer where `integer` is asked).
double NumberFor(const rapidjson::Value& schema, bool integer) {
  double v = 1;
  auto bound = [&](const char* key) -> const rapidjson::Value* {
    const rapidjson::Value* b = json::Find(schema, key);
    return b && b->IsNumber() ? b : nullptr;
  };
  if (const rapidjson::Value* m = bound("minimum")) v = std::max(v, m->GetDouble());
  if (const rapidjson::Value* m = bound("exclusiveMinimum"))
    v = std::max(v, integer ? std::floor(m->GetDouble()) + 1 : m->GetDouble() + 1);
  if (const rapidjson::Value* m = bound("maximum")) v = std::min(v, m->GetDouble());
  if (const rapidjson::Value* m = bound("exclusiveMaximum"))
    v = std::min(v, integer ? std::ceil(m->GetDouble()) - 1 : m->GetDouble() - 0.5);
  return integer ? std::ceil(v) : v;
}

class Maker {
 public:
  Maker(const rapidjson::Value& root, const std::string& marker, Alloc& a)
      : root_(root), marker_(marker), a_(a) {}

  // A value for `schema`, or false. Conformance is checked once, on the whole value, by the
  // caller: a branch here is only the likeliest.
  bool Make(const rapidjson::Value& schema, int depth, rapidjson::Value* out) {
    if (depth > kMakeDepth) return false;
    if (schema.IsBool()) {
      if (!schema.GetBool()) return false;
      out->SetString(marker_.c_str(), a_);
      return true;
    }
    if (!schema.IsObject()) return false;
    if (const rapidjson::Value* ref = json::Find(schema, "$ref"); ref && ref->IsString()) {
      std::string_view r = json::View(*ref);
      if (r.empty() || r[0] != '#') return false;
      const rapidjson::Value* target = json::Resolve(root_, r.substr(1));
      return target && Make(*target, depth + 1, out);
    }
    for (const char* given : {"const", "default"})
      if (const rapidjson::Value* v = json::Find(schema, given)) {
        out->CopyFrom(*v, a_);
        return true;
      }
    for (const char* listed : {"enum", "examples"})
      if (const rapidjson::Value* v = json::Find(schema, listed);
          v && v->IsArray() && !v->Empty()) {
        out->CopyFrom((*v)[0], a_);
        return true;
      }
    for (const char* branches : {"anyOf", "oneOf", "allOf"})
      if (const rapidjson::Value* v = json::Find(schema, branches); v && v->IsArray())
        for (const rapidjson::Value& b : v->GetArray())
          if (Make(b, depth + 1, out)) return true;
    return MakeTyped(schema, TypeOf(schema), depth, out);
  }

 private:
  // The first type the schema names that is not null, else what its keywords suggest.
  static std::string TypeOf(const rapidjson::Value& schema) {
    const rapidjson::Value* t = json::Find(schema, "type");
    if (t && t->IsString()) return std::string(json::View(*t));
    if (t && t->IsArray()) {
      std::string first;
      for (const rapidjson::Value& name : t->GetArray())
        if (name.IsString() && first.empty() && json::View(name) != "null")
          first = std::string(json::View(name));
      return first.empty() ? "null" : first;
    }
    if (json::Find(schema, "properties") || json::Find(schema, "required")) return "object";
    if (json::Find(schema, "items")) return "array";
    return "string";
  }

  bool MakeTyped(const rapidjson::Value& schema, const std::string& type, int depth,
                 rapidjson::Value* out) {
    if (type == "object") return MakeObject(schema, depth, out);
    if (type == "array") {
      out->SetArray();
      const rapidjson::Value* min = json::Find(schema, "minItems");
      const rapidjson::Value* items = json::Find(schema, "items");
      std::uint64_t n = min && min->IsUint64() ? std::min<std::uint64_t>(min->GetUint64(), 8) : 0;
      for (std::uint64_t i = 0; i < n; ++i) {
        rapidjson::Value item;
        if (!items || !Make(*items, depth + 1, &item)) return false;
        out->PushBack(item, a_);
      }
      return true;
    }
    if (type == "string") {
      out->SetString(StringFor(schema, marker_).c_str(), a_);
    } else if (type == "integer") {
      out->SetInt64(static_cast<std::int64_t>(NumberFor(schema, true)));
    } else if (type == "number") {
      out->SetDouble(NumberFor(schema, false));
    } else if (type == "boolean") {
      out->SetBool(false);
    } else if (type == "null") {
      out->SetNull();
    } else {
      return false;
    }
    return true;
  }

  // The required members, and more only as far as minProperties asks.
  bool MakeObject(const rapidjson::Value& schema, int depth, rapidjson::Value* out) {
    out->SetObject();
    const rapidjson::Value* props = json::Find(schema, "properties");
    if (props && !props->IsObject()) props = nullptr;
    std::vector<std::string> names;
    if (const rapidjson::Value* req = json::Find(schema, "required"); req && req->IsArray())
      for (const rapidjson::Value& n : req->GetArray())
        if (n.IsString()) names.emplace_back(json::View(n));
    const rapidjson::Value* min = json::Find(schema, "minProperties");
    if (props && min && min->IsUint64())
      for (const auto& m : props->GetObject())
        if (names.size() < min->GetUint64() && !json::Find(*out, json::View(m.name)))
          names.emplace_back(json::View(m.name));
    for (const std::string& name : names) {
      if (json::Find(*out, name)) continue;
      const rapidjson::Value* sub = props ? json::Find(*props, name) : nullptr;
      rapidjson::Value v(marker_.c_str(), a_);  // a member without a schema takes anything
      if (sub && !Make(*sub, depth + 1, &v)) return false;
      out->AddMember(rapidjson::Value(name.c_str(), a_), v, a_);
    }
    return true;
  }

  const rapidjson::Value& root_;
  const std::string& marker_;
  Alloc& a_;
};

bool Refused(const rapidjson::Value& schema, const rapidjson::Value& value) {
  return CheckConformance(schema, value).judgement == Judgement::kFails;
}

// The member names `schema` requires, in its order, then its other properties.
std::vector<std::string> MemberOrder(const rapidjson::Value& schema) {
  std::vector<std::string> names;
  if (const rapidjson::Value* req = json::Find(schema, "required"); req && req->IsArray())
    for (const rapidjson::Value& n : req->GetArray())
      if (n.IsString()) names.emplace_back(json::View(n));
  if (const rapidjson::Value* props = json::Find(schema, "properties"); props && props->IsObject())
    for (const auto& m : props->GetObject())
      if (std::find(names.begin(), names.end(), json::View(m.name)) == names.end())
        names.emplace_back(json::View(m.name));
  return names;
}

}  // namespace

bool MakeConforming(const rapidjson::Value& schema, const std::string& marker,
                    rapidjson::Document* out, std::string* why) {
  out->SetNull();
  Maker maker(schema, marker, out->GetAllocator());
  rapidjson::Value v;
  if (!maker.Make(schema, 0, &v)) {
    *why = "no value could be made from its schema";
    return false;
  }
  out->CopyFrom(v, out->GetAllocator());
  SuppliedVerdict verdict = CheckConformance(schema, *out);
  if (verdict.judgement == Judgement::kHolds) return true;
  *why = verdict.judgement == Judgement::kUntested
             ? "fakehost cannot judge its schema (" + verdict.untested + ")"
             : "the value made from its schema does not conform to it (" +
                   (verdict.problems.empty() ? std::string("?")
                                             : verdict.problems.front().pointer + ": " +
                                                   verdict.problems.front().message) +
                   ")";
  return false;
}

bool MakeMissingMember(const rapidjson::Value& schema, const rapidjson::Value& conforming,
                       rapidjson::Document* out, std::string* member) {
  const rapidjson::Value* req = schema.IsObject() ? json::Find(schema, "required") : nullptr;
  if (!req || !req->IsArray() || !conforming.IsObject()) return false;
  for (const rapidjson::Value& n : req->GetArray()) {
    if (!n.IsString() || !json::Find(conforming, json::View(n))) continue;
    out->CopyFrom(conforming, out->GetAllocator());
    out->RemoveMember(n.GetString());
    if (Refused(schema, *out)) {
      *member = std::string(json::View(n));
      return true;
    }
  }
  return false;
}

bool MakeMistypedMember(const rapidjson::Value& schema, const rapidjson::Value& conforming,
                        rapidjson::Document* out, std::string* member) {
  if (!schema.IsObject() || !conforming.IsObject()) return false;
  for (const std::string& name : MemberOrder(schema)) {
    const rapidjson::Value* had = json::Find(conforming, name);
    for (int kind = 0; kind < 3; ++kind) {
      rapidjson::Value wrong;
      if (kind == 0) wrong.SetInt(42);
      if (kind == 1) wrong.SetString("fakehost-not-a-number");
      if (kind == 2) wrong.SetBool(true);
      if (had && ((kind == 0 && had->IsNumber()) || (kind == 1 && had->IsString()) ||
                  (kind == 2 && had->IsBool())))
        continue;
      out->CopyFrom(conforming, out->GetAllocator());
      out->RemoveMember(name.c_str());
      out->AddMember(rapidjson::Value(name.c_str(), out->GetAllocator()), wrong,
                     out->GetAllocator());
      // Refused for that member's type, not for a missing one: the rest still conforms.
      if (Refused(schema, *out) && had) {
        *member = name;
        return true;
      }
    }
  }
  return false;
}

}  // namespace fakehost::schema
