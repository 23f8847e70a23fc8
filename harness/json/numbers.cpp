#include "harness/json/numbers.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

#include "harness/json/rapidjson.hpp"

namespace fakehost::json::detail {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsNumberChar(char c) {
  return IsDigit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// For a lexeme std::from_chars found out of range: true if it is too big (so ±inf), false if
// too small (so ±0). Decides by the decimal exponent of the first non-zero digit; the two cases
// are hundreds of orders of magnitude apart, so a saturated exponent is precise enough.
bool Overflows(std::string_view lexeme) {
  std::size_t at = lexeme[0] == '-' ? 1 : 0;
  std::int64_t magnitude = 0;  // 10^(magnitude-1) <= |value| < 10^magnitude, before the exponent
  bool seen_nonzero = false;
  for (; at < lexeme.size() && IsDigit(lexeme[at]); ++at) {
    if (lexeme[at] != '0') seen_nonzero = true;
    if (seen_nonzero && magnitude < 1'000'000'000) ++magnitude;
  }
  if (at < lexeme.size() && lexeme[at] == '.') {
    for (++at; at < lexeme.size() && IsDigit(lexeme[at]); ++at) {
      if (seen_nonzero) continue;
      if (lexeme[at] != '0') {
        seen_nonzero = true;
      } else if (magnitude > -1'000'000'000) {
        --magnitude;
      }
    }
  }
  std::int64_t exponent = 0;
  bool negative_exponent = false;
  if (at < lexeme.size() && (lexeme[at] == 'e' || lexeme[at] == 'E')) {
    ++at;
    if (at < lexeme.size() && (lexeme[at] == '+' || lexeme[at] == '-')) {
      negative_exponent = lexeme[at] == '-';
      ++at;
    }
    for (; at < lexeme.size() && IsDigit(lexeme[at]); ++at) {
      exponent = std::min<std::int64_t>(exponent * 10 + (lexeme[at] - '0'), 1'000'000'000);
    }
  }
  return (negative_exponent ? magnitude - exponent : magnitude + exponent) > 0;
}

// True if RapidJSON's Writer prints `d` exactly as `lexeme` (it writes the shortest decimal
// that reads back as `d`, always with a '.' or an exponent: 3.0, 0.1, 1e-7, 1e100).
bool PrintsAs(double d, std::string_view lexeme) {
  if (!std::isfinite(d)) return false;
  char buffer[32];
  const char* end = rapidjson::internal::dtoa(d, buffer);
  return std::string_view(buffer, static_cast<std::size_t>(end - buffer)) == lexeme;
}

}  // namespace

std::size_t NumberLength(std::string_view text) {
  std::size_t at = 0;
  if (at < text.size() && text[at] == '-') ++at;
  if (at == text.size() || !IsDigit(text[at])) return 0;
  if (text[at] == '0') {
    ++at;
  } else {
    while (at < text.size() && IsDigit(text[at])) ++at;
  }
  if (at + 1 < text.size() && text[at] == '.' && IsDigit(text[at + 1])) {
    at += 2;
    while (at < text.size() && IsDigit(text[at])) ++at;
  }
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    std::size_t digits = at + 1;
    if (digits < text.size() && (text[digits] == '+' || text[digits] == '-')) ++digits;
    if (digits < text.size() && IsDigit(text[digits])) {
      at = digits + 1;
      while (at < text.size() && IsDigit(text[at])) ++at;
    }
  }
  return at;
}

Number Convert(std::string_view lexeme) {
  Number n;
  const char* begin = lexeme.data();
  const char* end = begin + lexeme.size();
  const bool integral = lexeme.find_first_of(".eE") == std::string_view::npos;
  if (integral && lexeme[0] == '-') {
    if (std::from_chars(begin, end, n.i).ec == std::errc()) {
      n.kind = Number::kInt64;
      n.prints_as_sent = n.i != 0;  // "-0" prints as 0
      return n;
    }
  } else if (integral) {
    if (std::from_chars(begin, end, n.u).ec == std::errc()) {
      if (n.u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        n.kind = Number::kInt64;
        n.i = static_cast<std::int64_t>(n.u);
      } else {
        n.kind = Number::kUint64;
      }
      return n;
    }
  }
  // A decimal, or an integer outside [-2^63, 2^64): the nearest double.
  n.kind = Number::kDouble;
  if (std::from_chars(begin, end, n.d).ec == std::errc::result_out_of_range) {
    const double magnitude = Overflows(lexeme) ? std::numeric_limits<double>::infinity() : 0.0;
    n.d = lexeme[0] == '-' ? -magnitude : magnitude;
  }
  n.prints_as_sent = !integral && PrintsAs(n.d, lexeme);
  return n;
}

std::string MaskNumbers(std::string_view text) {
  std::string out(text);
  std::size_t at = 0;
  while (at < text.size()) {
    const char c = text[at];
    if (c == '"') {  // skip the string; an escape's second byte is never its end
      for (++at; at < text.size() && text[at] != '"'; ++at) {
        if (text[at] == '\\') ++at;
      }
      ++at;
      continue;
    }
    if (c != '-' && !IsDigit(c)) {
      ++at;
      continue;
    }
    std::size_t run = at;
    while (run < text.size() && IsNumberChar(text[run])) ++run;
    if (NumberLength(text.substr(at, run - at)) == run - at) {
      out[at] = '0';
      std::fill(out.begin() + static_cast<std::ptrdiff_t>(at) + 1,
                out.begin() + static_cast<std::ptrdiff_t>(run), ' ');
    }
    at = run;
  }
  return out;
}

}  // namespace fakehost::json::detail
