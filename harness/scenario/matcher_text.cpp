// Names, type tests and the wording of matcher messages.
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "harness/json/json.hpp"
#include "harness/scenario/matcher.hpp"
#include "harness/scenario/matcher_internal.hpp"

namespace fakehost::scenario {
namespace internal {
namespace {

struct OpName {
  std::string_view name;
  Op op;
};
constexpr OpName kOps[] = {
    {"$type", Op::kType},
    {"$one_of", Op::kOneOf},
    {"$absent", Op::kAbsent},
    {"$any", Op::kAny},
    {"$regex", Op::kRegex},
    {"$min", Op::kMin},
    {"$max", Op::kMax},
    {"$min_length", Op::kMinLength},
    {"$max_length", Op::kMaxLength},
    {"$len", Op::kLen},
    {"$each", Op::kEach},
    {"$contains", Op::kContains},
    {"$not", Op::kNot},
    {"$unique", Op::kUnique},
    {"$equals", Op::kEquals},
    {"$json_schema", Op::kJsonSchema},
    {"$conforms", Op::kConforms},
};

std::string Join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (const std::string& part : parts) {
    if (!out.empty()) out += sep;
    out += part;
  }
  return out;
}

const char* Noun(std::string_view type) {
  if (type == "null") return "null";
  if (type == "boolean") return "a boolean";
  if (type == "integer") return "an integer";
  if (type == "number") return "a number";
  if (type == "string") return "a string";
  if (type == "array") return "an array";
  if (type == "object") return "an object";
  return "a value";
}

std::string Count(std::uint64_t n, const char* unit) {
  std::string out = std::to_string(n);
  if (*unit == '\0') return out;
  out += ' ';
  out += unit;
  if (n != 1) out += 's';
  return out;
}

}  // namespace

Op OpOf(std::string_view key) {
  for (const OpName& entry : kOps) {
    if (entry.name == key) return entry.op;
  }
  return Op::kUnknown;
}

const char* KnownOperators() {
  return "$type, $one_of, $absent, $any, $regex, $min, $max, $min_length, $max_length, $len, "
         "$each, $contains, $not, $unique, $equals, $json_schema, $conforms";
}

std::string EscapeToken(std::string_view token) { return json::EscapePointerToken(token); }

bool IsIntegral(const rapidjson::Value& value) { return value.IsInt64() || value.IsUint64(); }

const char* TypeOf(const rapidjson::Value& value) { return json::TypeName(value); }

bool IsTypeName(std::string_view name) {
  return name == "null" || name == "boolean" || name == "integer" || name == "number" ||
         name == "string" || name == "array" || name == "object";
}

bool HasType(std::string_view name, const rapidjson::Value& value) {
  if (name == "number") return value.IsNumber();
  return name == TypeOf(value);
}

std::string Compact(const rapidjson::Value& value, std::size_t max) {
  return json::Abbreviate(json::ToCompact(value), max);
}

std::string DescribePattern(const rapidjson::Value& pattern) {
  if (IsOperatorNode(pattern)) return DescribeNode(pattern);
  if (pattern.IsObject()) return "an object like " + Compact(pattern);
  return Compact(pattern);
}

namespace {

// What a node's operators say of the kind of value it wants, read before any is worded.
struct NodeShape {
  std::vector<std::string_view> types;  // $type's names
  const rapidjson::Value* min_length = nullptr;
  const rapidjson::Value* max_length = nullptr;
  bool wants_string = false;  // $regex
  bool wants_number = false;  // $min, $max
  bool wants_array = false;   // $each, $unique
  bool has_length = false;    // $min_length, $max_length, $len
};

NodeShape ShapeOf(const rapidjson::Value& node) {
  NodeShape shape;
  for (const auto& m : node.GetObject()) {
    const Op op = OpOf(View(m.name));
    if (op == Op::kType) {
      if (m.value.IsString()) shape.types.push_back(View(m.value));
      if (m.value.IsArray()) {
        for (const auto& t : m.value.GetArray()) {
          if (t.IsString()) shape.types.push_back(View(t));
        }
      }
    }
    shape.wants_string |= op == Op::kRegex;
    shape.wants_number |= op == Op::kMin || op == Op::kMax;
    shape.wants_array |= op == Op::kEach || op == Op::kUnique;
    shape.has_length |= op == Op::kMinLength || op == Op::kMaxLength || op == Op::kLen;
    if (op == Op::kMinLength && m.value.IsUint64()) shape.min_length = &m.value;
    if (op == Op::kMaxLength && m.value.IsUint64()) shape.max_length = &m.value;
  }
  return shape;
}

// The phrase's subject ("a string"), and the unit its length is counted in ("byte"), if one.
struct Subject {
  std::string noun;
  const char* unit = "";
};

Subject SubjectOf(const NodeShape& shape) {
  if (!shape.types.empty()) {
    std::vector<std::string> nouns;
    for (std::string_view t : shape.types) nouns.emplace_back(Noun(t));
    Subject subject{Join(nouns, " or "), ""};
    if (shape.types.size() == 1) {
      const std::string_view only = shape.types[0];
      subject.unit = only == "string"   ? "byte"
                     : only == "array"  ? "element"
                     : only == "object" ? "member"
                                        : "";
    }
    return subject;
  }
  if (shape.wants_string) return {"a string", "byte"};
  if (shape.wants_number) return {"a number", ""};
  if (shape.wants_array) return {"an array", "element"};
  if (shape.has_length) return {"a value", ""};
  return {};
}

// "of " and, when no unit names what is counted, "length ": "of length 3", "of 3 bytes".
std::string LengthOf(const char* unit) {
  return std::string("of ") + (*unit == '\0' ? "length " : "");
}

// A phrase that narrows the subject (">= 1", "of at most 3 bytes"), or "" if `op` gives none.
// With both $min_length and $max_length the node gets one range instead (DescribeNode).
std::string Qualifier(Op op, const rapidjson::Value& arg, const NodeShape& shape,
                      const char* unit) {
  switch (op) {
    case Op::kMinLength:
    case Op::kMaxLength:
      if ((shape.min_length != nullptr && shape.max_length != nullptr) || !arg.IsUint64())
        return "";
      return LengthOf(unit) + (op == Op::kMinLength ? "at least " : "at most ") +
             Count(arg.GetUint64(), unit);
    case Op::kLen:
      return arg.IsUint64() ? LengthOf(unit) + "exactly " + Count(arg.GetUint64(), unit) : "";
    case Op::kMin:
      return ">= " + Compact(arg);
    case Op::kMax:
      return "<= " + Compact(arg);
    case Op::kRegex:
      return "matching /" + (arg.IsString() ? std::string(View(arg)) : Compact(arg)) + "/";
    case Op::kContains:
      return arg.IsString() ? "containing " + Compact(arg)
                            : "containing an element that is " + DescribePattern(arg);
    case Op::kEach:
      return "whose every element is " + DescribePattern(arg);
    case Op::kUnique:
      return arg.IsString() && arg.GetStringLength() > 0
                 ? "whose elements differ at " + std::string(View(arg))
                 : std::string("whose elements all differ");
    default:
      return "";
  }
}

// A condition beside the subject ("equal to 3", "not null"), or "" if `op` states none.
std::string Condition(Op op, std::string_view name, const rapidjson::Value& arg) {
  switch (op) {
    case Op::kEquals:
      return "equal to " + Compact(arg);
    case Op::kOneOf: {
      std::vector<std::string> alternatives;
      if (arg.IsArray()) {
        for (const auto& alt : arg.GetArray()) alternatives.push_back(DescribePattern(alt));
      }
      return "one of (" + Join(alternatives, " | ") + ")";
    }
    case Op::kNot:
      return "not " + DescribePattern(arg);
    case Op::kAbsent:
      return arg.IsFalse() ? "a value (present)" : "nothing (absent)";
    case Op::kAny:
      return "any value";
    case Op::kJsonSchema:
      return "a valid JSON Schema";
    case Op::kConforms:
      return "a value conforming to its schema";
    case Op::kUnknown:
      return "a valid pattern (unknown operator " + std::string(name) + ")";
    default:
      return "";
  }
}

}  // namespace

// The subject, then what narrows it, then what else the value must be, each in the order the
// node gives its operators.
std::string DescribeNode(const rapidjson::Value& node) {
  const NodeShape shape = ShapeOf(node);
  Subject subject = SubjectOf(shape);
  std::vector<std::string> quals, others;
  if (shape.min_length != nullptr && shape.max_length != nullptr) {
    quals.push_back(LengthOf(subject.unit) + std::to_string(shape.min_length->GetUint64()) +
                    " to " + Count(shape.max_length->GetUint64(), subject.unit));
  }
  for (const auto& m : node.GetObject()) {
    const Op op = OpOf(View(m.name));
    if (std::string q = Qualifier(op, m.value, shape, subject.unit); !q.empty())
      quals.push_back(std::move(q));
    if (std::string c = Condition(op, View(m.name), m.value); !c.empty())
      others.push_back(std::move(c));
  }
  if (subject.noun.empty() && !quals.empty()) subject.noun = "a value";
  std::string out = subject.noun;
  if (!quals.empty()) out += " " + Join(quals, " and ");
  if (!others.empty()) out += (out.empty() ? "" : " and ") + Join(others, " and ");
  return out;
}

}  // namespace internal

bool IsOperatorNode(const rapidjson::Value& value) {
  if (!value.IsObject()) return false;
  for (const auto& m : value.GetObject()) {
    if (m.name.GetStringLength() > 0 && m.name.GetString()[0] == '$') return true;
  }
  return false;
}

std::string DescribeValue(const rapidjson::Value* value) {
  if (value == nullptr) return "nothing (absent)";
  if (value->IsNull()) return "null";
  return std::string(internal::TypeOf(*value)) + " " + internal::Compact(*value);
}

std::string Mismatch::ToString() const {
  std::string out = pointer;
  if (!out.empty()) out += ": ";
  return out + "expected " + expected + ", got " + actual;
}

}  // namespace fakehost::scenario
