// A manifest's shape: the protocol's manifest JSON Schema, and the rule behind each violation.
//
// The schema is validated with the schema layer's valijson wrapper (entry "$defs/manifest").
// valijson says where a value failed, not which constraint, so the schema is written in two
// layers, checked when it is loaded:
//  - navigation nodes (the manifest, its objects and arrays) carry only type, properties,
//    required, additionalProperties, items, a $ref, and allOf entries that each $ref a rule;
//  - rules are $defs entries with "x-rule" (the id reported), "x-message" (the text after the
//    path; "${value}" is the value as JSON) and "x-source" (the sentence they enforce), and
//    hold any constraints (pattern, enum, minLength, not, ...).
// A failing value is then explained by re-validating it against each rule referenced at its
// node alone; a wrong type is reported as such first ("must be a boolean, not string \"yes\"").
// Missing keys, unknown keys and wrong types are the structural rules every protocol shares.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "harness/json/rapidjson.hpp"
#include "harness/plugin/cross_rules.hpp"
#include "harness/schema/schema.hpp"

namespace fakehost::plugin {

class ManifestShape {
 public:
  /// Loads and lints a manifest schema; nullptr with `*error` naming the file and pointer.
  static std::unique_ptr<ManifestShape> Load(const std::string& path, std::string* error);

  /// Every shape problem of `manifest`, unknown keys grouped per object.
  void Check(const rapidjson::Value& manifest, std::vector<Finding>* out) const;

  /// The rule ids the schema can report (x-rule), with their x-source, in document order.
  std::vector<std::pair<std::string, std::string>> Rules() const;

 private:
  ManifestShape() = default;
  const rapidjson::Value* Deref(const rapidjson::Value* node) const;
  const rapidjson::Value* NodeAt(const std::string& pointer, const rapidjson::Value& doc) const;
  bool Lint(const rapidjson::Value& node, const std::string& where, int depth,
            std::string* error) const;
  void Explain(const std::string& pointer, const std::string& valijson_message,
               const rapidjson::Value& manifest, std::vector<Finding>* out) const;

  std::unique_ptr<schema::FrameSchema> schema_;
};

}  // namespace fakehost::plugin
