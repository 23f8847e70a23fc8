// The fakehost.yaml reader (run::ParsePluginConfig, then CheckPluginConfig against every shipped
// profile, with and without its frame schema, which checks `host: replies:`) on arbitrary text.
// Beyond the sanitizers: a refused file says why, at a place in the file; an accepted one has no
// error and only triggers with a method.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/profiles.hpp"
#include "harness/json/json.hpp"
#include "harness/run/plugin_config.hpp"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "fakehost.yaml fuzz: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  fakehost::run::PluginConfig config;
  std::vector<fakehost::scenario::LoadError> errors;
  bool ok = fakehost::run::ParsePluginConfig(text, "fakehost.yaml", &config, &errors);
  if (ok != errors.empty()) Fail("the verdict and the errors disagree");
  for (const auto& e : errors)
    if (e.message.empty() || e.loc.file != "fakehost.yaml") Fail("an error without its place");
  if (!ok) return 0;
  for (const auto& [name, trigger] : config.triggers) {
    const rapidjson::Value* method = trigger ? fakehost::json::Find(*trigger, "method") : nullptr;
    if (!method || !method->IsString() || method->GetStringLength() == 0)
      Fail("a trigger accepted without a method");
  }
  const auto& profiles = fakehost::fuzz::ShippedProfiles();
  for (std::size_t i = 0; i < profiles.size(); ++i) {
    std::vector<fakehost::scenario::LoadError> checked;
    bool fits = fakehost::run::CheckPluginConfig(config, *profiles[i], &checked);
    if (fits != checked.empty()) Fail("the check's verdict and its errors disagree");
    // host: replies: against the frame schema as well: never fewer errors than the shape alone.
    std::vector<fakehost::scenario::LoadError> framed;
    bool framed_fits = fakehost::run::CheckPluginConfig(
        config, *profiles[i], &framed, fakehost::fuzz::ShippedFrameSchemas()[i].get());
    if (framed_fits != framed.empty()) Fail("the framed check's verdict and its errors disagree");
    if (framed_fits && !fits) Fail("the frame schema accepted what the shape check refused");
  }
  return 0;
}
