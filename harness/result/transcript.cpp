#include "harness/result/transcript.hpp"

#include <iterator>

namespace fakehost::result {
namespace {

struct KindName {
  EntryKind kind;
  const char* name;
};
// Indexed by the enum: the order check below keeps each name on its kind.
constexpr KindName kEntryKindNames[] = {
    {EntryKind::kRequest, "request"},      {EntryKind::kNotification, "notification"},
    {EntryKind::kResponse, "response"},    {EntryKind::kInvalid, "invalid"},
    {EntryKind::kNotJson, "not-json"},     {EntryKind::kRaw, "raw"},
    {EntryKind::kOversized, "oversized"},  {EntryKind::kTruncated, "truncated"},
    {EntryKind::kBadHeader, "bad-header"}, {EntryKind::kTally, "tally"},
};
constexpr bool InEnumOrder() {
  for (std::size_t i = 0; i < std::size(kEntryKindNames); ++i)
    if (static_cast<std::size_t>(kEntryKindNames[i].kind) != i) return false;
  return std::size(kEntryKindNames) == static_cast<std::size_t>(EntryKind::kTally) + 1;
}
static_assert(InEnumOrder());

}  // namespace

const char* EntryKindName(EntryKind kind) {
  return kEntryKindNames[static_cast<std::size_t>(kind)].name;
}

bool ParseEntryKind(std::string_view name, EntryKind* out) {
  for (const KindName& k : kEntryKindNames) {
    if (name == k.name) {
      *out = k.kind;
      return true;
    }
  }
  return false;
}

const char* DirectionName(Direction d) {
  return d == Direction::kHostToPlugin ? "host-to-plugin" : "plugin-to-host";
}

bool ParseDirection(std::string_view name, Direction* out) {
  for (Direction d : {Direction::kHostToPlugin, Direction::kPluginToHost}) {
    if (name == DirectionName(d)) {
      *out = d;
      return true;
    }
  }
  return false;
}

const char* DirectionArrow(Direction d) {
  return d == Direction::kHostToPlugin ? "host → plugin" : "plugin → host";
}

}  // namespace fakehost::result
