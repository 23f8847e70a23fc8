#include "harness/session/transcript.hpp"

#include <iterator>

namespace fakehost::session {
namespace {

constexpr const char* kEntryKindNames[] = {"request",   "notification", "response",
                                           "invalid",   "not-json",     "raw",
                                           "oversized", "truncated",    "tally"};
static_assert(std::size(kEntryKindNames) == static_cast<std::size_t>(EntryKind::kTally) + 1);

}  // namespace

const char* EntryKindName(EntryKind kind) { return kEntryKindNames[static_cast<int>(kind)]; }

bool ParseEntryKind(std::string_view name, EntryKind* out) {
  for (std::size_t i = 0; i < std::size(kEntryKindNames); ++i) {
    if (name == kEntryKindNames[i]) {
      *out = static_cast<EntryKind>(i);
      return true;
    }
  }
  return false;
}

const char* DirectionArrow(Direction d) {
  return d == Direction::kHostToPlugin ? "host → plugin" : "plugin → host";
}

}  // namespace fakehost::session
