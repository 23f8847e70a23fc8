// The one duration grammar of fakehost, shared by scenario files and `fakehost run --timeout`.
//
// A duration is a non-negative decimal number, optionally with a fraction, written directly
// before its unit: `250ms`, `10s`, `1.5s`, `2m`, `1h`. Units are ms, s, m and h (lower case).
// No sign, exponent, spaces, NaN or infinity; the value must be a whole number of milliseconds
// (`1.5ms` is refused rather than rounded). Zero is allowed: where a duration is optional, 0
// means "the default".
//
// One upper bound, kMaxDuration = 1 h, for every duration: a scenario's hard limit, every
// step's wait and the --timeout flag. A conformance scenario runs in seconds (the longest in
// scenarios/ waits 30 s); an hour is far beyond any legitimate use yet small enough that no sum
// of a few durations, nor a deadline `now + d`, can overflow std::chrono (int64 nanoseconds hold
// 292 years). Parsing uses checked arithmetic, so `99999999999999999999h` is refused, not
// wrapped.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace fakehost::scenario {

/// The largest duration anything accepts.
inline constexpr std::chrono::milliseconds kMaxDuration = std::chrono::hours(1);

/// Parses `text`. On failure returns false and sets `*error` to a sentence that quotes the text,
/// says what is wrong, and states the grammar and the bound (the same words everywhere).
bool ParseDuration(std::string_view text, std::chrono::milliseconds* out, std::string* error);

}  // namespace fakehost::scenario
