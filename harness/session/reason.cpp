#include "harness/session/reason.hpp"

#include <iterator>

namespace fakehost::session {
namespace {

struct ReasonNameEntry {
  Reason reason;
  const char* name;
};
// Indexed by the enum: the order check below keeps each name on its reason.
constexpr ReasonNameEntry kReasonNames[] = {
    {Reason::kCheckFired, "check-fired"},         {Reason::kNotAMessage, "not-a-message"},
    {Reason::kFramingLost, "framing-lost"},       {Reason::kCutShort, "cut-short"},
    {Reason::kPluginExited, "plugin-exited"},     {Reason::kStdoutClosed, "stdout-closed"},
    {Reason::kHardLimit, "hard-limit"},           {Reason::kDeadlinePassed, "deadline-passed"},
    {Reason::kWrongContent, "wrong-content"},     {Reason::kWrongTime, "wrong-time"},
    {Reason::kForbiddenFrame, "forbidden-frame"}, {Reason::kWrongExit, "wrong-exit"},
    {Reason::kUnanswered, "unanswered"},          {Reason::kHarnessFault, "harness-fault"},
};
constexpr bool ReasonsInEnumOrder() {
  for (std::size_t i = 0; i < std::size(kReasonNames); ++i)
    if (static_cast<std::size_t>(kReasonNames[i].reason) != i) return false;
  return std::size(kReasonNames) == static_cast<std::size_t>(Reason::kHarnessFault) + 1;
}
static_assert(ReasonsInEnumOrder());

}  // namespace

const char* ReasonName(Reason reason) {
  return kReasonNames[static_cast<std::size_t>(reason)].name;
}

bool ParseReason(std::string_view name, Reason* out) {
  for (const ReasonNameEntry& r : kReasonNames) {
    if (name == r.name) {
      *out = r.reason;
      return true;
    }
  }
  return false;
}

}  // namespace fakehost::session
