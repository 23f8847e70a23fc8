// Turns valijson's error list into targeted violations: one per offending value, at its JSON
// pointer.
//
// valijson reports a failure at every level it passes through ("Failed to validate against
// schema associated with property name 'params'" at the root, then the same for 'level' at
// /params, then the real reason at /params/level), and a then-branch or allOf member adds its
// own summary. Those summaries are dropped when a real reason lies at or below them. A false
// schema fails without any reason of its own (so does propertyNames, which is why the schemas
// use patternProperties instead), so its summary becomes the violation ("property 'x' is not
// allowed here"), at the property's pointer. additionalProperties: false is reported
// at the object; it is moved to the offending property.
#pragma once

#include <string>
#include <vector>

#include "harness/json/rapidjson.hpp"
#include "harness/schema/schema.hpp"

namespace fakehost::schema {

/// One valijson error: its context ("<root>", "[params]", "[level]") and description.
struct RawError {
  std::vector<std::string> context;
  std::string description;
};

/// "<root>[params][0]" contexts -> "/params/0".
std::string ContextToPointer(const std::vector<std::string>& context);

/// The targeted violations for `errors` (in valijson's order); `frame` is the validated value,
/// used to show what the offending value was.
std::vector<Violation> TargetViolations(const std::vector<RawError>& errors,
                                        const rapidjson::Value& frame);

}  // namespace fakehost::schema
