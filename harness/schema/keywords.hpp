// The keyword lint run before valijson sees a schema: valijson silently ignores what it does not
// know (unevaluatedProperties, prefixItems, dependentRequired, format, $id ...) and keywords
// beside a $ref, so a schema using them would validate less than its author thinks.
#pragma once

#include <string>

#include "harness/json/rapidjson.hpp"

namespace fakehost::schema {

/// Checks a whole schema document: every schema position holds an object or a boolean whose
/// keywords are supported draft-07 keywords (with values of the right JSON type) or annotations
/// ($comment, title, description, examples, default, x-*); "$schema" only at the root; every
/// $ref is local ("#..."), resolves, and has only annotations beside it; then/else come with
/// if; additionalItems comes with an array "items"; patterns compile. On the first problem
/// returns false with *error = "<JSON pointer of the keyword>: <what>".
bool LintSchema(const rapidjson::Value& root, std::string* error);

}  // namespace fakehost::schema
