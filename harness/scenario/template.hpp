// Variables in scenario values: "${name}" and "${a.b.c}" inside strings of messages, matchers
// and replies, filled in when a step runs (the loader only checks their syntax).
//
// A string that is exactly one "${x}" becomes the looked-up value with its JSON type, so
// `args: "${item.args}"` inserts an object and `id: "${n}"` an integer. Inside a longer string
// the value is spliced in as text: strings raw, anything else as compact JSON. "$${" stands for
// a literal "${". Only string values are templates; object keys are taken as written. The
// syntax is text/template.hpp's, shared with every other template fakehost fills; what this
// adds is the JSON types and names that are dotted paths.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/json/rapidjson.hpp"

namespace fakehost::scenario {

/// Resolves a variable path such as "plugin.id" or "item.args"; nullptr if it is unknown. The
/// returned value must stay valid until Substitute returns.
using Lookup = std::function<const rapidjson::Value*(std::string_view path)>;

/// The bound on what one value may expand to. Bytes are counted as every string's and member
/// name's bytes plus one per value (about its compact JSON size); depth is the nesting of the
/// result. A 400 KiB variable used 100,000 times would otherwise make 40 GB.
inline constexpr std::size_t kMaxExpansionBytes = std::size_t{16} << 20;  // 16 MiB
inline constexpr std::size_t kMaxExpansionDepth = 128;  // json::ParseLimits' depth for a frame
struct ExpansionLimits {
  std::size_t max_bytes = kMaxExpansionBytes;
  std::size_t max_depth = kMaxExpansionDepth;
};

/// Writes a copy of `in` with every variable replaced into `out` (allocated from `alloc`).
/// Returns false with `*error` naming the problem ("unknown variable 'item.name'", or the
/// expansion cap passed, with the pointer where) otherwise; nothing past the cap is built.
bool Substitute(const rapidjson::Value& in, const Lookup& lookup,
                rapidjson::Document::AllocatorType& alloc, rapidjson::Value* out,
                std::string* error, const ExpansionLimits& limits = {});

/// For the loader: whether Substitute would stay within `limits` with the variables `lookup`
/// knows now (one it does not know, a capture, counts as empty). False with `*error` and the
/// JSON pointer in `in` where the cap is passed.
bool CheckExpansion(const rapidjson::Value& in, const Lookup& lookup, std::string* pointer,
                    std::string* error, const ExpansionLimits& limits = {});

/// True if Substitute would change anything: some string holds "${" (a variable, or the
/// escape "$${"). False means `in` can be used as it is.
bool HasVariables(const rapidjson::Value& in);
bool HasVariables(std::string_view text);

/// Syntax only, for the loader: every "${" is closed and names a dotted path of letters,
/// digits, '_' and '-'. False with `*error` set otherwise.
bool CheckTemplate(std::string_view text, std::string* error);

/// CheckTemplate over every string in `value`; appends {pointer, message} for each bad one.
void CheckTemplates(const rapidjson::Value& value,
                    std::vector<std::pair<std::string, std::string>>* errors);

}  // namespace fakehost::scenario
