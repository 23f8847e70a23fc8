// Names, type tests and the wording of matcher messages.
#include <cstring>
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

// Over 60 lines: one short case per matcher operator, each worded for its own miss.
std::string DescribeNode(const rapidjson::Value& node) {
  std::vector<std::string_view> types;
  const rapidjson::Value *min_length = nullptr, *max_length = nullptr;
  bool wants_string = false, wants_number = false, wants_array = false, has_length = false;
  for (const auto& m : node.GetObject()) {
    const Op op = OpOf(View(m.name));
    if (op == Op::kType) {
      if (m.value.IsString()) types.push_back(View(m.value));
      if (m.value.IsArray()) {
        for (const auto& t : m.value.GetArray()) {
          if (t.IsString()) types.push_back(View(t));
        }
      }
    }
    wants_string |= op == Op::kRegex;
    wants_number |= op == Op::kMin || op == Op::kMax;
    wants_array |= op == Op::kEach || op == Op::kUnique;
    has_length |= op == Op::kMinLength || op == Op::kMaxLength || op == Op::kLen;
    if (op == Op::kMinLength && m.value.IsUint64()) min_length = &m.value;
    if (op == Op::kMaxLength && m.value.IsUint64()) max_length = &m.value;
  }
  std::string noun;
  const char* unit = "";
  if (!types.empty()) {
    std::vector<std::string> nouns;
    for (std::string_view t : types) nouns.emplace_back(Noun(t));
    noun = Join(nouns, " or ");
    if (types.size() == 1) {
      unit = types[0] == "string"   ? "byte"
             : types[0] == "array"  ? "element"
             : types[0] == "object" ? "member"
                                    : "";
    }
  } else if (wants_string) {
    noun = "a string", unit = "byte";
  } else if (wants_number) {
    noun = "a number";
  } else if (wants_array) {
    noun = "an array", unit = "element";
  } else if (has_length) {
    noun = "a value";
  }
  const char* length_word = *unit == '\0' ? "length " : "";
  std::vector<std::string> quals, others;
  if (min_length != nullptr && max_length != nullptr) {
    quals.push_back(std::string("of ") + length_word + std::to_string(min_length->GetUint64()) +
                    " to " + Count(max_length->GetUint64(), unit));
  }
  for (const auto& m : node.GetObject()) {
    const rapidjson::Value& arg = m.value;
    switch (OpOf(View(m.name))) {
      case Op::kType:
        break;
      case Op::kMinLength:
      case Op::kMaxLength:
        if (min_length != nullptr && max_length != nullptr) break;
        if (!arg.IsUint64()) break;
        quals.push_back(std::string("of ") + length_word +
                        (OpOf(View(m.name)) == Op::kMinLength ? "at least " : "at most ") +
                        Count(arg.GetUint64(), unit));
        break;
      case Op::kLen:
        if (arg.IsUint64()) {
          quals.push_back(std::string("of ") + length_word + "exactly " +
                          Count(arg.GetUint64(), unit));
        }
        break;
      case Op::kMin:
        quals.push_back(">= " + Compact(arg));
        break;
      case Op::kMax:
        quals.push_back("<= " + Compact(arg));
        break;
      case Op::kRegex:
        quals.push_back("matching /" + (arg.IsString() ? std::string(View(arg)) : Compact(arg)) +
                        "/");
        break;
      case Op::kContains:
        quals.push_back(arg.IsString() ? "containing " + Compact(arg)
                                       : "containing an element that is " + DescribePattern(arg));
        break;
      case Op::kEach:
        quals.push_back("whose every element is " + DescribePattern(arg));
        break;
      case Op::kEquals:
        others.push_back("equal to " + Compact(arg));
        break;
      case Op::kUnique:
        quals.push_back(arg.IsString() && arg.GetStringLength() > 0
                            ? "whose elements differ at " + std::string(View(arg))
                            : std::string("whose elements all differ"));
        break;
      case Op::kOneOf: {
        std::vector<std::string> alternatives;
        if (arg.IsArray()) {
          for (const auto& alt : arg.GetArray()) alternatives.push_back(DescribePattern(alt));
        }
        others.push_back("one of (" + Join(alternatives, " | ") + ")");
        break;
      }
      case Op::kNot:
        others.push_back("not " + DescribePattern(arg));
        break;
      case Op::kAbsent:
        others.emplace_back(arg.IsFalse() ? "a value (present)" : "nothing (absent)");
        break;
      case Op::kAny:
        others.emplace_back("any value");
        break;
      case Op::kJsonSchema:
        others.emplace_back("a valid JSON Schema");
        break;
      case Op::kConforms:
        others.emplace_back("a value conforming to its schema");
        break;
      case Op::kUnknown:
        others.push_back("a valid pattern (unknown operator " + std::string(View(m.name)) + ")");
        break;
    }
  }
  if (noun.empty() && !quals.empty()) noun = "a value";
  std::string out = noun;
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
