#include "harness/schema/diff.hpp"

#include <map>
#include <optional>
#include <set>
#include <string_view>

#include "harness/json/json.hpp"
#include "harness/schema/diff_flat.hpp"
#include "harness/schema/schema.hpp"

namespace fakehost::schema {
namespace {

using rapidjson::Value;

using json::View;
std::string Esc(std::string_view token) { return json::EscapePointerToken(token); }

using flat::Cond;
using flat::Flat;
using flat::kMaxDepth;
using flat::Src;

void CollectAll(const Value& root, const std::vector<Src>& srcs, Flat* f, int /*depth*/) {
  flat::CollectAll(root, srcs, f);
}

std::string Join(const std::set<std::string>& s) {
  std::string out;
  for (const auto& x : s) out += (out.empty() ? "" : ", ") + x;
  return out;
}

// "integer" is a "number"; a type list covers a type when it names it or a wider one.
bool Covers(const std::set<std::string>& types, const std::string& t) {
  return types.count(t) || (t == "integer" && types.count("number"));
}
bool CoversAll(const std::set<std::string>& a, const std::set<std::string>& b) {
  for (const auto& t : b)
    if (!Covers(a, t)) return false;
  return true;
}

std::string Num(double x) {
  std::string s = json::ToCompact(Value(x));
  if (s.size() > 2 && s.substr(s.size() - 2) == ".0") s.resize(s.size() - 2);
  return s;
}

class Differ {
 public:
  Differ(const Value& old_root, const Value& new_root) : old_(old_root), new_(new_root) {}

  std::vector<SchemaChange> Run();

 private:
  struct Ctx {
    std::string entry;
    EntryAnnotations old_notes, new_notes;
  };

  void Emit(const Ctx& c, std::string kind, std::string detail, const std::string& at,
            const std::string& pointer, std::string old_value, std::string new_value, bool widens,
            bool narrows);
  void Compare(const Ctx& c, const std::vector<Src>& o, const std::vector<Src>& n,
               const std::string& pointer, int depth);
  void CompareTypes(const Ctx& c, const Flat& o, const Flat& n, const std::string& pointer);
  void CompareValues(const Ctx& c, const Flat& o, const Flat& n, const std::string& pointer);
  void CompareBounds(const Ctx& c, const Flat& o, const Flat& n, const std::string& pointer);
  void CompareProperties(const Ctx& c, const Flat& o, const Flat& n, const std::string& pointer,
                         int depth);
  void CompareConditions(const Ctx& c, const Flat& o, const Flat& n, const std::string& pointer,
                         int depth);
  void CompareEntry(const std::string& name, const Value* o, const Value* n);

  const Value& old_;
  const Value& new_;
  std::vector<SchemaChange> out_;
  std::map<std::string, std::size_t> index_;  // kind|schema pointer|detail -> out_
};

void Differ::Emit(const Ctx& c, std::string kind, std::string detail, const std::string& at,
                  const std::string& pointer, std::string old_value, std::string new_value,
                  bool widens, bool narrows) {
  const bool added = kind == "entry-added";
  const EntryAnnotations& notes = added ? c.new_notes : c.old_notes;
  bool closed = false;
  for (const auto* list : {&c.old_notes.closed_sets, &c.new_notes.closed_sets})
    for (const auto& p : *list) closed = closed || PointerMatches(p, pointer);
  const std::string key = kind + "|" + at + "|" + detail;
  auto [it, fresh] = index_.emplace(key, out_.size());
  if (fresh) {
    SchemaChange change;
    change.kind = std::move(kind);
    change.detail = std::move(detail);
    change.schema_pointer = at;
    change.old_value = std::move(old_value);
    change.new_value = std::move(new_value);
    change.widens = widens;
    change.narrows = narrows;
    change.direction = notes.direction;
    out_.push_back(std::move(change));
  }
  SchemaChange& change = out_[it->second];
  change.locations.push_back({c.entry, pointer});
  change.frozen = change.frozen || notes.frozen;
  change.closed_set = change.closed_set || closed;
  if (change.direction != notes.direction) change.direction = "both";
}

void Differ::CompareTypes(const Ctx& c, const Flat& o, const Flat& n, const std::string& pointer) {
  if (o.types == n.types) return;
  const std::string ov = o.types ? Join(*o.types) : "any";
  const std::string nv = n.types ? Join(*n.types) : "any";
  const std::string at = n.types ? n.types_at : o.types_at;
  const bool wider = !n.types || (o.types && CoversAll(*n.types, *o.types));
  const bool narrower = !o.types || (n.types && CoversAll(*o.types, *n.types));
  std::string kind = wider ? "type-widened" : narrower ? "type-narrowed" : "type-changed";
  Emit(c, kind, "type " + ov + " -> " + nv, at, pointer, ov, nv, wider, narrower);
}

void Differ::CompareValues(const Ctx& c, const Flat& o, const Flat& n, const std::string& pointer) {
  if (o.enums && n.enums) {
    for (const auto& v : *n.enums)
      if (!o.enums->count(v))
        Emit(c, "enum-value-added", "value " + v + " added", n.enum_at, pointer, "", v, true,
             false);
    for (const auto& v : *o.enums)
      if (!n.enums->count(v))
        Emit(c, "enum-value-removed", "value " + v + " removed", n.enum_at, pointer, v, "", false,
             true);
  } else if (o.enums || n.enums) {
    const bool added = n.enums.has_value();
    const std::string list = Join(added ? *n.enums : *o.enums);
    Emit(c, added ? "enum-introduced" : "enum-dropped",
         std::string(added ? "values limited to " : "no longer limited to ") + list,
         added ? n.enum_at : o.enum_at, pointer, added ? "" : list, added ? list : "", !added,
         added);
  }
  if (o.constant != n.constant) {
    const std::string ov = o.constant.value_or(""), nv = n.constant.value_or("");
    const std::string at = n.constant ? n.const_at : o.const_at;
    if (o.constant && n.constant)
      Emit(c, "const-changed", "constant " + ov + " -> " + nv, at, pointer, ov, nv, false, false);
    else
      Emit(c, n.constant ? "constraint-tightened" : "constraint-loosened",
           n.constant ? "const " + nv + " added" : "const " + ov + " removed", at, pointer, ov, nv,
           !n.constant, n.constant.has_value());
  }
  if (o.closed != n.closed)
    Emit(c, n.closed ? "object-closed" : "object-opened",
         n.closed ? "unknown fields now rejected" : "unknown fields now accepted",
         n.closed ? n.closed_at : o.closed_at, pointer, o.closed ? "false" : "",
         n.closed ? "false" : "", !n.closed, n.closed);
}

void Differ::CompareBounds(const Ctx& c, const Flat& o, const Flat& n, const std::string& pointer) {
  for (const bool lower : {true, false}) {
    const auto& ot = lower ? o.lower : o.upper;
    const auto& nt = lower ? n.lower : n.upper;
    std::set<std::string> keys;
    for (const auto& [k, b] : ot) keys.insert(k);
    for (const auto& [k, b] : nt) keys.insert(k);
    for (const auto& k : keys) {
      auto oi = ot.find(k);
      auto ni = nt.find(k);
      const bool has_o = oi != ot.end(), has_n = ni != nt.end();
      if (has_o && has_n && oi->second.value == ni->second.value) continue;
      const std::string ov = has_o ? Num(oi->second.value) : "";
      const std::string nv = has_n ? Num(ni->second.value) : "";
      // A new bound, or a bound moved inwards, accepts less.
      const bool tighter = !has_o || (has_n && (lower ? ni->second.value > oi->second.value
                                                      : ni->second.value < oi->second.value));
      Emit(c, tighter ? "constraint-tightened" : "constraint-loosened",
           k + " " + (has_o ? ov : "(none)") + " -> " + (has_n ? nv : "(none)"),
           has_n ? ni->second.at : oi->second.at, pointer, ov, nv, !tighter, tighter);
    }
  }
  std::set<std::string> keys;
  for (const auto& [k, v] : o.opaque) keys.insert(k);
  for (const auto& [k, v] : n.opaque) keys.insert(k);
  for (const auto& k : keys) {
    auto oi = o.opaque.find(k);
    auto ni = n.opaque.find(k);
    const bool has_o = oi != o.opaque.end(), has_n = ni != n.opaque.end();
    if (has_o && has_n && oi->second.first == ni->second.first) continue;
    const std::string ov = has_o ? oi->second.first : "", nv = has_n ? ni->second.first : "";
    const std::string at = has_n ? ni->second.second : oi->second.second;
    // Every keyword is one more condition (allOf): adding one accepts less, dropping one more.
    if (!has_o || !has_n)
      Emit(c, has_n ? "constraint-tightened" : "constraint-loosened",
           k + (has_n ? " added" : " removed"), at, pointer, ov, nv, !has_n, has_n);
    else
      Emit(c, "constraint-changed", k + " changed", at, pointer, ov, nv, false, false);
  }
}

void Differ::CompareProperties(const Ctx& c, const Flat& o, const Flat& n,
                               const std::string& pointer, int depth) {
  std::set<std::string> names;
  for (const auto* f : {&o, &n}) {
    for (const auto& [k, v] : f->props) names.insert(k);
    for (const auto& [k, v] : f->required) names.insert(k);
  }
  for (const auto& name : names) {
    const std::string child = pointer + "/" + Esc(name);
    const bool in_o = o.props.count(name) || o.required.count(name);
    const bool in_n = n.props.count(name) || n.required.count(name);
    const bool req_o = o.required.count(name) > 0, req_n = n.required.count(name) > 0;
    auto at = [&](const Flat& f) {
      auto p = f.prop_at.find(name);
      return p != f.prop_at.end() ? p->second : f.required.find(name)->second;
    };
    if (!in_o) {
      Emit(c, "property-added",
           std::string(req_n ? "required" : "optional") + " field '" + name + "' added", at(n),
           child, "", req_n ? "required" : "optional", !req_n, !o.closed);
      continue;
    }
    if (!in_n) {
      Emit(c, "property-removed",
           std::string(req_o ? "required" : "optional") + " field '" + name + "' removed", at(o),
           child, req_o ? "required" : "optional", "", !n.closed, !req_o);
      continue;
    }
    if (req_o != req_n)
      Emit(c, req_n ? "property-became-required" : "property-became-optional",
           "field '" + name + "' " + (req_n ? "now required" : "now optional"),
           req_n ? n.required.find(name)->second : o.required.find(name)->second, child,
           req_o ? "required" : "optional", req_n ? "required" : "optional", !req_n, req_n);
    auto op = o.props.find(name), np = n.props.find(name);
    static const std::vector<Src> kNone;
    Compare(c, op == o.props.end() ? kNone : op->second, np == n.props.end() ? kNone : np->second,
            child, depth + 1);
  }
  if (!o.items.empty() || !n.items.empty()) Compare(c, o.items, n.items, pointer + "/*", depth + 1);
  if (!o.values.empty() || !n.values.empty())
    Compare(c, o.values, n.values, pointer + "/*", depth + 1);
}

void Differ::CompareConditions(const Ctx& c, const Flat& o, const Flat& n,
                               const std::string& pointer, int depth) {
  std::vector<bool> matched(n.conds.size(), false);
  for (const Cond& oc : o.conds) {
    bool found = false;
    for (std::size_t i = 0; i < n.conds.size() && !found; ++i) {
      if (matched[i] || n.conds[i].test != oc.test) continue;
      matched[i] = found = true;
      Compare(c, oc.then_srcs, n.conds[i].then_srcs, pointer, depth + 1);
      Compare(c, oc.else_srcs, n.conds[i].else_srcs, pointer, depth + 1);
    }
    if (!found)
      Emit(c, "condition-removed", "condition " + json::Abbreviate(oc.test, 80) + " removed", oc.at,
           pointer, oc.test, "", true, false);
  }
  for (std::size_t i = 0; i < n.conds.size(); ++i)
    if (!matched[i])
      Emit(c, "condition-added", "condition " + json::Abbreviate(n.conds[i].test, 80) + " added",
           n.conds[i].at, pointer, "", n.conds[i].test, false, true);
}

void Differ::Compare(const Ctx& c, const std::vector<Src>& o, const std::vector<Src>& n,
                     const std::string& pointer, int depth) {
  if (depth > kMaxDepth) return;
  Flat fo, fn;
  CollectAll(old_, o, &fo, 0);
  CollectAll(new_, n, &fn, 0);
  CompareTypes(c, fo, fn, pointer);
  CompareValues(c, fo, fn, pointer);
  CompareBounds(c, fo, fn, pointer);
  CompareProperties(c, fo, fn, pointer, depth);
  CompareConditions(c, fo, fn, pointer, depth);
}

void Differ::CompareEntry(const std::string& name, const Value* o, const Value* n) {
  Ctx c;
  c.entry = name;
  std::string ignored;
  if (o && !ReadAnnotations(*o, &c.old_notes, &ignored)) c.old_notes = {"both", false, {}};
  if (n && !ReadAnnotations(*n, &c.new_notes, &ignored)) c.new_notes = {"both", false, {}};
  const std::string at = "/$defs/" + Esc(name);
  if (!o) {
    c.old_notes = c.new_notes;
    Emit(c, "entry-added",
         std::string(c.new_notes.frozen ? "frozen" : "not frozen") + " entry '" + name + "' added",
         at, "", "", name, true, true);
    return;
  }
  if (!n) {
    c.new_notes = c.old_notes;
    Emit(c, "entry-removed", "entry '" + name + "' removed", at, "", name, "", false, false);
    return;
  }
  auto b = [](bool x) { return std::string(x ? "true" : "false"); };
  if (c.old_notes.frozen != c.new_notes.frozen)
    Emit(c, "frozen-changed", "x-frozen " + b(c.old_notes.frozen) + " -> " + b(c.new_notes.frozen),
         at + "/x-frozen", "", b(c.old_notes.frozen), b(c.new_notes.frozen), false, false);
  if (c.old_notes.direction != c.new_notes.direction)
    Emit(c, "direction-changed",
         "x-direction " + c.old_notes.direction + " -> " + c.new_notes.direction,
         at + "/x-direction", "", c.old_notes.direction, c.new_notes.direction, false, false);
  std::set<std::string> os(c.old_notes.closed_sets.begin(), c.old_notes.closed_sets.end());
  std::set<std::string> ns(c.new_notes.closed_sets.begin(), c.new_notes.closed_sets.end());
  if (os != ns)
    Emit(c, "closed-sets-changed", "x-closed-sets [" + Join(os) + "] -> [" + Join(ns) + "]",
         at + "/x-closed-sets", "", Join(os), Join(ns), false, false);
  Compare(c, {{o, at}}, {{n, at}}, "", 0);
}

std::vector<SchemaChange> Differ::Run() {
  static const Value kEmpty(rapidjson::kObjectType);
  const Value* od = json::Find(old_, "$defs");
  const Value* nd = json::Find(new_, "$defs");
  if (!od || !od->IsObject()) od = &kEmpty;
  if (!nd || !nd->IsObject()) nd = &kEmpty;
  for (const auto& m : nd->GetObject())
    CompareEntry(std::string(View(m.name)), json::Find(*od, View(m.name)), &m.value);
  for (const auto& m : od->GetObject())
    if (!json::Find(*nd, View(m.name))) CompareEntry(std::string(View(m.name)), &m.value, nullptr);
  return std::move(out_);
}

// The schemas of instance pointer `token` below `f`, looking into conditional branches too.
void Children(const Value& root, const Flat& f, const std::string& token, std::vector<Src>* out,
              int depth) {
  if (depth > kMaxDepth) return;
  if (token == "*") {
    out->insert(out->end(), f.items.begin(), f.items.end());
    out->insert(out->end(), f.values.begin(), f.values.end());
  } else if (auto it = f.props.find(token); it != f.props.end()) {
    out->insert(out->end(), it->second.begin(), it->second.end());
  }
  for (const Cond& cond : f.conds)
    for (const auto* branch : {&cond.then_srcs, &cond.else_srcs}) {
      Flat b;
      CollectAll(root, *branch, &b, 0);
      Children(root, b, token, out, depth + 1);
    }
}

bool HasValueSet(const Value& root, const Flat& f, int depth) {
  if (f.enums || f.constant) return true;
  if (depth > kMaxDepth) return false;
  for (const Cond& cond : f.conds)
    for (const auto* branch : {&cond.then_srcs, &cond.else_srcs}) {
      Flat b;
      CollectAll(root, *branch, &b, 0);
      if (HasValueSet(root, b, depth + 1)) return true;
    }
  return false;
}

std::vector<std::string> Tokens(const std::string& pointer) {
  std::vector<std::string> out;
  std::size_t at = 1;
  while (at <= pointer.size()) {
    std::size_t slash = pointer.find('/', at);
    if (slash == std::string::npos) slash = pointer.size();
    out.push_back(pointer.substr(at, slash - at));
    at = slash + 1;
  }
  return out;
}

}  // namespace

bool ReadAnnotations(const Value& entry, EntryAnnotations* out, std::string* error) {
  if (!entry.IsObject()) return *error = "the entry is not an object", false;
  const Value* dir = json::Find(entry, "x-direction");
  if (!dir || !dir->IsString())
    return *error = "x-direction: missing (\"host->plugin\", \"plugin->host\" or \"both\")", false;
  out->direction.assign(View(*dir));
  if (out->direction != "host->plugin" && out->direction != "plugin->host" &&
      out->direction != "both")
    return *error = "x-direction: \"" + out->direction +
                    "\" is not \"host->plugin\", \"plugin->host\" or \"both\"",
           false;
  const Value* frozen = json::Find(entry, "x-frozen");
  if (!frozen || !frozen->IsBool()) return *error = "x-frozen: missing (true or false)", false;
  out->frozen = frozen->GetBool();
  const Value* sets = json::Find(entry, "x-closed-sets");
  if (!sets || !sets->IsArray())
    return *error = "x-closed-sets: missing (an array of instance pointers, [] for none)", false;
  out->closed_sets.clear();
  for (const auto& p : sets->GetArray()) {
    if (!p.IsString() || p.GetStringLength() == 0 || p.GetString()[0] != '/')
      return *error = "x-closed-sets: " + json::ToCompact(p) + " is not a pointer (\"/params/x\")",
             false;
    out->closed_sets.emplace_back(View(p));
  }
  return true;
}

std::vector<std::string> AnnotationProblems(const FrameSchema& schema, const std::string& def) {
  std::vector<std::string> problems;
  const Value* entry = schema.Def(def);
  EntryAnnotations notes;
  std::string error;
  if (!entry || !ReadAnnotations(*entry, &notes, &error)) {
    problems.push_back(error.empty() ? "no such entry" : error);
    return problems;
  }
  const Value& root = schema.Document();
  for (const auto& pointer : notes.closed_sets) {
    std::vector<Src> at = {{entry, "/$defs/" + Esc(def)}};
    for (const auto& token : Tokens(pointer)) {
      Flat f;
      CollectAll(root, at, &f, 0);
      at.clear();
      Children(root, f, token, &at, 0);
    }
    Flat f;
    CollectAll(root, at, &f, 0);
    if (at.empty() || !HasValueSet(root, f, 0))
      problems.push_back("x-closed-sets: " + pointer + " names no enum or const in the frame");
  }
  return problems;
}

std::vector<SchemaChange> DiffSchemas(const Value& old_doc, const Value& new_doc) {
  return Differ(old_doc, new_doc).Run();
}

bool PointerMatches(const std::string& pattern, const std::string& pointer) {
  const std::vector<std::string> p = Tokens(pattern), q = Tokens(pointer);
  if (p.size() != q.size()) return false;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p[i] != "*" && p[i] != q[i]) return false;
  return true;
}

}  // namespace fakehost::schema
