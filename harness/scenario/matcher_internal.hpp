// Pieces shared by the matcher, its load-time checker and its messages. Not a public interface.
#pragma once

#include <string>
#include <string_view>

#include "harness/json/rapidjson.hpp"

namespace fakehost::scenario::internal {

enum class Op {
  kType,
  kOneOf,
  kAbsent,
  kAny,
  kRegex,
  kMin,
  kMax,
  kMinLength,
  kMaxLength,
  kLen,
  kEach,
  kContains,
  kNot,
  kUnique,
  kEquals,
  kJsonSchema,
  kConforms,
  kUnknown,
};

Op OpOf(std::string_view key);
/// "$type, $one_of, ..." for messages about unknown operators.
const char* KnownOperators();

inline std::string_view View(const rapidjson::Value& string) {
  return {string.GetString(), string.GetStringLength()};
}

/// RFC 6901 token escaping ("~" -> "~0", "/" -> "~1").
std::string EscapeToken(std::string_view token);

/// "null" "boolean" "integer" "number" "string" "array" "object". Integer: any value RapidJSON
/// holds as an int64 or uint64 (1.0 is a number).
const char* TypeOf(const rapidjson::Value& value);
bool IsIntegral(const rapidjson::Value& value);
bool IsTypeName(std::string_view name);
/// Does `value` have the type `name`? "number" accepts integers too.
bool HasType(std::string_view name, const rapidjson::Value& value);

/// Compact JSON, abbreviated to about `max` bytes (cut on a UTF-8 boundary).
std::string Compact(const rapidjson::Value& value, std::size_t max = 120);

/// What an operator node asks for, as a phrase: "a string of at least 1 byte".
std::string DescribeNode(const rapidjson::Value& node);
/// A pattern in a phrase: an operator node as above, a literal as compact JSON.
std::string DescribePattern(const rapidjson::Value& pattern);

}  // namespace fakehost::scenario::internal
