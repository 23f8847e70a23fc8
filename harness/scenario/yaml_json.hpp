// YAML -> RapidJSON conversion for scenario files, and the YAML checks yaml-cpp does not do.
//
// Typing follows the YAML 1.2 core schema, and only for plain scalars: yaml-cpp reports a plain
// scalar with Tag() "?" and a quoted or block one with "!", so `id: 1` is the integer 1 and
// `id: "1"` the string "1". Plain null/Null/NULL/~/empty are null (yaml-cpp already gives them
// NodeType::Null); true/True/TRUE and false/False/FALSE are booleans (never yes/no/on/off);
// decimal, 0o and 0x integers must fit int64; floats look like 1.0, .5, 1e3. `!!str` forces a
// string; any other explicit tag is rejected rather than guessed at.
//
// yaml-cpp silently keeps duplicate keys and follows self-referencing aliases until the stack
// overflows; CheckYamlTree reports the first and caps the depth against the second. Run it once
// on a freshly parsed document before anything walks it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "harness/json/rapidjson.hpp"
#include "harness/scenario/load_error.hpp"

namespace fakehost::scenario {

/// Nesting deeper than this is an error (it is also how a recursive alias shows up).
inline constexpr int kMaxYamlDepth = 64;

/// yaml-cpp marks are 0-based; SourceLoc is 1-based.
SourceLoc LocOf(const std::string& file, const YAML::Mark& mark);

/// Parses one YAML document. On a syntax error, or a file holding more than one document,
/// appends a LoadError and returns false. An empty document yields a Null node.
bool ParseYaml(std::string_view text, const std::string& file, YAML::Node* out,
               std::vector<LoadError>* errors);

/// Duplicate keys (reported at the second key), keys that are not plain strings, excessive
/// depth. Appends every problem found; returns true if there was none.
bool CheckYamlTree(const YAML::Node& node, const std::string& file, std::vector<LoadError>* errors);

/// Converts a node (and everything below it) to JSON. Appends an error for each scalar that
/// cannot be represented (int64 overflow, .inf/.nan, unsupported tags); returns true if none.
bool YamlToJson(const YAML::Node& node, const std::string& file, rapidjson::Value* out,
                rapidjson::Document::AllocatorType& alloc, std::vector<LoadError>* errors);

/// Scalar typing without a document, for the loader's own keys. Sets `*error` and returns false
/// for an unrepresentable scalar. `node` must be a scalar or null.
bool ScalarToJson(const YAML::Node& node, rapidjson::Value* out,
                  rapidjson::Document::AllocatorType& alloc, std::string* error);

/// The mark of what a JSON pointer (relative to `node`) designates in the YAML source: the key
/// itself when `at_key` is set, else the value. Falls back to the deepest node reached.
YAML::Mark MarkAt(const YAML::Node& node, std::string_view pointer, bool at_key);

}  // namespace fakehost::scenario
