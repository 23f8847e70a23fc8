#include "harness/schema/schema.hpp"
#include "harness/json/text_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include "harness/json/json.hpp"
#include "harness/schema/keywords.hpp"
#include "harness/schema/valijson_rapidjson.hpp"
#include "harness/schema/violations.hpp"

namespace fakehost::schema {

struct FrameSchema::Entry {
  const rapidjson::Value* raw = nullptr;  // into doc_
  valijson::Schema compiled;
};

namespace {

// "line L, column C" of a byte offset, for JSON syntax errors in a schema file.
std::string LineColumn(std::string_view text, std::size_t offset) {
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return std::to_string(line) + ":" + std::to_string(column);
}

valijson::Validator& ThreadValidator() {
  // valijson::Validator caches compiled regexes by pattern text and is not thread-safe, so
  // each thread keeps its own; it is independent of any one schema.
  thread_local valijson::Validator validator(valijson::Validator::kStrongTypes);
  return validator;
}

}  // namespace

std::string_view KindName(FrameKind kind) {
  switch (kind) {
    case FrameKind::kRequest:
      return "request";
    case FrameKind::kNotification:
      return "notification";
    case FrameKind::kResponse:
      return "response";
  }
  return "request";
}

FrameSchema::FrameSchema() = default;
FrameSchema::~FrameSchema() = default;

std::unique_ptr<FrameSchema> FrameSchema::Load(const std::string& path, std::string* error) {
  std::string text, why;
  if (!json::ReadFileCapped(path, json::kSchemaFileCap, &text, &why)) {
    if (error != nullptr) *error = why;
    return nullptr;
  }
  std::unique_ptr<FrameSchema> schema = LoadText(text, &why);
  if (schema == nullptr && error != nullptr) *error = path + ": " + why;
  return schema;
}

namespace {

// libstdc++'s std::regex, which valijson 1.0 uses for `pattern`, recurses once per character
// matched: a plugin that sends a 20,000-character string where the schema has a pattern would
// overflow the stack and take the harness down. So every `pattern` is guarded before valijson
// sees it: {"if": {"maxLength": N}, "then": {"pattern": P}, "else": {"maxLength": N}}. A longer
// string is reported as too long instead of being matched. Every pattern in our schemas names
// short things (ids, capability names, trace ids, registration names).
constexpr int kMaxPatternSubject = 4096;

void GuardPatterns(rapidjson::Value& node, rapidjson::Document::AllocatorType& a) {
  if (node.IsArray()) {
    for (auto& e : node.GetArray()) GuardPatterns(e, a);
    return;
  }
  if (!node.IsObject()) return;
  for (auto& m : node.GetObject()) {
    std::string_view key(m.name.GetString(), m.name.GetStringLength());
    if (key == "examples" || key == "x-invalid-examples" || key == "const" || key == "enum" ||
        key == "default" || key.substr(0, 2) == "x-")
      continue;  // data, not schemas
    GuardPatterns(m.value, a);
  }
  auto pattern = node.FindMember("pattern");
  if (pattern == node.MemberEnd() || !pattern->value.IsString()) return;
  rapidjson::Value guard(rapidjson::kObjectType);
  rapidjson::Value cap(rapidjson::kObjectType);
  cap.AddMember("maxLength", kMaxPatternSubject, a);
  rapidjson::Value then(rapidjson::kObjectType);
  then.AddMember("pattern", rapidjson::Value(pattern->value, a), a);
  guard.AddMember("if", rapidjson::Value(cap, a), a);
  guard.AddMember("then", then, a);
  guard.AddMember("else", cap, a);
  node.RemoveMember("pattern");
  auto all = node.FindMember("allOf");
  if (all == node.MemberEnd()) {
    node.AddMember("allOf", rapidjson::Value(rapidjson::kArrayType), a);
    all = node.FindMember("allOf");
  }
  all->value.PushBack(guard, a);
}

}  // namespace

std::unique_ptr<FrameSchema> FrameSchema::LoadText(std::string_view text, std::string* error) {
  auto fail = [&](std::string what) -> std::unique_ptr<FrameSchema> {
    if (error != nullptr) *error = std::move(what);
    return nullptr;
  };
  std::unique_ptr<FrameSchema> schema(new FrameSchema());
  const json::ParseResult parsed = json::Parse(text, &schema->doc_);
  if (!parsed.ok) {
    return fail(LineColumn(text, parsed.error_offset) + ": invalid JSON: " + parsed.error);
  }
  if (!parsed.duplicate_keys.empty()) {
    // valijson would read only the first of the two; the author meant one of them.
    return fail(parsed.duplicate_keys.front() + ": duplicate key");
  }
  const rapidjson::Value& root = schema->doc_;
  if (!root.IsObject()) return fail("(root): a schema document is an object");
  const rapidjson::Value* defs = json::Find(root, "$defs");
  if (defs == nullptr || !defs->IsObject() || defs->ObjectEmpty()) {
    return fail("/$defs: a frame schema needs a non-empty \"$defs\" object of frame entries");
  }
  std::string lint;
  if (!LintSchema(root, &lint)) return fail(lint);

  // valijson compiles a schema from a root node and resolves "#..." against that same root, so
  // each entry is compiled from a copy of the document whose root is {"$ref": "#/$defs/<name>"}
  // (draft-07 ignores the root's other keywords beside $ref). The compiled Schema keeps no
  // reference to the copy, so one copy serves every entry.
  rapidjson::Document scratch;
  scratch.CopyFrom(root, scratch.GetAllocator());
  GuardPatterns(scratch, scratch.GetAllocator());
  scratch.AddMember("$ref", rapidjson::Value(rapidjson::kStringType), scratch.GetAllocator());
  rapidjson::Value& ref = scratch.FindMember("$ref")->value;
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  for (const auto& member : defs->GetObject()) {
    std::string name(member.name.GetString(), member.name.GetStringLength());
    const std::string target = "#/$defs/" + json::EscapePointerToken(name);
    ref.SetString(target.c_str(), static_cast<rapidjson::SizeType>(target.size()),
                  scratch.GetAllocator());
    auto entry = std::make_unique<Entry>();
    entry->raw = &member.value;
    try {
      parser.populateSchema(valijson::adapters::RapidJsonAdapter(scratch), entry->compiled);
    } catch (const std::exception& e) {
      return fail("/$defs/" + json::EscapePointerToken(name) + ": valijson: " + e.what());
    }
    schema->order_.push_back(name);
    schema->entries_.emplace(std::move(name), std::move(entry));
  }
  return schema;
}

bool FrameSchema::Has(std::string_view def) const { return entries_.find(def) != entries_.end(); }

std::vector<std::string> FrameSchema::DefNames() const { return order_; }

const rapidjson::Value* FrameSchema::Def(std::string_view def) const {
  auto it = entries_.find(def);
  return it == entries_.end() ? nullptr : it->second->raw;
}

bool FrameSchema::IsValid(std::string_view def, const rapidjson::Value& frame) const {
  auto it = entries_.find(def);
  if (it == entries_.end()) return false;
  return ThreadValidator().validate(it->second->compiled,
                                    valijson::adapters::RapidJsonAdapter(frame), nullptr);
}

std::vector<Violation> FrameSchema::Validate(std::string_view def,
                                             const rapidjson::Value& frame) const {
  auto it = entries_.find(def);
  if (it == entries_.end()) {
    return {{"", "the schema has no entry '" + std::string(def) + "'"}};
  }
  valijson::Validator& validator = ThreadValidator();
  const valijson::adapters::RapidJsonAdapter target(frame);
  // Without a results object valijson stops at the first failure: the common, valid case
  // costs one pass and no strings.
  if (validator.validate(it->second->compiled, target, nullptr)) return {};
  valijson::ValidationResults results;
  validator.validate(it->second->compiled, target, &results);
  std::vector<RawError> errors;
  errors.reserve(results.numErrors());
  for (const auto& e : results) errors.push_back({e.context, e.description});
  std::vector<Violation> out = TargetViolations(errors, frame);
  if (out.empty()) out.push_back({"", "the frame does not match '" + std::string(def) + "'"});
  return out;
}

std::string RouteDef(const FrameSchema& schema, FrameKind kind, std::string_view method) {
  const std::string_view name = KindName(kind);
  std::string def;
  def.reserve(method.size() + 1 + name.size());
  def.append(method).append(".").append(name);
  if (schema.Has(def)) return def;
  return "envelope." + std::string(name);
}

std::string RouteDef(const FrameSchema& schema, std::string_view kind, std::string_view method) {
  if (kind == "request") return RouteDef(schema, FrameKind::kRequest, method);
  if (kind == "notification") return RouteDef(schema, FrameKind::kNotification, method);
  if (kind == "response") return RouteDef(schema, FrameKind::kResponse, method);
  return "";
}

bool PointerAtOrBelow(std::string_view pointer, std::string_view base) {
  if (pointer.size() < base.size() || pointer.substr(0, base.size()) != base) return false;
  return pointer.size() == base.size() || pointer[base.size()] == '/';
}

}  // namespace fakehost::schema
