#include "harness/scenario/duration.hpp"

#include <cstdint>

namespace fakehost::scenario {
namespace {

constexpr std::string_view kGrammar =
    "a duration is a non-negative decimal number and a unit (ms, s, m or h) with nothing "
    "between them, such as 250ms, 1.5s or 2m, a whole number of milliseconds, at most 1h";

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool Fail(std::string_view text, std::string_view problem, std::string* error) {
  *error = "bad duration '" + std::string(text) + "'";
  if (!problem.empty()) *error += " (" + std::string(problem) + ")";
  *error += ": " + std::string(kGrammar);
  return false;
}

}  // namespace

bool ParseDuration(std::string_view text, std::chrono::milliseconds* out, std::string* error) {
  // Whole part: saturates above 10^12, which exceeds the bound in every unit, so the products
  // below stay far inside uint64 (10^12 * 3.6e6 < 1.8e19).
  constexpr std::uint64_t kSaturated = 1'000'000'000'000ULL;
  std::size_t i = 0;
  std::uint64_t whole = 0;
  while (i < text.size() && IsDigit(text[i])) {
    whole =
        whole >= kSaturated ? kSaturated : whole * 10 + static_cast<std::uint64_t>(text[i] - '0');
    ++i;
  }
  if (i == 0) return Fail(text, "", error);
  // Fraction: kept as digits; trailing zeros do not count.
  std::string_view frac;
  if (i < text.size() && text[i] == '.') {
    const std::size_t start = ++i;
    while (i < text.size() && IsDigit(text[i])) ++i;
    if (i == start) return Fail(text, "", error);
    frac = text.substr(start, i - start);
    while (!frac.empty() && frac.back() == '0') frac.remove_suffix(1);
  }
  const std::string_view unit = text.substr(i);
  std::uint64_t ms_per_unit = 0;
  if (unit == "ms") {
    ms_per_unit = 1;
  } else if (unit == "s") {
    ms_per_unit = 1000;
  } else if (unit == "m") {
    ms_per_unit = 60'000;
  } else if (unit == "h") {
    ms_per_unit = 3'600'000;
  } else {
    return Fail(text, unit.empty() ? "no unit" : "unknown unit", error);
  }
  // More than nine fraction digits (trailing zeros aside) never make whole milliseconds in these
  // units (10^-9 h = 0.0036 ms); refusing them keeps frac_value below 10^9.
  if (frac.size() > 9) return Fail(text, "not a whole number of milliseconds", error);
  std::uint64_t frac_value = 0, frac_scale = 1;
  for (char c : frac) {
    frac_value = frac_value * 10 + static_cast<std::uint64_t>(c - '0');
    frac_scale *= 10;
  }
  const std::uint64_t frac_ms = frac_value * ms_per_unit;  // < 10^9 * 3.6e6
  if (frac_ms % frac_scale != 0) return Fail(text, "not a whole number of milliseconds", error);
  const std::uint64_t total = whole * ms_per_unit + frac_ms / frac_scale;
  const auto max = static_cast<std::uint64_t>(kMaxDuration.count());
  if (whole >= kSaturated || total > max) return Fail(text, "longer than 1h", error);
  *out = std::chrono::milliseconds(static_cast<std::chrono::milliseconds::rep>(total));
  return true;
}

}  // namespace fakehost::scenario
