#include "harness/report/text.hpp"

#include <cstdint>
#include <cstdio>

namespace fakehost::report {
namespace {

// Length of the valid UTF-8 sequence at text[i], or 0 (RFC 3629: no overlongs, no surrogates,
// nothing above U+10FFFF).
std::size_t ValidSequence(std::string_view text, std::size_t i) {
  auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  unsigned char c = b(0);
  if (c < 0x80) return 1;
  std::size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
  if (n == 0 || c > 0xF4 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((b(k) & 0xC0) != 0x80) return 0;
  if (c == 0xE0 && b(1) < 0xA0) return 0;   // overlong
  if (c == 0xED && b(1) >= 0xA0) return 0;  // surrogate
  if (c == 0xF0 && b(1) < 0x90) return 0;   // overlong
  if (c == 0xF4 && b(1) >= 0x90) return 0;  // above U+10FFFF
  return n;
}

}  // namespace

std::string ValidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::size_t n = ValidSequence(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string TerminalSafe(std::string_view text, bool keep_newlines) {
  std::string valid = ValidUtf8(text);
  std::string out;
  out.reserve(valid.size());
  for (std::size_t i = 0; i < valid.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(valid[i]);
    // C1 controls (U+0080..U+009F, encoded C2 80..C2 9F) can start escape sequences too.
    bool c1 = c == 0xC2 && i + 1 < valid.size() &&
              static_cast<unsigned char>(valid[i + 1]) >= 0x80 &&
              static_cast<unsigned char>(valid[i + 1]) <= 0x9F;
    if ((c < 0x20 && !(keep_newlines && c == '\n')) || c == 0x7F || c1) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c1 ? static_cast<unsigned char>(valid[++i]) : c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string Duration(double ms) {
  char buf[32];
  if (ms < 1000)
    std::snprintf(buf, sizeof buf, "%.0f ms", ms);
  else
    std::snprintf(buf, sizeof buf, "%.2f s", ms / 1000);
  return buf;
}

}  // namespace fakehost::report
