// Numbers for Parse(): the json layer reads every number lexeme itself instead of trusting
// RapidJSON's conversions.
//
// RapidJSON 1.1's full-precision strtod reads out of bounds on a long decimal such as "0." + 348
// zeros + "1" (a SIGSEGV), and UBSan flags its DiyFp code on "0e38"; its fast path is an ulp off
// for some 17-digit decimals and refuses 1e400 and 309-digit integers ("number too big"), which
// are valid JSON. So Parse() asks RapidJSON for the raw lexeme (kParseNumbersAsStringsFlag) and
// converts it here with std::from_chars, which is exact and bounded. Internal to the json layer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace fakehost::json::detail {

/// Length of the JSON number (RFC 8259 §6 grammar) at the start of `text`, or 0 if `text` does
/// not start with one.
std::size_t NumberLength(std::string_view text);

/// What a number lexeme holds, as the document will keep it.
struct Number {
  enum Kind { kInt64, kUint64, kDouble } kind = kInt64;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double d = 0;  ///< ±inf above the double range, ±0 (or a subnormal) below it
  /// False when the kept value does not print back as the lexeme: "-0", "1E2" (prints 100.0),
  /// "3.00", "1e400", integers outside the 64-bit range (kept as the nearest double), etc.
  bool prints_as_sent = true;
};

/// Converts a lexeme that NumberLength() accepted in full.
Number Convert(std::string_view lexeme);

/// A copy of `text` in which every number outside strings is overwritten by "0" and spaces (same
/// length, so byte offsets stay put). Only tokens that are whole, valid JSON numbers are masked:
/// a malformed one stays as it is, so masking never turns invalid JSON into valid JSON. For
/// RapidJSON, which refuses some valid numbers ("number too big"); the caller reads the real
/// lexeme from `text` at the same offset.
std::string MaskNumbers(std::string_view text);

}  // namespace fakehost::json::detail
