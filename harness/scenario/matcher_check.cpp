// Load-time validation of patterns (CheckPattern).
#include "harness/scenario/matcher.hpp"
#include "harness/scenario/matcher_internal.hpp"
#include "harness/scenario/regex.hpp"
#include "harness/scenario/template.hpp"

namespace fakehost::scenario {
namespace {

using internal::Op;
using internal::View;

class Checker {
 public:
  explicit Checker(std::vector<PatternError>* errors) : errors_(errors) {}

  void Pattern(const rapidjson::Value& pattern, const std::string& pointer) {
    if (pattern.IsArray()) {
      for (rapidjson::SizeType i = 0; i < pattern.Size(); ++i) {
        Pattern(pattern[i], pointer + "/" + std::to_string(i));
      }
    } else if (IsOperatorNode(pattern)) {
      Operators(pattern, pointer);
    } else if (pattern.IsObject()) {
      for (const auto& m : pattern.GetObject()) {
        Pattern(m.value, Child(pointer, m.name));
      }
    }
  }

 private:
  static std::string Child(const std::string& pointer, const rapidjson::Value& key) {
    return pointer + "/" + internal::EscapeToken(View(key));
  }
  void Add(std::string pointer, bool at_key, std::string message) {
    errors_->push_back({std::move(pointer), at_key, std::move(message)});
  }
  // A ${...} string stands for a value known only when the step runs.
  static bool Deferred(const rapidjson::Value& arg) {
    return arg.IsString() && HasVariables(View(arg));
  }

  void Operators(const rapidjson::Value& node, const std::string& pointer) {
    for (const auto& m : node.GetObject()) {
      const std::string_view key = View(m.name);
      const std::string at = Child(pointer, m.name);
      if (key.empty() || key[0] != '$') {
        Add(at, true,
            "member key '" + std::string(key) +
                "' in an object of matcher operators: an object is either all operators "
                "($...) or all members");
        return;  // one message per mixed object is enough
      }
    }
    for (const auto& m : node.GetObject()) {
      const std::string_view key = View(m.name);
      const std::string at = Child(pointer, m.name);
      const Op op = internal::OpOf(key);
      if (op == Op::kUnknown) {
        Add(at, true,
            "unknown matcher operator '" + std::string(key) +
                "' (known: " + internal::KnownOperators() + ")");
        continue;
      }
      if (!Deferred(m.value)) Argument(op, key, m.value, at);
    }
  }

  void Argument(Op op, std::string_view key, const rapidjson::Value& arg, const std::string& at) {
    const std::string name(key);
    switch (op) {
      case Op::kType:
        TypeArgument(arg, at);
        break;
      case Op::kOneOf:
        if (!arg.IsArray() || arg.Empty()) {
          Add(at, false, "$one_of takes a non-empty list of patterns");
        } else {
          Pattern(arg, at);
        }
        break;
      case Op::kAbsent:
        if (!arg.IsBool()) Add(at, false, "$absent takes true or false");
        break;
      case Op::kAny:
        if (!arg.IsTrue())
          Add(at, false, "$any takes true (use $absent: true for a missing member)");
        break;
      case Op::kRegex:
        RegexArgument(arg, at);
        break;
      case Op::kMin:
      case Op::kMax:
        if (!arg.IsNumber()) Add(at, false, name + " takes a number");
        break;
      case Op::kMinLength:
      case Op::kMaxLength:
      case Op::kLen:
        if (!arg.IsUint64()) Add(at, false, name + " takes a non-negative integer");
        break;
      case Op::kEach:
      case Op::kContains:
      case Op::kNot:
        Pattern(arg, at);
        break;
      case Op::kEquals:
        break;  // any JSON value, compared as it is (never read as a pattern)
      case Op::kUnique:
        UniqueArgument(arg, at);
        break;
      case Op::kJsonSchema:
        if (!arg.IsTrue()) Add(at, false, "$json_schema takes true");
        break;
      case Op::kConforms:
        Conforms(arg, at);
        break;
      case Op::kUnknown:
        break;
    }
  }

  void TypeArgument(const rapidjson::Value& arg, const std::string& at) {
    if (arg.IsString()) {
      TypeName(arg, at);
    } else if (arg.IsArray() && !arg.Empty()) {
      for (rapidjson::SizeType i = 0; i < arg.Size(); ++i) {
        TypeName(arg[i], at + "/" + std::to_string(i));
      }
    } else {
      Add(at, false, "$type takes a type name or a non-empty list of them");
    }
  }

  void RegexArgument(const rapidjson::Value& arg, const std::string& at) {
    std::string error;
    if (!arg.IsString()) {
      Add(at, false, "$regex takes a string");
    } else if (!CheckRegex(View(arg), &error)) {
      Add(at, false, "bad regular expression /" + std::string(View(arg)) + "/: " + error);
    }
  }

  void UniqueArgument(const rapidjson::Value& arg, const std::string& at) {
    if (Deferred(arg)) return;
    if (!arg.IsString() || (arg.GetStringLength() > 0 && arg.GetString()[0] != '/'))
      Add(at, false,
          "$unique takes a JSON pointer into each element (\"/name\"; \"\": the "
          "elements themselves)");
  }

  // {schema: S}, or {schema_in: LIST, where: PATTERN, at: "/pointer"} (where and at optional).
  void Conforms(const rapidjson::Value& arg, const std::string& at) {
    const char* usage =
        "$conforms takes {schema: SCHEMA} or {schema_in: LIST, where: PATTERN, at: "
        "\"/pointer\"}";
    if (!arg.IsObject()) return Add(at, false, usage);
    const bool direct = arg.HasMember("schema"), in_list = arg.HasMember("schema_in");
    if (direct == in_list) return Add(at, false, usage);
    for (const auto& m : arg.GetObject()) {
      const std::string_view key = View(m.name);
      const std::string child = Child(at, m.name);
      if (key == "where" && in_list) {
        Pattern(m.value, child);
      } else if (key == "at" && in_list) {
        if (Deferred(m.value)) continue;
        if (!m.value.IsString() || (m.value.GetStringLength() > 0 && m.value.GetString()[0] != '/'))
          Add(child, false, "at takes a JSON pointer (\"\" or \"/member/...\")");
      } else if (key != "schema" && key != "schema_in") {
        Add(child, true, "unknown member '" + std::string(key) + "' of $conforms (" + usage + ")");
      }
    }
  }

  void TypeName(const rapidjson::Value& name, const std::string& at) {
    if (name.IsString() && HasVariables(View(name))) return;
    if (!name.IsString() || !internal::IsTypeName(View(name))) {
      Add(at, false,
          "unknown type " + internal::Compact(name) +
              " for $type (use null, boolean, integer, number, string, array or object)");
    }
  }

  std::vector<PatternError>* errors_;
};

}  // namespace

bool CheckPattern(const rapidjson::Value& pattern, std::vector<PatternError>* errors) {
  const std::size_t before = errors->size();
  Checker checker(errors);
  checker.Pattern(pattern, "");
  return errors->size() == before;
}

}  // namespace fakehost::scenario
