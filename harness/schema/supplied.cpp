// Over 500 lines, on purpose: one keyword table and the one walk that reads it serve both
// questions (is the schema valid, may valijson judge it), so the gate cannot drift from the
// meta-schema checks; split, each half would need the other's private table and walk.
#include "harness/schema/supplied.hpp"

#include <algorithm>
#include <cmath>
#include <regex>
#include <set>
#include <string_view>

#include <boost/regex.hpp>

#include "harness/json/json.hpp"
#include "harness/schema/valijson_rapidjson.hpp"
#include "harness/schema/violations.hpp"

// A nested namespace of its own: the schema library is built as one unity file, and keywords.cpp
// has its own Shape and Keyword.
namespace fakehost::schema::supplied {
namespace {

using json::View;
using rapidjson::Value;

// What a keyword's value must be, as the dialect's meta-schema says.
enum class Shape {
  kNone,            // not a keyword of this dialect: ignored (any value)
  kSchema,          // a schema: an object or a boolean
  kSchemaArray,     // a non-empty array of schemas
  kSchemaOrArray,   // draft-07 items: a schema or a non-empty array of them
  kSchemaMap,       // an object of schemas
  kDependencies,    // draft-07 dependencies: an object of schemas or lists of unique strings
  kStringArrayMap,  // dependentRequired: an object of lists of unique strings
  kBoolMap,         // $vocabulary
  kAny,
  kArray,
  kType,           // a type name or a non-empty list of unique ones
  kUniqueStrings,  // required
  kCount,          // a non-negative integer (1.0 is one)
  kNumber,
  kPositive,  // multipleOf
  kBoolean,
  kString,
};

// How the conformance check treats a keyword present in a schema of a dialect.
enum Use : unsigned {
  kJudged = 0,    // valijson gets it right under both dialects: it judges
  kUntested = 1,  // valijson does not implement this dialect's meaning: the verdict is untested
  kStrip = 2,     // an annotation here (or unknown, but valijson would apply it): not given to it
};

// One row per keyword: its shape under 2020-12 and under draft-07, and its use under each.
// The uses follow bench/schema_suite.cpp's measurement (docs/protocols/mcp-stdio-engine-needs.md,
// N9): a keyword is judged only where valijson got its test file right under both dialects.
struct Keyword {
  std::string_view name;
  Shape in_2020, in_07;
  Use use_2020, use_07;
};

constexpr Keyword kKeywords[] = {
    {"$schema", Shape::kString, Shape::kString, kJudged, kJudged},
    {"$id", Shape::kString, Shape::kString, kJudged, kJudged},   // with a $ref: untested
    {"$ref", Shape::kString, Shape::kString, kJudged, kJudged},  // local pointers only
    {"$comment", Shape::kString, Shape::kString, kJudged, kJudged},
    {"$defs", Shape::kSchemaMap, Shape::kNone, kJudged, kJudged},
    {"definitions", Shape::kSchemaMap, Shape::kSchemaMap, kJudged, kJudged},
    {"$anchor", Shape::kString, Shape::kNone, kUntested, kJudged},
    {"$dynamicRef", Shape::kString, Shape::kNone, kUntested, kJudged},
    {"$dynamicAnchor", Shape::kString, Shape::kNone, kUntested, kJudged},
    {"$recursiveRef", Shape::kAny, Shape::kNone, kUntested, kJudged},
    {"$recursiveAnchor", Shape::kAny, Shape::kNone, kUntested, kJudged},
    {"$vocabulary", Shape::kBoolMap, Shape::kNone, kUntested, kJudged},
    {"allOf", Shape::kSchemaArray, Shape::kSchemaArray, kJudged, kJudged},
    {"anyOf", Shape::kSchemaArray, Shape::kSchemaArray, kJudged, kJudged},
    {"oneOf", Shape::kSchemaArray, Shape::kSchemaArray, kJudged, kJudged},
    {"not", Shape::kSchema, Shape::kSchema, kJudged, kJudged},
    {"if", Shape::kSchema, Shape::kSchema, kJudged, kJudged},
    {"then", Shape::kSchema, Shape::kSchema, kJudged, kJudged},
    {"else", Shape::kSchema, Shape::kSchema, kJudged, kJudged},
    {"dependentSchemas", Shape::kSchemaMap, Shape::kNone, kUntested, kJudged},
    {"dependencies", Shape::kDependencies, Shape::kDependencies, kUntested, kJudged},
    {"prefixItems", Shape::kSchemaArray, Shape::kNone, kUntested, kJudged},
    {"items", Shape::kSchema, Shape::kSchemaOrArray, kJudged, kJudged},
    {"additionalItems", Shape::kNone, Shape::kSchema, kStrip, kJudged},
    {"contains", Shape::kSchema, Shape::kSchema, kJudged, kJudged},
    {"minContains", Shape::kCount, Shape::kNone, kUntested, kJudged},
    {"maxContains", Shape::kCount, Shape::kNone, kUntested, kJudged},
    {"properties", Shape::kSchemaMap, Shape::kSchemaMap, kJudged, kJudged},
    {"patternProperties", Shape::kSchemaMap, Shape::kSchemaMap, kJudged, kJudged},
    {"additionalProperties", Shape::kSchema, Shape::kSchema, kJudged, kJudged},
    {"propertyNames", Shape::kSchema, Shape::kSchema, kJudged, kJudged},
    {"unevaluatedItems", Shape::kSchema, Shape::kNone, kUntested, kJudged},
    {"unevaluatedProperties", Shape::kSchema, Shape::kNone, kUntested, kJudged},
    {"type", Shape::kType, Shape::kType, kJudged, kJudged},
    {"enum", Shape::kArray, Shape::kArray, kJudged, kJudged},
    {"const", Shape::kAny, Shape::kAny, kJudged, kJudged},
    {"multipleOf", Shape::kPositive, Shape::kPositive, kJudged, kJudged},
    {"maximum", Shape::kNumber, Shape::kNumber, kJudged, kJudged},
    {"exclusiveMaximum", Shape::kNumber, Shape::kNumber, kJudged, kJudged},
    {"minimum", Shape::kNumber, Shape::kNumber, kJudged, kJudged},
    {"exclusiveMinimum", Shape::kNumber, Shape::kNumber, kJudged, kJudged},
    {"maxLength", Shape::kCount, Shape::kCount, kJudged, kJudged},
    {"minLength", Shape::kCount, Shape::kCount, kJudged, kJudged},
    {"pattern", Shape::kString, Shape::kString, kJudged, kJudged},
    {"maxItems", Shape::kCount, Shape::kCount, kJudged, kJudged},
    {"minItems", Shape::kCount, Shape::kCount, kJudged, kJudged},
    {"uniqueItems", Shape::kBoolean, Shape::kBoolean, kJudged, kJudged},
    {"maxProperties", Shape::kCount, Shape::kCount, kJudged, kJudged},
    {"minProperties", Shape::kCount, Shape::kCount, kJudged, kJudged},
    {"required", Shape::kUniqueStrings, Shape::kUniqueStrings, kJudged, kJudged},
    {"dependentRequired", Shape::kStringArrayMap, Shape::kNone, kUntested, kJudged},
    {"title", Shape::kString, Shape::kString, kJudged, kJudged},
    {"description", Shape::kString, Shape::kString, kJudged, kJudged},
    {"default", Shape::kAny, Shape::kAny, kJudged, kJudged},
    {"examples", Shape::kArray, Shape::kArray, kJudged, kJudged},
    {"deprecated", Shape::kBoolean, Shape::kNone, kJudged, kJudged},
    {"readOnly", Shape::kBoolean, Shape::kBoolean, kJudged, kJudged},
    {"writeOnly", Shape::kBoolean, Shape::kBoolean, kJudged, kJudged},
    // valijson asserts a few formats; 2020-12 makes format an annotation by default, and
    // draft-07 leaves asserting it to the implementation: fakehost does not.
    {"format", Shape::kString, Shape::kString, kStrip, kStrip},
    {"contentEncoding", Shape::kString, Shape::kString, kStrip, kStrip},
    {"contentMediaType", Shape::kString, Shape::kString, kStrip, kStrip},
    {"contentSchema", Shape::kSchema, Shape::kNone, kStrip, kStrip},
};

// Beside a $ref these change nothing in either dialect.
bool IsAnnotation(std::string_view key) {
  return key == "$comment" || key == "title" || key == "description" || key == "default" ||
         key == "examples" || key == "deprecated" || key == "readOnly" || key == "writeOnly" ||
         key == "$defs" || key == "definitions" || key == "$schema" || key == "format" ||
         key == "contentEncoding" || key == "contentMediaType";
}

const Keyword* Find(std::string_view key) {
  for (const Keyword& k : kKeywords)
    if (k.name == key) return &k;
  return nullptr;
}

bool IsTypeName(const Value& v) {
  if (!v.IsString()) return false;
  const std::string_view s = View(v);
  return s == "null" || s == "boolean" || s == "object" || s == "array" || s == "number" ||
         s == "string" || s == "integer";
}

bool IsCount(const Value& v) {
  if (v.IsUint64()) return true;
  if (!v.IsDouble()) return false;
  const double d = v.GetDouble();
  return d >= 0 && std::floor(d) == d;
}

// A copy of data (a value, or const, enum, default...) with integral numbers made integers: JSON
// Schema compares numbers by value (1.0 is an integer, and equal to 1), valijson by their type.
void CopyNormalised(const Value& in, Value* out, rapidjson::Document::AllocatorType& a) {
  if (in.IsDouble()) {
    const double d = in.GetDouble();
    if (std::floor(d) == d && std::fabs(d) < 9.0e15) {
      out->SetInt64(static_cast<std::int64_t>(d));
      return;
    }
  }
  if (in.IsArray()) {
    out->SetArray();
    for (const Value& item : in.GetArray()) {
      Value v;
      CopyNormalised(item, &v, a);
      out->PushBack(v, a);
    }
  } else if (in.IsObject()) {
    out->SetObject();
    for (const auto& m : in.GetObject()) {
      Value v;
      CopyNormalised(m.value, &v, a);
      out->AddMember(Value(m.name, a), v, a);
    }
  } else {
    out->CopyFrom(in, a);
  }
}

// Longer strings are not matched against a schema's pattern: libstdc++'s std::regex, which
// valijson uses, recurses once per character (schema.cpp's GuardPatterns has the same bound).
constexpr std::size_t kMaxPatternSubject = 4096;
// Pattern x string pairs tried with Boost before valijson runs (each bounded by Boost itself).
constexpr std::size_t kMaxPatternChecks = 20000;

// One walk of a schema: the meta-schema check (problems), the gate (the first reason it cannot
// be judged) and the copy valijson is given (annotations stripped, integral numbers as integers).
class Walker {
 public:
  Walker(const Value& root, Dialect dialect, rapidjson::Document* copy)
      : root_(root), dialect_(dialect), copy_(copy) {}

  void Schema(const Value& node, const std::string& pointer, bool live, Value* out) {
    if (live) visited_.insert(pointer);
    if (node.IsBool()) {
      if (out) out->SetBool(node.GetBool());
      return;
    }
    if (!node.IsObject()) {
      Problem(pointer, "a schema is an object or a boolean, not " + Describe(node));
      return;
    }
    if (out) out->SetObject();
    const Value* ref = json::Find(node, "$ref");
    for (const auto& m : node.GetObject()) {
      const std::string_view key = View(m.name);
      const std::string at = pointer + "/" + json::EscapePointerToken(key);
      const Keyword* k = Find(key);
      const Shape shape = k == nullptr ? Shape::kNone : Is2020() ? k->in_2020 : k->in_07;
      const Use use = k == nullptr ? kJudged : Is2020() ? k->use_2020 : k->use_07;
      if (shape == Shape::kNone) {
        // Unknown here: both dialects ignore it. Kept in the copy (a $ref may point into it),
        // unless valijson would apply it.
        if (live && out && use != kStrip) AddCopy(out, m.name, m.value);
        continue;
      }
      if (live && use == kUntested) Untested(at, "'" + std::string(key) + "'");
      if (live && key == "$id") ids_.push_back(at);
      if (live && key == "$ref" && m.value.IsString()) refs_.emplace_back(at, View(m.value));
      if (live && Is2020() && ref != nullptr && key != "$ref" && !IsAnnotation(key))
        Untested(
            at, "'" + std::string(key) + "' beside $ref (draft-07 ignores it, 2020-12 applies it)");
      if (live && key == "items" && Is2020() && m.value.IsArray()) Untested(at, "'items'");
      if (live && key == "pattern" && m.value.IsString()) patterns_.emplace_back(View(m.value));
      if (live && key == "multipleOf" && m.value.IsNumber() &&
          std::floor(m.value.GetDouble()) != m.value.GetDouble())
        divisors_.emplace_back(at, m.value.GetDouble());
      if (live && key == "patternProperties" && m.value.IsObject())
        for (const auto& p : m.value.GetObject()) patterns_.emplace_back(View(p.name));
      const bool keep = live && out && use != kStrip;
      Value child;
      Check(m.value, shape, at, keep, keep ? &child : nullptr);
      if (keep) out->AddMember(Value(m.name, Alloc()), child, Alloc());
    }
  }

  // After the walk: every $ref local, resolving to a schema the walk saw, with no $id to move
  // its base and no cycle of bare $refs (valijson would follow one forever).
  void Refs() {
    if (!refs_.empty() && !ids_.empty())
      Untested(ids_.front(), "'$id' (it changes what a $ref resolves against)");
    for (const auto& [at, ref] : refs_) {
      if (ref.empty() || ref[0] != '#' || (ref.size() > 1 && ref[1] != '/') ||
          ref.find('%') != std::string::npos) {
        Untested(at, "'$ref' to \"" + ref +
                         "\" (only a local JSON pointer is resolved; nothing is fetched)");
        continue;
      }
      std::set<std::string> seen;
      std::string target = ref.substr(1);
      for (;;) {
        if (!visited_.count(target)) {
          Untested(at, "'$ref' to \"" + ref + "\" (it does not lead to a schema keyword's value)");
          break;
        }
        if (!seen.insert(target).second) {
          Untested(at, "'$ref' cycle through \"" + ref + "\"");
          break;
        }
        const Value* node = json::Resolve(root_, target);
        const Value* next = node && node->IsObject() ? json::Find(*node, "$ref") : nullptr;
        if (!next || !next->IsString() || next->GetStringLength() == 0 ||
            next->GetString()[0] != '#')
          break;
        target = std::string(View(*next)).substr(1);
      }
    }
  }

  std::vector<Violation>& problems() { return problems_; }
  const std::string& untested() const { return untested_; }
  const std::vector<std::string>& patterns() const { return patterns_; }
  /// The fractional multipleOf divisors, with their pointers.
  const std::vector<std::pair<std::string, double>>& divisors() const { return divisors_; }

 private:
  bool Is2020() const { return dialect_ != Dialect::kDraft07; }
  rapidjson::Document::AllocatorType& Alloc() { return copy_->GetAllocator(); }

  static std::string Describe(const Value& v) {
    return std::string(json::TypeName(v)) + " " + json::Abbreviate(json::ToCompact(v), 60);
  }
  void Problem(const std::string& at, std::string what) {
    problems_.push_back({at, std::move(what)});
  }
  void Untested(const std::string& at, const std::string& what) {
    if (!untested_.empty()) return;
    untested_ = "the schema uses " + what + " at " + (at.empty() ? "(root)" : at) +
                ", which fakehost's validator (valijson, draft-07) cannot judge as " +
                (Is2020() ? "JSON Schema 2020-12" : "draft-07") + " means it";
  }

  void AddCopy(Value* out, const Value& name, const Value& value) {
    Value v;
    CopyData(value, &v);
    out->AddMember(Value(name, Alloc()), v, Alloc());
  }
  void CopyData(const Value& in, Value* out) { CopyNormalised(in, out, Alloc()); }

  // A value of the shape the meta-schema gives its keyword; `out` gets the normalised copy.
  void Check(const Value& v, Shape shape, const std::string& at, bool live, Value* out) {
    switch (shape) {
      case Shape::kNone:
      case Shape::kAny:
        break;
      case Shape::kSchema:
        Schema(v, at, live, out);
        return;
      case Shape::kSchemaOrArray:
        if (!v.IsArray()) {
          Schema(v, at, live, out);
          return;
        }
        [[fallthrough]];
      case Shape::kSchemaArray:
        if (SchemaArray(v, at, live, out)) return;
        break;
      case Shape::kSchemaMap:
      case Shape::kDependencies:
      case Shape::kStringArrayMap:
      case Shape::kBoolMap:
        if (SchemaMap(v, shape, at, live, out)) return;
        break;
      case Shape::kArray:
        if (!v.IsArray()) Problem(at, "expected an array, not " + Describe(v));
        break;
      case Shape::kType:
        TypeNames(v, at);
        break;
      case Shape::kUniqueStrings:
        UniqueStrings(v, at);
        break;
      case Shape::kCount:
        if (!IsCount(v)) Problem(at, "expected a non-negative integer, not " + Describe(v));
        break;
      case Shape::kNumber:
        if (!v.IsNumber()) Problem(at, "expected a number, not " + Describe(v));
        break;
      case Shape::kPositive:
        if (!v.IsNumber() || v.GetDouble() <= 0)
          Problem(at, "expected a number greater than 0, not " + Describe(v));
        break;
      case Shape::kBoolean:
        if (!v.IsBool()) Problem(at, "expected a boolean, not " + Describe(v));
        break;
      case Shape::kString:
        if (!v.IsString()) Problem(at, "expected a string, not " + Describe(v));
        break;
    }
    if (out) CopyData(v, out);
  }

  // A non-empty array of schemas, each checked and copied; false (with a problem) if `v` is
  // not one, and then the caller copies it as data.
  bool SchemaArray(const Value& v, const std::string& at, bool live, Value* out) {
    if (!v.IsArray() || v.Empty()) {
      Problem(at, "expected a non-empty array of schemas, not " + Describe(v));
      return false;
    }
    if (out) out->SetArray();
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
      Value child;
      Schema(v[i], at + "/" + std::to_string(i), live, out ? &child : nullptr);
      if (out) out->PushBack(child, Alloc());
    }
    return true;
  }

  // An object whose members are schemas, string arrays or booleans as `shape` says (a
  // dependency is either of the first two); false (with a problem) if `v` is no object.
  bool SchemaMap(const Value& v, Shape shape, const std::string& at, bool live, Value* out) {
    if (!v.IsObject()) {
      Problem(at, "expected an object, not " + Describe(v));
      return false;
    }
    if (out) out->SetObject();
    for (const auto& m : v.GetObject()) {
      const std::string child_at = at + "/" + json::EscapePointerToken(View(m.name));
      Value child;
      if (shape == Shape::kBoolMap) {
        if (!m.value.IsBool()) Problem(child_at, "expected a boolean");
      } else if (shape == Shape::kStringArrayMap ||
                 (shape == Shape::kDependencies && m.value.IsArray())) {
        UniqueStrings(m.value, child_at);
      } else {
        Schema(m.value, child_at, live, out ? &child : nullptr);
        if (out) out->AddMember(Value(m.name, Alloc()), child, Alloc());
        continue;
      }
      if (out) {
        CopyData(m.value, &child);
        out->AddMember(Value(m.name, Alloc()), child, Alloc());
      }
    }
    return true;
  }

  // `type`: one name, or a non-empty list of names without repeats.
  void TypeNames(const Value& v, const std::string& at) {
    if (!v.IsArray()) {
      if (!IsTypeName(v)) {
        Problem(at, "unknown type name " + json::Abbreviate(json::ToCompact(v), 60) +
                        " (null, boolean, object, array, number, string or integer)");
      }
      return;
    }
    if (v.Empty()) Problem(at, "expected at least one type name");
    std::set<std::string_view> seen;
    for (const Value& t : v.GetArray()) {
      if (!IsTypeName(t)) {
        Problem(at, "unknown type name " + json::ToCompact(t));
        return;
      }
      if (!seen.insert(View(t)).second) Problem(at, "type " + json::ToCompact(t) + " twice");
    }
  }

  void UniqueStrings(const Value& v, const std::string& at) {
    if (!v.IsArray()) {
      Problem(at, "expected an array of strings, not " + Describe(v));
      return;
    }
    std::set<std::string_view> seen;
    for (const Value& s : v.GetArray()) {
      if (!s.IsString()) {
        Problem(at, "expected an array of strings, but it holds " + Describe(s));
        return;
      }
      if (!seen.insert(View(s)).second) {
        Problem(at, "expected unique strings, but " + json::ToCompact(s) + " is there twice");
        return;
      }
    }
  }

  const Value& root_;
  Dialect dialect_;
  rapidjson::Document* copy_;
  std::vector<Violation> problems_;
  std::string untested_;
  std::set<std::string> visited_;
  std::vector<std::string> ids_;
  std::vector<std::pair<std::string, std::string>> refs_;
  std::vector<std::string> patterns_;
  std::vector<std::pair<std::string, double>> divisors_;
};

// The largest magnitude among the numbers of `value`.
double LargestNumber(const Value& value) {
  double largest = 0;
  if (value.IsNumber()) {
    largest = std::fabs(value.GetDouble());
  } else if (value.IsArray()) {
    for (const Value& item : value.GetArray()) largest = std::max(largest, LargestNumber(item));
  } else if (value.IsObject()) {
    for (const auto& m : value.GetObject()) largest = std::max(largest, LargestNumber(m.value));
  }
  return largest;
}

// Every string of `value` (and every member name: patternProperties and propertyNames match
// them), for the pattern pre-check.
void Strings(const Value& value, std::vector<std::string_view>* out) {
  if (value.IsString()) {
    out->push_back(View(value));
  } else if (value.IsArray()) {
    for (const Value& item : value.GetArray()) Strings(item, out);
  } else if (value.IsObject()) {
    for (const auto& m : value.GetObject()) {
      out->push_back(View(m.name));
      Strings(m.value, out);
    }
  }
}

// valijson matches patterns with std::regex, which recurses per character and backtracks
// without bound; a plugin sends both the pattern and the strings. So every pattern must compile
// for std::regex, and each string it may meet must be short and settled by Boost's bounded
// matcher first. "" when that holds, else why not.
std::string UnsafePatterns(const std::vector<std::string>& patterns, const Value& value) {
  if (patterns.empty()) return {};
  std::vector<std::string_view> subjects;
  Strings(value, &subjects);
  if (patterns.size() * subjects.size() > kMaxPatternChecks)
    return "the value has too many strings to match against the schema's patterns";
  for (const std::string& pattern : patterns) {
    try {
      std::regex compiled(pattern);
      boost::regex bounded(pattern, boost::regex::ECMAScript);
      for (std::string_view s : subjects) {
        if (s.size() > kMaxPatternSubject)
          return "a string of " + std::to_string(s.size()) + " bytes meets the pattern \"" +
                 json::Abbreviate(pattern, 60) + "\" (fakehost matches at most " +
                 std::to_string(kMaxPatternSubject) + ")";
        (void)boost::regex_search(s.begin(), s.end(), bounded);
      }
    } catch (const std::exception& e) {
      return "the pattern \"" + json::Abbreviate(pattern, 60) +
             "\" cannot be matched by fakehost's regex engines (" + e.what() + ")";
    }
  }
  return {};
}

valijson::Validator& ThreadValidator() {
  thread_local valijson::Validator validator(valijson::Validator::kStrongTypes);
  return validator;
}

SuppliedVerdict Untested(std::string why) {
  SuppliedVerdict v;
  v.judgement = Judgement::kUntested;
  v.untested = std::move(why);
  return v;
}

}  // namespace
}  // namespace fakehost::schema::supplied

namespace fakehost::schema {

Dialect DialectOf(const rapidjson::Value& schema, std::string* declared) {
  if (declared) declared->clear();
  const rapidjson::Value* uri = schema.IsObject() ? json::Find(schema, "$schema") : nullptr;
  if (uri == nullptr) return Dialect::k2020_12;
  if (!uri->IsString()) return Dialect::kUnknown;
  std::string text(json::View(*uri));
  if (declared) *declared = text;
  if (!text.empty() && text.back() == '#') text.pop_back();
  if (text.rfind("https://", 0) == 0) text.erase(4, 1);  // the scheme is not what names it
  if (text == "http://json-schema.org/draft/2020-12/schema") return Dialect::k2020_12;
  if (text == "http://json-schema.org/draft-07/schema") return Dialect::kDraft07;
  return Dialect::kUnknown;
}

SuppliedVerdict CheckSuppliedSchema(const rapidjson::Value& schema) {
  std::string declared;
  const Dialect dialect = DialectOf(schema, &declared);
  if (dialect == Dialect::kUnknown && schema.IsObject() &&
      !json::Find(schema, "$schema")->IsString()) {
    SuppliedVerdict v;
    v.judgement = Judgement::kFails;
    v.problems.push_back({"/$schema", "expected a string"});
    return v;
  }
  if (dialect == Dialect::kUnknown)
    return supplied::Untested("the schema declares $schema \"" + json::Abbreviate(declared, 80) +
                              "\", a dialect fakehost does not judge (2020-12 and draft-07)");
  supplied::Walker walker(schema, dialect, nullptr);
  walker.Schema(schema, "", false, nullptr);
  SuppliedVerdict v;
  if (!walker.problems().empty()) {
    v.judgement = Judgement::kFails;
    v.problems = std::move(walker.problems());
  }
  return v;
}

SuppliedVerdict CheckConformance(const rapidjson::Value& schema, const rapidjson::Value& value) {
  SuppliedVerdict validity = CheckSuppliedSchema(schema);
  if (validity.judgement == Judgement::kUntested) return validity;
  if (validity.judgement == Judgement::kFails)
    return supplied::Untested(
        "the schema is not a valid JSON Schema (" + validity.problems.front().pointer + ": " +
        validity.problems.front().message + "), so nothing can be said to conform to it");
  rapidjson::Document copy;
  supplied::Walker walker(schema, DialectOf(schema, nullptr), &copy);
  walker.Schema(schema, "", true, &copy);
  walker.Refs();
  if (!walker.untested().empty()) return supplied::Untested(walker.untested());
  if (std::string why = supplied::UnsafePatterns(walker.patterns(), value); !why.empty())
    return supplied::Untested(why);
  // valijson divides in doubles: past 2^53 quotients a fractional multipleOf is misjudged
  // (the suite's "any integer is a multiple of 1e-8" on 1e308).
  for (const auto& [at, divisor] : walker.divisors()) {
    const double largest = supplied::LargestNumber(value);
    if (largest / divisor > 9.0e15)
      return supplied::Untested(
          "the schema's multipleOf " + json::ToCompact(rapidjson::Value(divisor)) + " at " + at +
          " meets a number as large as " + json::ToCompact(rapidjson::Value(largest)) +
          ", beyond what fakehost's validator divides exactly");
  }

  rapidjson::Document instance;
  supplied::CopyNormalised(value, &instance, instance.GetAllocator());

  valijson::Schema compiled;
  try {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    parser.populateSchema(valijson::adapters::RapidJsonAdapter(copy), compiled);
  } catch (const std::exception& e) {
    return supplied::Untested(std::string("valijson could not read the schema: ") + e.what());
  }
  valijson::Validator& validator = supplied::ThreadValidator();
  const valijson::adapters::RapidJsonAdapter adapted(instance);
  SuppliedVerdict v;
  try {
    if (validator.validate(compiled, adapted, nullptr)) return v;
    valijson::ValidationResults results;
    validator.validate(compiled, adapted, &results);
    std::vector<RawError> errors;
    for (const auto& e : results) errors.push_back({e.context, e.description});
    v.problems = TargetViolations(errors, instance);
  } catch (const std::exception& e) {
    return supplied::Untested(std::string("valijson could not apply the schema: ") + e.what());
  }
  if (v.problems.empty()) v.problems.push_back({"", "the value does not conform to the schema"});
  v.judgement = Judgement::kFails;
  return v;
}

}  // namespace fakehost::schema
