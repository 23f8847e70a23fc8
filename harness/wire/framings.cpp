// The registry of framings: the one list of what a profile's "framing" may name.
#include "harness/wire/framing.hpp"

#include "harness/wire/content_length.hpp"
#include "harness/wire/length_prefixed.hpp"
#include "harness/wire/ndjson.hpp"

namespace fakehost::wire {
namespace {

template <class F>
const Framing* Instance() {
  static const F framing;
  return &framing;
}

// A framing is registered by its line here (and its header's #include above).
const std::vector<const Framing*>& Registered() {
  static const std::vector<const Framing*> all = {
      Instance<LengthPrefixedFraming>(),
      Instance<NdjsonFraming>(),
      Instance<ContentLengthFraming>(),
  };
  return all;
}

}  // namespace

const Framing* FindFraming(std::string_view name) {
  for (const Framing* framing : Registered())
    if (framing->name() == name) return framing;
  return nullptr;
}

std::vector<std::string> FramingNames() {
  std::vector<std::string> names;
  for (const Framing* framing : Registered()) names.emplace_back(framing->name());
  return names;
}

}  // namespace fakehost::wire
