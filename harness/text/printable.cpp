#include "harness/text/printable.hpp"

#include <cstdint>
#include <cstdio>

namespace fakehost::text {
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

// The code point of the valid sequence of `n` bytes at s[i].
std::uint32_t CodePoint(std::string_view s, std::size_t i, std::size_t n) {
  auto b = [&](std::size_t k) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(s[i + k]));
  };
  if (n == 1) return b(0);
  std::uint32_t cp = b(0) & (n == 2 ? 0x1Fu : n == 3 ? 0x0Fu : 0x07u);
  for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (b(k) & 0x3Fu);
  return cp;
}

// The blanks the runner trims before looking for "::" (.NET's char.IsWhiteSpace, less the
// controls, which are escaped before they could count).
bool Blank(std::uint32_t cp) {
  return cp == 0x20 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) ||
         cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

void Escape(std::string& out, unsigned c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", c & 0xFFu);
  out += buf;
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

bool IsValidUtf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = ValidSequence(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string YamlSafeJson(std::string_view json) {
  std::string valid = ValidUtf8(json);
  std::string_view s = valid;
  std::string out;
  out.reserve(s.size() + 8);
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = ValidSequence(s, i);
    std::uint32_t cp = CodePoint(s, i, n);
    if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F && cp != 0x85) || cp == 0xFEFF ||
        cp == 0xFFFE || cp == 0xFFFF) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
      out += buf;
    } else {
      out.append(s.substr(i, n));
    }
    i += n;
  }
  return out;
}

std::string Printable(std::string_view text, bool keep_newlines) {
  std::string valid = ValidUtf8(text);
  std::string_view s = valid;
  std::string out;
  out.reserve(s.size() + 8);
  bool line_start = true;  // nothing but blanks since the text or one of its lines began
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = ValidSequence(s, i);
    std::uint32_t cp = CodePoint(s, i, n);
    if (cp == '\n' && keep_newlines) {
      out += '\n';
      line_start = true;
    } else if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F)) {
      Escape(out, cp);
      line_start = false;
    } else if (cp == ':' && line_start) {
      Escape(out, cp);
      line_start = false;
    } else if (cp == '[' && out.size() >= 2 && out.compare(out.size() - 2, 2, "##") == 0) {
      Escape(out, cp);
      line_start = false;
    } else if (cp == '#' && i + 1 == s.size()) {
      Escape(out, cp);
      line_start = false;
    } else {
      out.append(s.substr(i, n));
      if (!Blank(cp)) line_start = false;
    }
    i += n;
  }
  return out;
}

}  // namespace fakehost::text
