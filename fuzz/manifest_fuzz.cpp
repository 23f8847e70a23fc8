// The manifest checker (plugin::CheckManifestText) on arbitrary text, as each protocol's host
// would read it. Beyond the sanitizers: a manifest loads exactly when no problem is listed,
// every problem names its rule and says something, and a located one lies inside the text.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/profiles.hpp"
#include "harness/plugin/manifest.hpp"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "manifest fuzz: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  int lines = 1;
  for (char c : text) lines += c == '\n';
  for (const auto& profile : fakehost::fuzz::ShippedProfiles()) {
    if (!profile->has_manifest()) continue;  // its plugins are command lines: nothing to read
    // The plugin directory does not exist: entrypoint rules report, never touch a real file.
    fakehost::plugin::ManifestCheck check = fakehost::plugin::CheckManifestText(
        *profile, text, profile->manifest().file, "/nonexistent/fakehost-fuzz-plugin");
    if (!check.readable) Fail(("unreadable: " + check.error).c_str());
    if (check.loads != check.problems.empty()) Fail("loads and problems disagree");
    for (const auto& p : check.problems) {
      if (p.rule.empty() || p.message.empty()) Fail("a problem without a rule or a message");
      if (p.line < 0 || p.line > lines || p.column < 0) Fail("a problem placed outside the text");
    }
  }
  return 0;
}
