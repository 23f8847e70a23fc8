#include "harness/text/template.hpp"

namespace fakehost::text {

bool Split(std::string_view text, std::vector<Piece>* pieces, std::string* error) {
  std::size_t literal_start = 0, i = 0;
  auto flush = [&](std::size_t end) {
    if (end > literal_start) pieces->push_back({text.substr(literal_start, end - literal_start)});
  };
  while (i < text.size()) {
    if (text.compare(i, 3, "$${") == 0) {
      flush(i);
      pieces->push_back({text.substr(i + 1, 2)});
      i += 3;
      literal_start = i;
    } else if (text.compare(i, 2, "${") == 0) {
      const std::size_t close = text.find('}', i + 2);
      if (close == std::string_view::npos) {
        *error = "unterminated '${' in \"" + std::string(text) + "\"";
        return false;
      }
      flush(i);
      pieces->push_back({text.substr(i + 2, close - i - 2), true});
      i = close + 1;
      literal_start = i;
    } else {
      ++i;
    }
  }
  flush(text.size());
  return true;
}

bool Fill(std::string_view text, const Lookup& lookup, std::string* out, std::string* error) {
  std::vector<Piece> pieces;
  if (!Split(text, &pieces, error)) return false;
  out->clear();
  for (const Piece& piece : pieces) {
    if (!piece.placeholder) {
      out->append(piece.text);
      continue;
    }
    std::optional<std::string> value = lookup ? lookup(piece.text) : std::nullopt;
    if (!value) {
      *error = "unknown placeholder " + Placeholder(piece.text);
      return false;
    }
    out->append(*value);
  }
  return true;
}

std::string Placeholder(std::string_view name) { return "${" + std::string(name) + "}"; }

bool HasPlaceholders(std::string_view text) { return text.find("${") != std::string_view::npos; }

}  // namespace fakehost::text
