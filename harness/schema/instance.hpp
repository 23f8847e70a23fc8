// Values made from a JSON Schema a plugin supplies (an MCP tool's inputSchema): one that
// conforms, and the two broken variants scenarios need (a required member left out, a member of
// the wrong type). Each is checked with CheckConformance before it is returned, so a value
// offered as conforming does, and a variant offered as broken is refused by the schema itself;
// a schema fakehost cannot judge (the dialect gate says untested) gives nothing.
//
// The conforming value is the plainest the schema allows: `const`, else the first of `enum`,
// else `default`, else the first of `examples`, else one made from `type`: an object with its
// required members only, a string (`marker`, or a sample for a common `format`), the smallest
// number its bounds allow, false, an empty array (or minItems copies of one item), null.
// `anyOf`/`oneOf` take the first branch that conforms; local `$ref`s are followed to a depth.
#pragma once

#include <string>

#include "harness/json/rapidjson.hpp"

namespace fakehost::schema {

/// A value that conforms to `schema`, its strings `marker` where nothing else is asked. False
/// (with `*why`) when none could be made or the gate cannot judge the schema.
bool MakeConforming(const rapidjson::Value& schema, const std::string& marker,
                    rapidjson::Document* out, std::string* why);

/// `conforming` (an object) without one member `schema` requires; `*member` names it. False when
/// the schema requires none, or leaving one out still conforms.
bool MakeMissingMember(const rapidjson::Value& schema, const rapidjson::Value& conforming,
                       rapidjson::Document* out, std::string* member);

/// `conforming` (an object) with one member of a type its schema refuses (a number for a
/// string, a string for a number, an integer or a boolean); `*member` names it. Required members
/// first. False when no member can be so changed that the schema refuses the value.
bool MakeMistypedMember(const rapidjson::Value& schema, const rapidjson::Value& conforming,
                        rapidjson::Document* out, std::string* member);

}  // namespace fakehost::schema
