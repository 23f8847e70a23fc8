// certify's corpus list reader (certify::ParseCorpusList) on arbitrary text: what it returns is
// bounded by what it was given (one plugin per line at most, each no longer than its line plus
// the base), never a structure sized by a number the text claims.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "harness/certify/corpus.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string base = "/corpus";
  std::vector<std::string> plugins = fakehost::certify::ParseCorpusList(text, base);
  std::size_t lines = 1;
  for (char c : text) lines += c == '\n';
  if (plugins.size() > lines) {
    std::fprintf(stderr, "corpus list fuzz: %zu plugins from %zu lines\n", plugins.size(), lines);
    std::abort();
  }
  for (const std::string& p : plugins)
    if (p.empty() || p.size() > text.size() + base.size() + 1) {
      std::fprintf(stderr, "corpus list fuzz: a plugin path not made of the text\n");
      std::abort();
    }
  return 0;
}
