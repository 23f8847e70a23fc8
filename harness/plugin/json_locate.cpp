#include "harness/plugin/json_locate.hpp"

#include <cstdint>

#include "harness/json/json.hpp"

namespace fakehost::plugin {
namespace {

// A forward scanner over text already known to be valid JSON: it never has to report errors,
// only to stop safely (every loop is bounded by the text's end).
class Scanner {
 public:
  explicit Scanner(std::string_view text) : t_(text) {}

  std::size_t pos() const { return p_; }
  bool AtEnd() const { return p_ >= t_.size(); }
  char Peek() const { return AtEnd() ? '\0' : t_[p_]; }
  void Advance() { ++p_; }

  void SkipSpace() {
    while (!AtEnd() && (t_[p_] == ' ' || t_[p_] == '\t' || t_[p_] == '\n' || t_[p_] == '\r')) ++p_;
  }

  // Reads a string starting at its opening quote; returns it decoded (escapes resolved).
  std::string String() {
    std::string out;
    ++p_;  // opening quote
    while (!AtEnd() && t_[p_] != '"') {
      char c = t_[p_++];
      if (c != '\\' || AtEnd()) {
        out.push_back(c);
        continue;
      }
      char e = t_[p_++];
      switch (e) {
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'u':
          AppendCodePoint(&out);
          break;
        default:
          out.push_back(e);
          break;
      }
    }
    ++p_;  // closing quote
    return out;
  }

  void SkipValue() {
    char c = Peek();
    if (c == '"') {
      String();
      return;
    }
    if (c == '{' || c == '[') {
      int depth = 0;
      while (!AtEnd()) {
        char d = t_[p_];
        if (d == '"') {
          String();
          continue;
        }
        ++p_;
        if (d == '{' || d == '[') ++depth;
        if ((d == '}' || d == ']') && --depth == 0) return;
      }
      return;
    }
    while (!AtEnd() && t_[p_] != ',' && t_[p_] != '}' && t_[p_] != ']' && t_[p_] != ' ' &&
           t_[p_] != '\n' && t_[p_] != '\t' && t_[p_] != '\r')
      ++p_;
  }

 private:
  std::uint32_t Hex4() {
    std::uint32_t v = 0;
    for (int i = 0; i < 4 && !AtEnd(); ++i) {
      char h = t_[p_++];
      v = v * 16 + static_cast<std::uint32_t>(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
    }
    return v;
  }
  void AppendCodePoint(std::string* out) {
    std::uint32_t cp = Hex4();
    if (cp >= 0xD800 && cp < 0xDC00 && p_ + 1 < t_.size() && t_[p_] == '\\' && t_[p_ + 1] == 'u') {
      p_ += 2;
      cp = 0x10000 + ((cp - 0xD800) << 10) + (Hex4() - 0xDC00);
    }
    auto byte = [&](std::uint32_t b) { out->push_back(static_cast<char>(b)); };
    if (cp < 0x80) {
      byte(cp);
    } else if (cp < 0x800) {
      byte(0xC0 | (cp >> 6));
      byte(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      byte(0xE0 | (cp >> 12));
      byte(0x80 | ((cp >> 6) & 0x3F));
      byte(0x80 | (cp & 0x3F));
    } else {
      byte(0xF0 | (cp >> 18));
      byte(0x80 | ((cp >> 12) & 0x3F));
      byte(0x80 | ((cp >> 6) & 0x3F));
      byte(0x80 | (cp & 0x3F));
    }
  }

  std::string_view t_;
  std::size_t p_ = 0;
};

bool IsIndex(const std::string& token, std::size_t* index) {
  if (token.empty() || token.size() > 9) return false;
  std::size_t v = 0;
  for (char c : token) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<std::size_t>(c - '0');
  }
  *index = v;
  return true;
}

bool PlainKey(const std::string& key) {
  if (key.empty()) return false;
  for (char c : key)
    if (c == '.' || c == '[' || c == ']' || c == '"' || c == ' ') return false;
  return true;
}

}  // namespace

std::vector<std::string> PointerTokens(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  std::size_t start = 1;
  for (;;) {
    std::size_t end = pointer.find('/', start);
    std::string_view raw = pointer.substr(start, end == std::string_view::npos ? end : end - start);
    std::string token;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '~' && i + 1 < raw.size()) {
        token.push_back(raw[i + 1] == '1' ? '/' : '~');
        ++i;
      } else {
        token.push_back(raw[i]);
      }
    }
    tokens.push_back(std::move(token));
    if (end == std::string_view::npos) return tokens;
    start = end + 1;
  }
}

std::optional<std::size_t> LocatePointer(std::string_view text, std::string_view pointer,
                                         bool key) {
  Scanner s(text);
  s.SkipSpace();
  std::vector<std::string> tokens = PointerTokens(pointer);
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    const bool last = t + 1 == tokens.size();
    if (s.Peek() == '{') {
      s.Advance();
      for (;;) {
        s.SkipSpace();
        if (s.Peek() != '"') return std::nullopt;  // '}' : no such member
        std::size_t key_at = s.pos();
        std::string name = s.String();
        s.SkipSpace();
        s.Advance();  // ':'
        s.SkipSpace();
        if (name == tokens[t]) {
          if (last && key) return key_at;
          break;
        }
        s.SkipValue();
        s.SkipSpace();
        if (s.Peek() != ',') return std::nullopt;
        s.Advance();
      }
    } else if (s.Peek() == '[') {
      std::size_t index = 0;
      if (!IsIndex(tokens[t], &index)) return std::nullopt;
      s.Advance();
      for (std::size_t i = 0;; ++i) {
        s.SkipSpace();
        if (s.Peek() == ']' || s.AtEnd()) return std::nullopt;
        if (i == index) break;
        s.SkipValue();
        s.SkipSpace();
        if (s.Peek() != ',') return std::nullopt;
        s.Advance();
      }
    } else {
      return std::nullopt;
    }
  }
  return s.pos();
}

std::string PointerToPath(const rapidjson::Value& root, std::string_view pointer) {
  std::string path;
  const rapidjson::Value* v = &root;
  for (const std::string& token : PointerTokens(pointer)) {
    std::size_t index = 0;
    if (v && v->IsArray() && IsIndex(token, &index)) {
      path += "[" + token + "]";
      v = index < v->Size() ? &(*v)[static_cast<rapidjson::SizeType>(index)] : nullptr;
      continue;
    }
    if (PlainKey(token)) {
      if (!path.empty()) path += ".";
      path += token;
    } else {
      rapidjson::Value k(token.c_str(), static_cast<rapidjson::SizeType>(token.size()));
      path += "[" + json::ToCompact(k) + "]";
    }
    v = v && v->IsObject() ? json::Find(*v, token) : nullptr;
  }
  return path;
}

}  // namespace fakehost::plugin
