// The profile loader (protocol::Profile::LoadText: the document against the built-in profile
// schema, then every member read) on arbitrary text. Beyond the sanitizers: a refused profile
// says why, naming the file; an accepted one has every number the schema bounds inside its range
// (a deadline of at most an hour, so no duration overflows later).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "harness/protocol/profile.hpp"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "profile fuzz: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  auto profile = fakehost::protocol::Profile::LoadText(text, "p.json", &error);
  if (!profile) {
    if (error.rfind("p.json", 0) != 0) Fail("a refusal that does not name the file");
    return 0;
  }
  if (!error.empty()) Fail("an accepted profile with an error");
  const auto hour = std::chrono::milliseconds(3'600'000);
  if (profile->default_deadline() > hour || profile->scenario_timeout() > hour ||
      profile->scenario_timeout_max() > hour)
    Fail("a duration over the hour the schema allows");
  return 0;
}
