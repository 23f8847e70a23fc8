// Template expansion (scenario::Substitute) on arbitrary variables and templates, under a small
// expansion cap so that the fuzzer reaches it. The input is two JSON values on two lines: an
// object of variables, then the template. Beyond the sanitizers: the loader's count
// (CheckExpansion) and the expansion agree, since every variable is known here: a template
// the count accepts expands, one it refuses does not, and an expansion never holds more than
// the cap allows.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "harness/json/json.hpp"
#include "harness/scenario/template.hpp"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "template fuzz: %s\n", what);
  std::abort();
}

// Strings' bytes plus one per value: what the cap counts.
std::size_t Size(const rapidjson::Value& v) {
  if (v.IsString()) return v.GetStringLength() + 1;
  std::size_t n = 1;
  if (v.IsArray())
    for (const auto& item : v.GetArray()) n += Size(item);
  if (v.IsObject())
    for (const auto& m : v.GetObject()) n += m.name.GetStringLength() + Size(m.value);
  return n;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace scenario = fakehost::scenario;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t nl = input.find('\n');
  if (nl == std::string_view::npos) return 0;
  rapidjson::Document vars, templ;
  if (!fakehost::json::Parse(input.substr(0, nl), &vars).ok || !vars.IsObject()) return 0;
  if (!fakehost::json::Parse(input.substr(nl + 1), &templ).ok) return 0;
  const scenario::Lookup lookup = [&](std::string_view path) -> const rapidjson::Value* {
    return fakehost::json::Find(vars, path);  // a dotted path is one name here
  };
  const scenario::ExpansionLimits limits{4096, 16};
  std::string pointer, count_error, error;
  const bool counted = scenario::CheckExpansion(templ, lookup, &pointer, &count_error, limits);
  rapidjson::Document out;
  const bool expanded =
      scenario::Substitute(templ, lookup, out.GetAllocator(), &out, &error, limits);
  if (expanded && !counted) Fail("expanded what the loader's count refuses");
  if (counted && !expanded && error.find("unknown variable") == std::string::npos)
    Fail("the loader's count accepts what does not expand");
  if (!expanded && error.empty()) Fail("failed without saying why");
  if (expanded && Size(out) > limits.max_bytes) Fail("an expansion larger than the cap");
  return 0;
}
