// Where a JSON pointer's value lies in the text it was parsed from, and how a loader names it.
//
// fakehost parses a manifest into a RapidJSON document, which keeps no source positions. A
// problem found in the document (an unknown key, a bad value) is located afterwards by walking
// the original text along the pointer, so that every message can say line:column. The text
// must be the one the document was parsed from (valid JSON); on duplicate keys the first is
// taken, as json::Resolve does.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/json/rapidjson.hpp"

namespace fakehost::plugin {

/// Byte offset of the value at `pointer` in `text` ("" is the whole document), or of its key
/// when `key` is true and the value is an object member. nullopt if the pointer does not resolve.
std::optional<std::size_t> LocatePointer(std::string_view text, std::string_view pointer,
                                         bool key = false);

/// The path form the real loaders print: "/sources/0/title" -> "sources[0].title",
/// "/verbs/0/keystrokes/" -> "verbs[0].keystrokes[\"\"]". `root` decides which numeric tokens
/// are array indices. "" for the root.
std::string PointerToPath(const rapidjson::Value& root, std::string_view pointer);

/// The tokens of an RFC 6901 pointer, unescaped.
std::vector<std::string> PointerTokens(std::string_view pointer);

}  // namespace fakehost::plugin
