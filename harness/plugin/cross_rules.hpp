// Cross-field manifest rules: what a JSON Schema cannot say, as data in the profile.
//
// Each protocol's profile lists, under "manifest"."rules", rules of a few generic kinds. Every
// rule has "rule" (its id, reported with each problem), "kind", "message" (the text after the
// path; "${value}" is the offending value as JSON) and "source" (the sentence it enforces).
// Pointers may use "*" for every element or member ("/commands/*/id"); conditions are
// {"pointer": P} plus one of "present": bool, "equals": v, "not_equals": v, "contains": v (an
// array holds v) or "non_empty": true.
//
//   iff         {a: cond, b: cond, messages: {a_only, b_only}}: both hold or neither
//   implies     {when: [cond], each: P*, if: [cond], then: [cond], at: "if"|"then"}: for each
//               item (relative pointers; the root without "each") where `when` (absolute) and
//               `if` hold, every `then` holds; a problem per failing `then`, located there
//               (or at the first `if` when at = "if")
//   unique      {each: P*, case_insensitive}: no value repeats (reported at the repeat)
//   refers-to   {each: P*, declared: P*, case_insensitive}: each value is one of the declared
//   all-equal   {each: P*, value: P, default: v}: every item's value (default when absent) is
//               the first item's
//   prefixed    {each: P*, when_prefix: s, prefix: "plugin.${/plugin_id}.", rest_pattern}: a
//               string starting with when_prefix starts with prefix (pointers in ${} resolved
//               in the manifest); with rest_pattern, what follows the prefix matches it instead
//   path-inside {pointer, absolute: "outside"|"allowed", bare: "inside"|"path", symlinks:
//               "as-written"|"resolve"}: a relative path does not leave the plugin directory,
//               as written, and with "resolve" also once its symlinks are resolved (default
//               "as-written")
//   file        {pointer, require: "regular"|"executable"}: the path, inside the plugin
//               directory, is a regular file (and executable); skipped when path-inside fails
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "harness/json/rapidjson.hpp"

namespace fakehost::plugin {

/// A problem before rendering: `pointer` is the value the message names (rendered as the
/// path), `locate` the value (or with `at_key` the key) whose line:column is reported.
struct Finding {
  std::string rule;
  std::string pointer;
  std::string text;
  std::string locate;
  bool at_key = false;
};

/// Checks the rule list's own shape; false with `*error` naming the rule's index.
bool CheckRuleData(const rapidjson::Value& rules, std::string* error);

/// Applies every rule to `manifest`; `plugin_dir` is where file rules look.
void ApplyRules(const rapidjson::Value& rules, const rapidjson::Value& manifest,
                const std::string& plugin_dir, std::vector<Finding>* out);

/// Every pointer matching a pattern with "*" tokens, in document order.
std::vector<std::string> ExpandPointer(const rapidjson::Value& root, std::string_view pattern);

}  // namespace fakehost::plugin
