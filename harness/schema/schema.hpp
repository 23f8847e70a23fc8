// Frame schemas: one draft-07 JSON Schema document per protocol, whose "$defs" entries are whole
// frames (envelope included), validated with valijson.
//
// Entry names are the router's contract: "<method>.request", "<method>.notification",
// "<method>.response" (the answer to that method, result and error branches), and the fallbacks
// "envelope.request", "envelope.notification", "envelope.response". RouteDef() picks one.
//
// Loading refuses what valijson would get silently wrong: bad JSON or duplicate keys, a $ref that
// does not resolve (or is remote), keywords valijson ignores (unevaluatedProperties, prefixItems,
// format, $id, ...), keywords beside a $ref (draft-07 ignores them), then/else without if. Only
// the supported draft-07 keywords and the annotations $comment, title, description, examples,
// default and x-* are accepted; every error names the JSON pointer of the offending keyword.
//
// A FrameSchema is immutable once loaded; Validate() is const and safe to call from many threads
// at once (each thread uses its own valijson::Validator, which caches compiled regexes).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "harness/json/rapidjson.hpp"

namespace fakehost::schema {

/// One offending value: its RFC 6901 pointer in the frame ("" is the whole frame) and what is
/// wrong with it. A value that breaks several rules gets one Violation with the messages joined.
struct Violation {
  std::string pointer;
  std::string message;
  /// When all that is wrong at `pointer` is required members missing: their names (`message`
  /// says the same), for a reader that names each by its own pointer. Empty otherwise.
  std::vector<std::string> missing = {};
};

enum class FrameKind { kRequest, kNotification, kResponse };
std::string_view KindName(FrameKind kind);  ///< "request", "notification", "response"

class FrameSchema {
 public:
  ~FrameSchema();
  FrameSchema(const FrameSchema&) = delete;
  FrameSchema& operator=(const FrameSchema&) = delete;

  /// Reads and loads a schema file. On failure returns nullptr and sets *error to
  /// "<path>: <pointer or line:col>: <what>".
  static std::unique_ptr<FrameSchema> Load(const std::string& path, std::string* error);
  /// The same for a schema held in memory (errors start with the pointer).
  static std::unique_ptr<FrameSchema> LoadText(std::string_view text, std::string* error);

  bool Has(std::string_view def) const;
  std::vector<std::string> DefNames() const;  ///< in document order

  /// Violations of `frame` against the entry `def`; empty means valid. An unknown `def` gives
  /// one violation at "" saying so. Valid frames take a fast path that builds no messages.
  std::vector<Violation> Validate(std::string_view def, const rapidjson::Value& frame) const;
  /// Just the verdict, without messages (the fast path of Validate). False for an unknown def.
  bool IsValid(std::string_view def, const rapidjson::Value& frame) const;

  /// The raw JSON of an entry (its examples, x-invalid-examples, $comment...), or nullptr.
  /// Points into this object: valid as long as it lives.
  const rapidjson::Value* Def(std::string_view def) const;
  const rapidjson::Value& Document() const { return doc_; }

 private:
  struct Entry;
  FrameSchema();

  rapidjson::Document doc_;
  std::vector<std::string> order_;
  std::map<std::string, std::unique_ptr<Entry>, std::less<>> entries_;
};

/// "<method>.<kind>" when the schema has that entry, else "envelope.<kind>".
std::string RouteDef(const FrameSchema& schema, FrameKind kind, std::string_view method);
/// The same with the kind spelled "request", "notification" or "response"; "" for any other.
std::string RouteDef(const FrameSchema& schema, std::string_view kind, std::string_view method);

/// True when `pointer` is `base` or lies below it ("/a/b" is below "/a", "/ab" is not).
bool PointerAtOrBelow(std::string_view pointer, std::string_view base);

/// One row of `fakehost schema check`: how an entry's own examples fared.
struct CheckRow {
  std::string def;
  int examples = 0;         ///< entries of "examples"
  int passed = 0;           ///< ... that validated, as they must
  int counterexamples = 0;  ///< entries of "x-invalid-examples"
  int caught = 0;           ///< ... that failed with a violation at or below their "pointer"
  std::vector<std::string> problems;  ///< one line per miss or malformed entry; empty = clean
};

/// Validates every example (must pass) and counterexample (must fail at or below its pointer)
/// of every $defs entry, in document order. An entry without examples or counterexamples, or
/// a counterexample without frame/pointer/why, is a problem too.
std::vector<CheckRow> CheckSchema(const FrameSchema& schema);

}  // namespace fakehost::schema
