#include "harness/schema/keywords.hpp"

#include <regex>
#include <set>
#include <string_view>

#include "harness/json/json.hpp"

namespace fakehost::schema {
namespace {

using rapidjson::Value;

enum class Shape {
  kSchema,         // a subschema
  kSchemaOrArray,  // items: a subschema or an array of them
  kSchemaArray,    // allOf/anyOf/oneOf: a non-empty array of subschemas
  kSchemaMap,      // properties, $defs, definitions
  kPatternMap,     // patternProperties: keys are regexes
  kDependencies,   // map of subschema or array of strings
  kAny,            // const, enum's items, default, examples: data, not schemas
  kArray,          // enum
  kType,           // a type name or an array of them
  kStrings,        // required: array of strings
  kCount,          // non-negative integer
  kNumber,
  kPositive,  // multipleOf
  kBoolean,
  kString,
  kRegex,
};

struct Keyword {
  std::string_view name;
  Shape shape;
};

// The draft-07 keywords valijson 1.0 implements (schema_parser.hpp), and what their values are.
constexpr Keyword kKeywords[] = {
    {"$ref", Shape::kString},
    {"$defs", Shape::kSchemaMap},
    {"definitions", Shape::kSchemaMap},
    {"allOf", Shape::kSchemaArray},
    {"anyOf", Shape::kSchemaArray},
    {"oneOf", Shape::kSchemaArray},
    {"not", Shape::kSchema},
    {"if", Shape::kSchema},
    {"then", Shape::kSchema},
    {"else", Shape::kSchema},
    {"const", Shape::kAny},
    {"enum", Shape::kArray},
    {"type", Shape::kType},
    {"properties", Shape::kSchemaMap},
    {"patternProperties", Shape::kPatternMap},
    {"additionalProperties", Shape::kSchema},
    {"propertyNames", Shape::kSchema},
    {"required", Shape::kStrings},
    {"minProperties", Shape::kCount},
    {"maxProperties", Shape::kCount},
    {"dependencies", Shape::kDependencies},
    {"items", Shape::kSchemaOrArray},
    {"additionalItems", Shape::kSchema},
    {"contains", Shape::kSchema},
    {"minItems", Shape::kCount},
    {"maxItems", Shape::kCount},
    {"uniqueItems", Shape::kBoolean},
    {"minLength", Shape::kCount},
    {"maxLength", Shape::kCount},
    {"pattern", Shape::kRegex},
    {"minimum", Shape::kNumber},
    {"maximum", Shape::kNumber},
    {"exclusiveMinimum", Shape::kNumber},
    {"exclusiveMaximum", Shape::kNumber},
    {"multipleOf", Shape::kPositive},
    // Annotations: no effect on validation (title and description must be strings for valijson).
    {"$comment", Shape::kString},
    {"title", Shape::kString},
    {"description", Shape::kString},
    {"default", Shape::kAny},
    {"examples", Shape::kAny},
};

bool IsAnnotation(std::string_view key) {
  return key == "$comment" || key == "title" || key == "description" || key == "default" ||
         key == "examples" || key.substr(0, 2) == "x-";
}

const Keyword* FindKeyword(std::string_view key) {
  for (const Keyword& k : kKeywords) {
    if (k.name == key) return &k;
  }
  return nullptr;
}

bool IsTypeName(const Value& v) {
  if (!v.IsString()) return false;
  const std::string_view s(v.GetString(), v.GetStringLength());
  return s == "null" || s == "boolean" || s == "object" || s == "array" || s == "number" ||
         s == "string" || s == "integer";
}

using json::View;

class Linter {
 public:
  explicit Linter(const Value& root) : root_(root) {}

  bool Schema(const Value& node, const std::string& pointer) {
    if (node.IsBool()) return true;
    if (!node.IsObject()) return Fail(pointer, "a schema is an object or a boolean");
    const Value* ref = json::Find(node, "$ref");
    for (const auto& member : node.GetObject()) {
      const std::string_view key = View(member.name);
      const std::string at = pointer + "/" + json::EscapePointerToken(key);
      if (key.substr(0, 2) == "x-") continue;
      if (key == "$schema") {
        if (!pointer.empty()) return Fail(at, "$schema is allowed only at the root");
        continue;  // accepted and ignored, as valijson does
      }
      const Keyword* keyword = FindKeyword(key);
      if (keyword == nullptr) {
        return Fail(at, "keyword '" + std::string(key) +
                            "' is not supported by valijson (draft-07 subset) and would be "
                            "silently ignored");
      }
      if (ref != nullptr && key != "$ref" && !IsAnnotation(key) && key != "$defs" &&
          key != "definitions") {
        return Fail(at, "'" + std::string(key) +
                            "' beside $ref is ignored (draft-07); wrap the $ref in allOf");
      }
      if (!CheckValue(member.value, keyword->shape, at)) return false;
    }
    if (ref != nullptr && !Ref(*ref, pointer + "/$ref")) return false;
    if (json::Find(node, "if") == nullptr) {
      if (json::Find(node, "then") != nullptr) return Fail(pointer + "/then", "then without if");
      if (json::Find(node, "else") != nullptr) return Fail(pointer + "/else", "else without if");
    }
    if (json::Find(node, "additionalItems") != nullptr) {
      const Value* items = json::Find(node, "items");
      if (items == nullptr || !items->IsArray()) {
        return Fail(pointer + "/additionalItems",
                    "additionalItems is ignored unless items is an array");
      }
    }
    return true;
  }

  const std::string& error() const { return error_; }

 private:
  bool CheckValue(const Value& v, Shape shape, const std::string& at) {
    switch (shape) {
      case Shape::kSchema:
        return Schema(v, at);
      case Shape::kSchemaOrArray:
        return v.IsArray() ? Array(v, at) : Schema(v, at);
      case Shape::kSchemaArray:
        if (!v.IsArray() || v.Empty()) return Fail(at, "expected a non-empty array of schemas");
        return Array(v, at);
      case Shape::kSchemaMap:
      case Shape::kPatternMap:
        if (!v.IsObject()) return Fail(at, "expected an object of schemas");
        for (const auto& m : v.GetObject()) {
          const std::string child = at + "/" + json::EscapePointerToken(View(m.name));
          if (shape == Shape::kPatternMap && !Regex(View(m.name), child)) return false;
          if (!Schema(m.value, child)) return false;
        }
        return true;
      case Shape::kDependencies:
        if (!v.IsObject()) return Fail(at, "expected an object");
        for (const auto& m : v.GetObject()) {
          const std::string child = at + "/" + json::EscapePointerToken(View(m.name));
          if (m.value.IsArray()) {
            if (!Strings(m.value, child)) return false;
          } else if (!Schema(m.value, child)) {
            return false;
          }
        }
        return true;
      case Shape::kAny:
        return true;
      case Shape::kArray:
        return v.IsArray() ? true : Fail(at, "expected an array");
      case Shape::kType:
        if (v.IsArray()) {
          if (v.Empty()) return Fail(at, "expected at least one type name");
          for (const Value& t : v.GetArray()) {
            if (!IsTypeName(t)) return Fail(at, "unknown type name " + json::ToCompact(t));
          }
          return true;
        }
        return IsTypeName(v) ? true : Fail(at, "unknown type name " + json::ToCompact(v));
      case Shape::kStrings:
        return Strings(v, at);
      case Shape::kCount:
        return v.IsUint64() ? true : Fail(at, "expected a non-negative integer");
      case Shape::kNumber:
        return v.IsNumber() ? true : Fail(at, "expected a number (draft-07, not a boolean)");
      case Shape::kPositive:
        return v.IsNumber() && v.GetDouble() > 0 ? true : Fail(at, "expected a positive number");
      case Shape::kBoolean:
        return v.IsBool() ? true : Fail(at, "expected a boolean");
      case Shape::kString:
        return v.IsString() ? true : Fail(at, "expected a string");
      case Shape::kRegex:
        return v.IsString() ? Regex(View(v), at) : Fail(at, "expected a string");
    }
    return true;
  }

  bool Array(const Value& v, const std::string& at) {
    rapidjson::SizeType i = 0;
    for (const Value& item : v.GetArray()) {
      if (!Schema(item, at + "/" + std::to_string(i++))) return false;
    }
    return true;
  }

  bool Strings(const Value& v, const std::string& at) {
    if (!v.IsArray()) return Fail(at, "expected an array of strings");
    for (const Value& s : v.GetArray()) {
      if (!s.IsString()) return Fail(at, "expected an array of strings");
    }
    return true;
  }

  bool Regex(std::string_view pattern, const std::string& at) {
    try {
      std::regex compiled{std::string(pattern), std::regex::ECMAScript};
      (void)compiled;
    } catch (const std::regex_error& e) {
      return Fail(
          at, "pattern does not compile as a std::regex (ECMAScript): " + std::string(e.what()));
    }
    return true;
  }

  // Resolves the $ref, then any $ref-only chain it leads into: valijson follows such a chain
  // without limit, so a cycle (A -> B -> A, or A -> A) would recurse until the stack overflows.
  bool Ref(const Value& ref, const std::string& at) {
    std::string target(View(ref));
    if (target.empty() || target[0] != '#') {
      return Fail(at, "only local references (\"#/...\") are supported, not '" + target + "'");
    }
    std::set<std::string> seen;
    while (seen.insert(target).second) {
      const Value* node = json::Resolve(root_, std::string_view(target).substr(1));
      if (node == nullptr) return Fail(at, "'" + target + "' does not resolve");
      const Value* next = node->IsObject() ? json::Find(*node, "$ref") : nullptr;
      if (next == nullptr || !next->IsString() || next->GetStringLength() == 0 ||
          next->GetString()[0] != '#') {
        return true;  // a concrete schema (a bad $ref there is reported where it stands)
      }
      target = View(*next);
    }
    return Fail(at, "$ref cycle through '" + target + "'");
  }

  bool Fail(const std::string& at, const std::string& what) {
    error_ = (at.empty() ? std::string("(root)") : at) + ": " + what;
    return false;
  }

  const Value& root_;
  std::string error_;
};

}  // namespace

bool LintSchema(const rapidjson::Value& root, std::string* error) {
  Linter linter(root);
  if (!linter.Schema(root, "")) {
    if (error != nullptr) *error = linter.error();
    return false;
  }
  return true;
}

}  // namespace fakehost::schema
