// The scenario loader on arbitrary text, through its public API only (LoadScenarioText). Beyond
// the sanitizers: a load that fails says why, with a message for every error; one that succeeds
// reports no errors. `use:` names fragments given as text: the suites' own fragments, read once
// at start-up from FUZZ_SOURCE_DIR/scenarios/*/fragments, so expansions are exercised too.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "harness/protocol/registry.hpp"
#include "harness/scenario/loader.hpp"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "scenario loader fuzz: %s\n", what);
  std::abort();
}

const fakehost::scenario::LoadContext& Context() {
  static const fakehost::scenario::LoadContext context = [] {
    fakehost::scenario::LoadContext c;
    for (const std::string& suite : fakehost::protocol::ProtocolNames(FUZZ_SOURCE_DIR)) {
      const std::filesystem::path dir =
          std::filesystem::path(FUZZ_SOURCE_DIR) / "scenarios" / suite / "fragments";
      std::error_code ec;
      for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        if (entry.path().extension() != ".yaml") continue;
        std::ifstream file(entry.path(), std::ios::binary);
        std::ostringstream text;
        text << file.rdbuf();
        c.fragments[entry.path().stem().string()] = text.str();
      }
    }
    return c;
  }();
  return context;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view yaml(reinterpret_cast<const char*>(data), size);
  fakehost::scenario::Scenario scenario;
  std::vector<fakehost::scenario::LoadError> errors;
  const bool ok = fakehost::scenario::LoadScenarioText(yaml, "fuzz.yaml", "fuzz", Context(),
                                                       &scenario, &errors);
  if (ok && !errors.empty()) Fail("loaded, yet reported errors");
  if (!ok && errors.empty()) Fail("failed without saying why");
  for (const auto& e : errors) {
    if (e.message.empty()) Fail("an error without a message");
    (void)e.ToString();
  }
  return 0;
}
