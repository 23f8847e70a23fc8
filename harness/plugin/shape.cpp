#include "harness/plugin/shape.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "harness/json/json.hpp"
#include "harness/plugin/json_locate.hpp"
#include "harness/text/template.hpp"

namespace fakehost::plugin {
namespace {

constexpr std::string_view kUnexpected = "unexpected property '";
constexpr std::string_view kMissing = "missing required property '";
constexpr const char* kRoot = "manifest";

std::string DefName(const std::string& ref) {
  constexpr std::string_view kPrefix = "#/$defs/";
  return ref.rfind(kPrefix, 0) == 0 ? PointerTokens(ref.substr(7)).at(0) : std::string();
}

bool HasType(const rapidjson::Value& value, std::string_view type) {
  if (type == "integer") return value.IsInt64() || value.IsUint64();
  if (type == "number") return value.IsNumber();
  if (type == "string") return value.IsString();
  if (type == "boolean") return value.IsBool();
  if (type == "object") return value.IsObject();
  if (type == "array") return value.IsArray();
  if (type == "null") return value.IsNull();
  return false;
}

std::string Article(std::string_view type) {
  std::string t(type);
  return (t == "integer" || t == "object" || t == "array" ? "an " : "a ") + t;
}

// "must be a boolean, not string \"yes\"" when `value` has none of the node's types.
std::string TypeMismatch(const rapidjson::Value& node, const rapidjson::Value& value) {
  const rapidjson::Value* type = json::Find(node, "type");
  if (!type) return "";
  std::vector<std::string> types;
  if (type->IsString()) types.emplace_back(type->GetString());
  if (type->IsArray())
    for (const auto& t : type->GetArray())
      if (t.IsString()) types.emplace_back(t.GetString());
  std::string wanted;
  for (const std::string& t : types) {
    if (HasType(value, t)) return "";
    wanted += (wanted.empty() ? "" : " or ") + Article(t);
  }
  return "must be " + wanted + ", not " + json::TypeName(value) + " " +
         json::Abbreviate(json::ToCompact(value), 80);
}

std::string Parent(const std::string& pointer) { return pointer.substr(0, pointer.rfind('/')); }

// A rule's x-message with ${value} filled in: the only placeholder Lint lets through.
bool FillMessage(std::string_view message, const std::string& shown, std::string* out,
                 std::string* error) {
  return text::Fill(
      message,
      [&](std::string_view name) -> std::optional<std::string> {
        if (name == "value") return shown;
        return std::nullopt;
      },
      out, error);
}

}  // namespace

std::unique_ptr<ManifestShape> ManifestShape::Load(const std::string& path, std::string* error) {
  std::unique_ptr<ManifestShape> shape(new ManifestShape());
  shape->schema_ = schema::FrameSchema::Load(path, error);
  if (!shape->schema_) return nullptr;
  if (!shape->schema_->Has(kRoot)) {
    *error = path + ": /$defs/manifest: missing (the entry for the whole manifest)";
    return nullptr;
  }
  std::string why;
  if (!shape->Lint(*shape->schema_->Def(kRoot), "/$defs/manifest", 0, &why)) {
    *error = path + ": " + why;
    return nullptr;
  }
  return shape;
}

const rapidjson::Value* ManifestShape::Deref(const rapidjson::Value* node) const {
  for (int hops = 0; node && node->IsObject() && hops < 16; ++hops) {
    const std::string ref = json::StringMember(*node, "$ref");
    if (ref.empty()) return node;
    node = schema_->Def(DefName(ref));
  }
  return node;
}

// A navigation node may hold only what navigates and types; constraints live in rule entries.
bool ManifestShape::Lint(const rapidjson::Value& node, const std::string& where, int depth,
                         std::string* error) const {
  static const std::set<std::string> kNavigation = {
      "type", "properties", "additionalProperties", "required", "items", "allOf",
      "$ref", "$comment",   "description",          "title"};
  if (depth > 32) return true;  // a $ref cycle: the schema layer resolved it, nothing new here
  if (!node.IsObject()) {
    *error = where + ": expected a schema object";
    return false;
  }
  if (json::Find(node, "x-rule")) return true;  // a rule entry: any constraint
  for (const auto& m : node.GetObject()) {
    std::string key(m.name.GetString(), m.name.GetStringLength());
    if (!kNavigation.count(key) && key.rfind("x-", 0) != 0) {
      *error = where + "/" + json::EscapePointerToken(key) +
               ": a constraint outside a rule entry (move it into a $defs entry with x-rule, "
               "x-message and x-source, and reference it from allOf)";
      return false;
    }
  }
  if (const std::string ref = json::StringMember(node, "$ref"); !ref.empty()) {
    const rapidjson::Value* target = schema_->Def(DefName(ref));
    if (!target) {
      *error = where + "/$ref: only #/$defs/<name> references are supported here";
      return false;
    }
    if (!Lint(*target, "/$defs/" + DefName(ref), depth + 1, error)) return false;
  }
  if (const rapidjson::Value* all = json::Find(node, "allOf")) {
    for (rapidjson::SizeType i = 0; i < all->Size(); ++i) {
      const rapidjson::Value& e = (*all)[i];
      const rapidjson::Value* target =
          e.IsObject() ? schema_->Def(DefName(json::StringMember(e, "$ref"))) : nullptr;
      if (!target || !json::Find(*target, "x-rule") ||
          json::StringMember(*target, "x-message").empty() ||
          json::StringMember(*target, "x-source").empty() || e.MemberCount() != 1) {
        *error = where + "/allOf/" + std::to_string(i) +
                 ": expected {\"$ref\": \"#/$defs/<rule>\"} naming an entry with x-rule, "
                 "x-message and x-source";
        return false;
      }
      if (std::string filled, why;
          !FillMessage(json::StringMember(*target, "x-message"), "", &filled, &why)) {
        *error = "/$defs/" + DefName(json::StringMember(e, "$ref")) + "/x-message: " + why +
                 " (${value}, the value as JSON, is the only one)";
        return false;
      }
    }
  }
  if (const rapidjson::Value* props = json::Find(node, "properties"); props && props->IsObject())
    for (const auto& p : props->GetObject())
      if (!Lint(p.value, where + "/properties/" + json::EscapePointerToken(p.name.GetString()),
                depth + 1, error))
        return false;
  for (const char* child : {"items", "additionalProperties"})
    if (const rapidjson::Value* c = json::Find(node, child); c && c->IsObject())
      if (!Lint(*c, where + "/" + child, depth + 1, error)) return false;
  return true;
}

const rapidjson::Value* ManifestShape::NodeAt(const std::string& pointer,
                                              const rapidjson::Value& doc) const {
  const rapidjson::Value* node = schema_->Def(kRoot);
  const rapidjson::Value* value = &doc;
  for (const std::string& token : PointerTokens(pointer)) {
    node = Deref(node);
    if (!node || !value) return nullptr;
    const rapidjson::Value* next = nullptr;
    if (value->IsArray()) {
      next = json::Find(*node, "items");
      value = json::Resolve(*value, "/" + token);
    } else {
      if (const rapidjson::Value* props = json::Find(*node, "properties"); props)
        next = json::Find(*props, token);
      if (!next) next = json::Find(*node, "additionalProperties");
      value = value->IsObject() ? json::Find(*value, token) : nullptr;
    }
    if (!next || !next->IsObject()) return nullptr;
    node = next;
  }
  return node;
}

void ManifestShape::Explain(const std::string& pointer, const std::string& valijson_message,
                            const rapidjson::Value& manifest, std::vector<Finding>* out) const {
  const rapidjson::Value* value = json::Resolve(manifest, pointer);
  const rapidjson::Value* node = NodeAt(pointer, manifest);
  auto add = [&](std::string rule, std::string text) {
    out->push_back({std::move(rule), pointer, std::move(text), pointer, false});
  };
  if (!value || !node) {
    add("schema", valijson_message);
    return;
  }
  // The rules at this node: the node itself when it is a $ref to a rule, and its allOf rules.
  std::vector<std::string> rules;
  if (const std::string ref = json::StringMember(*node, "$ref"); !ref.empty()) {
    const rapidjson::Value* target = schema_->Def(DefName(ref));
    if (target && json::Find(*target, "x-rule")) rules.push_back(DefName(ref));
  }
  const rapidjson::Value* resolved = Deref(node);
  if (std::string mismatch = TypeMismatch(*resolved, *value); !mismatch.empty()) {
    add("type", mismatch);
    return;
  }
  if (const rapidjson::Value* all = json::Find(*resolved, "allOf"))
    for (const auto& e : all->GetArray()) rules.push_back(DefName(json::StringMember(e, "$ref")));
  std::size_t before = out->size();
  for (const std::string& def : rules) {
    if (schema_->IsValid(def, *value)) continue;
    const rapidjson::Value& rule = *schema_->Def(def);
    if (std::string mismatch = TypeMismatch(rule, *value); !mismatch.empty()) {
      add("type", mismatch);
      continue;
    }
    const std::string message = json::StringMember(rule, "x-message");
    std::string text, error;
    if (!FillMessage(message, json::Abbreviate(json::ToCompact(*value), 120), &text, &error))
      text = message;
    add(json::StringMember(rule, "x-rule"), text);
  }
  if (out->size() == before) add("schema", valijson_message);
}

void ManifestShape::Check(const rapidjson::Value& manifest, std::vector<Finding>* out) const {
  std::vector<schema::Violation> violations = schema_->Validate(kRoot, manifest);
  std::vector<std::pair<std::string, std::vector<std::string>>> unknown;  // object -> keys
  std::map<std::string, std::string> other;                               // pointer -> message
  std::vector<std::string> other_order;
  for (const auto& v : violations) {
    std::string_view rest = v.message;
    while (!rest.empty()) {
      std::size_t cut = rest.find("; ");
      std::string_view part = rest.substr(0, cut);
      rest = cut == std::string_view::npos ? std::string_view() : rest.substr(cut + 2);
      if (part.substr(0, kUnexpected.size()) == kUnexpected) {
        std::string parent = Parent(v.pointer);
        auto it = std::find_if(unknown.begin(), unknown.end(),
                               [&](const auto& u) { return u.first == parent; });
        if (it == unknown.end()) it = unknown.insert(unknown.end(), {parent, {}});
        it->second.push_back(v.pointer);
        rest = {};  // the key's name (the rest of the message) may itself hold "; "
      } else if (part.substr(0, kMissing.size()) == kMissing) {
        std::string name(part.substr(kMissing.size()));
        name = name.substr(0, name.rfind('\''));
        out->push_back({"missing-field", v.pointer, "missing field " + name, v.pointer, false});
      } else if (other.emplace(v.pointer, std::string(part)).second) {
        other_order.push_back(v.pointer);
      }
    }
  }
  // valijson reports only the first unknown key of an object; the loader names them all.
  for (auto& [object, keys] : unknown) {
    const rapidjson::Value* node = Deref(NodeAt(object, manifest));
    const rapidjson::Value* value = json::Resolve(manifest, object);
    const rapidjson::Value* props = node ? json::Find(*node, "properties") : nullptr;
    if (!props || !value || !value->IsObject()) continue;
    keys.clear();
    for (const auto& m : value->GetObject())
      if (!json::Find(*props, {m.name.GetString(), m.name.GetStringLength()}))
        keys.push_back(object + "/" +
                       json::EscapePointerToken({m.name.GetString(), m.name.GetStringLength()}));
  }
  for (const auto& [object, keys] : unknown) {
    if (keys.empty()) continue;
    std::string names;
    for (const std::string& k : keys)
      names += (names.empty() ? "" : ", ") + PointerTokens(k).back();
    out->push_back({"unknown-field", object,
                    (keys.size() == 1 ? "unknown field " : "unknown field(s) ") + names,
                    keys.front(), true});
  }
  for (const std::string& pointer : other_order) Explain(pointer, other[pointer], manifest, out);
}

std::vector<std::pair<std::string, std::string>> ManifestShape::Rules() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& name : schema_->DefNames()) {
    const rapidjson::Value& def = *schema_->Def(name);
    if (json::Find(def, "x-rule"))
      out.emplace_back(json::StringMember(def, "x-rule"), json::StringMember(def, "x-source"));
  }
  return out;
}

}  // namespace fakehost::plugin
