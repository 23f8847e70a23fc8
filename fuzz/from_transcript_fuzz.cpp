// `scenario from-transcript` on arbitrary text, for both shipped protocols. Beyond the
// sanitizers (a line nested a million deep once overflowed the stack): a transcript that
// converts gives a scenario that loads, as the command itself insists; one that does not says
// why.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/profiles.hpp"
#include "harness/fuzz/from_transcript.hpp"
#include "harness/scenario/loader.hpp"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "from-transcript fuzz: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view jsonl(reinterpret_cast<const char*>(data), size);
  (void)fakehost::fuzz::FirstHostMethod(jsonl);
  for (const auto& profile : fakehost::fuzz::ShippedProfiles()) {
    std::string yaml, error;
    if (!fakehost::fuzz::ScenarioFromTranscript(jsonl, "fuzz.jsonl", *profile, &yaml, &error)) {
      if (error.empty()) Fail("failed without saying why");
      continue;
    }
    fakehost::scenario::Scenario scenario;
    std::vector<fakehost::scenario::LoadError> errors;
    if (!fakehost::scenario::LoadScenarioText(yaml, "fuzz.yaml", "fuzz", {}, &scenario, &errors))
      Fail("the scenario it wrote does not load");
  }
  return 0;
}
