#include "harness/schema/diff_flat.hpp"

#include "harness/json/json.hpp"

namespace fakehost::schema::flat {
namespace {

using rapidjson::Value;

using json::View;
std::string Esc(std::string_view token) { return json::EscapePointerToken(token); }

bool IsLower(std::string_view k) {
  return k == "minimum" || k == "exclusiveMinimum" || k == "minLength" || k == "minItems" ||
         k == "minProperties";
}
bool IsUpper(std::string_view k) {
  return k == "maximum" || k == "exclusiveMaximum" || k == "maxLength" || k == "maxItems" ||
         k == "maxProperties";
}
bool IsAnnotation(std::string_view k) {
  return k == "$comment" || k == "title" || k == "description" || k == "default" ||
         k == "examples" || k == "$defs" || k == "definitions" || k == "$schema" ||
         k.substr(0, 2) == "x-";
}

template <typename T>
void Intersect(std::optional<std::set<T>>* into, std::set<T> with) {
  if (!*into) {
    *into = std::move(with);
    return;
  }
  std::set<T> both;
  for (const T& t : **into)
    if (with.count(t)) both.insert(t);
  *into = std::move(both);
}

// The keywords about an object's members: properties, required, additionalProperties and
// patternProperties. False if `k` is none of these with a value of the shape read here.
bool CollectMembers(std::string_view k, const Value& v, const std::string& kat, Flat* f) {
  if (k == "properties" && v.IsObject()) {
    for (const auto& p : v.GetObject()) {
      std::string name(View(p.name));
      f->props[name].push_back({&p.value, kat + "/" + Esc(name)});
      f->prop_at.emplace(name, kat + "/" + Esc(name));
    }
  } else if (k == "required" && v.IsArray()) {
    for (const auto& r : v.GetArray())
      if (r.IsString()) f->required.emplace(std::string(View(r)), kat);
  } else if (k == "additionalProperties" && v.IsBool()) {
    if (!v.GetBool()) f->closed = true, f->closed_at = kat;
  } else if (k == "additionalProperties") {
    f->values.push_back({&v, kat});
  } else if (k == "patternProperties" && v.IsObject()) {
    std::string names;
    for (const auto& p : v.GetObject()) {
      names += json::ToCompact(p.name) + ",";
      f->values.push_back({&p.value, kat + "/" + Esc(View(p.name))});
    }
    f->opaque["patternProperties"] = {names, kat};
  } else {
    return false;
  }
  return true;
}

// The keywords that limit a value itself: type, enum, const and the numeric bounds. False if
// `k` is none of these with a value of the shape read here.
bool CollectValueLimits(std::string_view k, const Value& v, const std::string& kat, Flat* f) {
  if (k == "type") {
    std::set<std::string> t;
    if (v.IsString()) t.emplace(View(v));
    if (v.IsArray())
      for (const auto& x : v.GetArray())
        if (x.IsString()) t.emplace(View(x));
    Intersect(&f->types, std::move(t));
    f->types_at = kat;
  } else if (k == "enum" && v.IsArray()) {
    std::set<std::string> e;
    for (const auto& x : v.GetArray()) e.insert(json::ToCompact(x));
    Intersect(&f->enums, std::move(e));
    f->enum_at = kat;
  } else if (k == "const") {
    f->constant = json::ToCompact(v);
    f->const_at = kat;
  } else if ((IsLower(k) || IsUpper(k)) && v.IsNumber()) {
    auto& table = IsLower(k) ? f->lower : f->upper;
    const double x = v.GetDouble();
    auto it = table.find(std::string(k));
    if (it == table.end() || (IsLower(k) ? x > it->second.value : x < it->second.value))
      table[std::string(k)] = {x, kat};
  } else {
    return false;
  }
  return true;
}

// Folds one schema node into `f`, following $ref and allOf; a keyword read by none of the
// families above is kept whole, as opaque text.
void Collect(const Value& root, const Value& n, const std::string& at, Flat* f, int depth) {
  if (depth > kMaxDepth) return;
  if (n.IsBool()) {
    if (!n.GetBool()) f->opaque["false"] = {"false", at};
    return;
  }
  if (!n.IsObject()) return;
  for (const auto& m : n.GetObject()) {
    const std::string_view k = View(m.name);
    const Value& v = m.value;
    const std::string kat = at + "/" + Esc(k);
    if (IsAnnotation(k) || k == "then" || k == "else") continue;
    if (k == "$ref" && v.IsString() && View(v).substr(0, 1) == "#") {
      const std::string target(View(v).substr(1));
      if (const Value* t = json::Resolve(root, target)) Collect(root, *t, target, f, depth + 1);
    } else if (k == "allOf" && v.IsArray()) {
      for (rapidjson::SizeType i = 0; i < v.Size(); ++i)
        Collect(root, v[i], kat + "/" + std::to_string(i), f, depth + 1);
    } else if (k == "if") {
      Cond c{json::ToCompact(v), {}, {}, kat};
      if (const Value* t = json::Find(n, "then")) c.then_srcs.push_back({t, at + "/then"});
      if (const Value* e = json::Find(n, "else")) c.else_srcs.push_back({e, at + "/else"});
      f->conds.push_back(std::move(c));
    } else if (k == "items" && !v.IsArray()) {
      f->items.push_back({&v, kat});
    } else if (!CollectMembers(k, v, kat, f) && !CollectValueLimits(k, v, kat, f)) {
      f->opaque[std::string(k)] = {json::ToCompact(v), kat};
    }
  }
}

}  // namespace

void CollectAll(const Value& root, const std::vector<Src>& srcs, Flat* f) {
  for (const Src& s : srcs) Collect(root, *s.node, s.at, f, 0);
}

}  // namespace fakehost::schema::flat
