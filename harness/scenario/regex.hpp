// Regular expressions for the $regex matcher, behind a small interface.
//
// Boost.Regex (header-only since Boost 1.76) rather than std::regex: libstdc++'s matcher
// recurses once per character and segfaulted here on a 20 KB string with `^(a|b)*$`, and the
// subject is plugin output. Boost's matcher is non-recursive and gives up with an exception
// when a match gets too costly, which we report as an error value. Compiled expressions are
// cached per thread (a compiled regex is not shared across threads without care).
#pragma once

#include <string>
#include <string_view>

namespace fakehost::scenario {

enum class RegexResult { kMatch, kNoMatch, kError };

/// Searches `subject` for `pattern` (ECMAScript syntax, unanchored). kError: the pattern does
/// not compile, or matching exceeded the library's complexity or memory bounds.
RegexResult RegexSearch(std::string_view pattern, std::string_view subject);

/// Compiles `pattern`; false with `*error` set (the library's reason) if it is invalid.
bool CheckRegex(std::string_view pattern, std::string* error);

}  // namespace fakehost::scenario
