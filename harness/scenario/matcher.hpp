// Matchers: does a JSON value the plugin sent fit a pattern written in a scenario?
//
// Semantics (docs/ARCHITECTURE.md "Matchers"): objects match as subsets (members the pattern does
// not name are ignored), arrays exactly (same length, element by element, each element a pattern),
// scalars by JSON type and value: 1 is not 1.0, not true, not "1". An object whose keys all start
// with '$' is an operator node; all its operators must hold:
//   $type        a type name or a list of them: null boolean integer number string array object
//                ("number" also accepts integers)
//   $one_of      a list of patterns, any of which matches
//   $absent      true: the member must not exist (false: it must); meaningful as a member pattern
//   $any         true: present, with any value
//   $regex       ECMAScript, searched anywhere in a string (anchor it with ^...$ for a full match)
//   $min $max    numbers, inclusive
//   $min_length $max_length $len   UTF-8 bytes of a string, elements of an array, members of an
//                object
//   $each        a pattern every array element must match
//   $contains    array: some element matches the pattern; string: a substring
//   $not         a pattern that must not match (an absent member is "not" anything but $absent)
//   $equals      a JSON value the value equals exactly (type and value, arrays in order, objects
//                member for member), never read as a pattern: "${list.result.tools}" compares
//                with what an earlier frame held
//   $unique      a JSON pointer: the array's elements differ at it ("/name"; "": the elements
//                themselves, as JSON values); an element without it is not compared
//   $json_schema true: a valid JSON Schema of its dialect (schema/supplied.hpp)
//   $conforms    {schema: S}, or {schema_in: LIST, where: PATTERN, at: "/pointer"} (the value at
//                `at` in the first item of LIST matching PATTERN): the value conforms to S
//
// The last two may be unable to judge (a 2020-12 keyword fakehost's validator does not
// implement, say): the operator then holds, and Match appends to `untested` why, so that the
// caller can make the result untested rather than passed. Inside $one_of and $contains a certain
// match wins over such an uncertain one; $not of an uncertain match holds, uncertain too.
//
// Patterns are checked when a scenario loads (CheckPattern), so Match treats a malformed node
// (possible only after a ${...} substitution) as a mismatch that says so, never as a crash.
// Match allocates only to describe mismatches; compiled regexes are cached per thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "harness/json/rapidjson.hpp"

namespace fakehost::scenario {

/// One difference, worded for a plugin author: "/result/accepted: expected false, got true".
struct Mismatch {
  std::string pointer;   ///< RFC 6901 pointer to the value that differs ("" = the value itself)
  std::string expected;  ///< e.g. "a string of at least 1 byte", "integer 1"
  std::string actual;    ///< e.g. "null", "string \"1\"", "nothing (absent)"
  std::string ToString() const;  ///< "pointer: expected X, got Y" (no "pointer: " for "")
};

/// Bounds every match on this thread while it lives: once `deadline` passes (checked every
/// 1,024 values visited), a match stops and fails with a mismatch saying so. The player sets the
/// scenario's hard limit, so no frame, however large or however its pattern multiplies the work,
/// keeps a scenario past it.
class MatchDeadline {
 public:
  explicit MatchDeadline(std::chrono::steady_clock::time_point deadline);
  ~MatchDeadline();
  MatchDeadline(const MatchDeadline&) = delete;
  MatchDeadline& operator=(const MatchDeadline&) = delete;
  /// Whether a match under this deadline was stopped by it.
  static bool Passed();

 private:
  std::chrono::steady_clock::time_point previous_;
};

/// Collection stops after this many mismatches (the match result is still exact).
inline constexpr std::size_t kMaxMismatches = 10;

/// True if `actual` (nullptr: absent) matches `pattern`. Mismatches are appended to `out` when
/// it is not null; their pointers start with `base` (e.g. "/result" when matching a result).
bool Match(const rapidjson::Value& pattern, const rapidjson::Value* actual,
           std::vector<Mismatch>* out);
bool Match(const rapidjson::Value& pattern, const rapidjson::Value* actual,
           std::vector<Mismatch>* out, std::string_view base);
/// The same; `untested` (may be null) gets "pointer: why" for each check an operator could not
/// judge. A true result with notes means "matches, if what could not be judged holds".
bool Match(const rapidjson::Value& pattern, const rapidjson::Value* actual,
           std::vector<Mismatch>* out, std::string_view base, std::vector<std::string>* untested);

/// A problem in a pattern, found before anything runs. `pointer` is relative to the pattern;
/// `at_key` says the problem is the key (an unknown operator) rather than its value.
struct PatternError {
  std::string pointer;
  bool at_key = false;
  std::string message;
};

/// Load-time validation: unknown operators, $-keys mixed with member keys, operator arguments
/// of the wrong shape, regexes that do not compile. Strings holding ${...} are taken on trust
/// (they are only known when the step runs). Appends every problem; true if there was none.
bool CheckPattern(const rapidjson::Value& pattern, std::vector<PatternError>* errors);

/// True for an object with at least one member whose key starts with '$'.
bool IsOperatorNode(const rapidjson::Value& value);

/// Describes a value for messages: "null", "integer 1", "string \"1\"", "nothing (absent)"
/// for nullptr; long values are abbreviated.
std::string DescribeValue(const rapidjson::Value* value);

}  // namespace fakehost::scenario
