// Schemas a plugin supplies in its own messages (an MCP tool's inputSchema and outputSchema):
// is one a valid JSON Schema, and does a value the plugin sent conform to it?
//
// fakehost's validator, valijson, implements draft-07; MCP's default dialect is 2020-12
// ("When a schema does not include a $schema field, it defaults to JSON Schema 2020-12", from
// 2025-11-25; 2025-06-18 names none). bench/schema_suite.cpp measures valijson on the official
// JSON-Schema-Test-Suite; from that table a dialect gate walks the schema before valijson sees
// it. A keyword valijson gets right under both draft-07 and 2020-12 (type, properties, required,
// allOf, ...) is judged by valijson; a keyword whose 2020-12 meaning it does not implement
// (prefixItems, $dynamicRef, unevaluated*, dependentSchemas, items as an array, $anchor,
// minContains, ...) makes the verdict kUntested, naming the keyword and its pointer: such a
// schema never passes and never fails. So do an unknown $schema, a remote or non-pointer $ref,
// and a $ref beside validation keywords (draft-07 ignores them, 2020-12 applies them). A
// schema that declares draft-07 is judged by valijson as draft-07. `format` and the content*
// keywords are annotations here (2020-12's default; draft-07 leaves format to the validator).
//
// Validity is the dialect's meta-schema, checked keyword by keyword (each known keyword's value
// of the right type: a schema, a non-empty array of schemas, a list of unique strings, a
// non-negative integer, a type name, ...); unknown keywords are allowed, as both dialects allow
// them. Everything here is pure: no I/O, no remote $ref is ever fetched (2026-07-28: "MUST NOT
// automatically dereference $ref values that resolve to a network URI").
#pragma once

#include <string>
#include <vector>

#include "harness/json/rapidjson.hpp"
#include "harness/schema/schema.hpp"

namespace fakehost::schema {

enum class Judgement { kHolds, kFails, kUntested };

struct SuppliedVerdict {
  Judgement judgement = Judgement::kHolds;
  /// kFails: what is wrong, each at its pointer: into the schema for validity, into the value
  /// for conformance.
  std::vector<Violation> problems;
  /// kUntested: why fakehost cannot judge, naming the keyword and its pointer in the schema.
  std::string untested;
};

/// The dialect a schema is read in: its $schema, or 2020-12 without one.
enum class Dialect { k2020_12, kDraft07, kUnknown };
/// `schema`'s dialect; `*declared` (may be null) gets its $schema ("" when it has none).
Dialect DialectOf(const rapidjson::Value& schema, std::string* declared);

/// Is `schema` a valid JSON Schema of its dialect (an object or a boolean whose keywords have
/// values of the right types)? kUntested only for an unknown dialect.
SuppliedVerdict CheckSuppliedSchema(const rapidjson::Value& schema);

/// Does `value` conform to `schema`? kUntested when the gate says valijson cannot judge the
/// schema (or the schema is itself not valid, or a pattern cannot be matched safely).
SuppliedVerdict CheckConformance(const rapidjson::Value& schema, const rapidjson::Value& value);

}  // namespace fakehost::schema
