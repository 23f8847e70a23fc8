#include "harness/result/reason.hpp"

#include <iterator>

namespace fakehost::result {
namespace {

using enum Reason;
using enum ReasonEnds;

// Indexed by the enum: the order check below keeps each row on its reason.
constexpr ReasonInfo kReasons[] = {
    {kCheckFired, "check-fired"},
    {kNotAMessage, "not-a-message", kNothing, true},
    {kFramingLost, "framing-lost", kConnection, true,
     "the framing was lost, so the connection is over"},
    {kCutShort, "cut-short", kNothing, true},
    {kPluginExited, "plugin-exited", kPlugin, false, "the plugin exited"},
    {kStdoutClosed, "stdout-closed", kPlugin, false, "the plugin closed its stdout"},
    {kHardLimit, "hard-limit", kTime},
    {kDeadlinePassed, "deadline-passed"},  // a step that simply timed out: nothing says why
    {kWrongContent, "wrong-content"},
    {kWrongTime, "wrong-time"},
    {kForbiddenFrame, "forbidden-frame"},
    {kWrongExit, "wrong-exit"},
    {kUnanswered, "unanswered", kNothing, false, "", "no-answer"},
    {kHarnessFault, "harness-fault"},
};
constexpr bool ReasonsInEnumOrder() {
  for (std::size_t i = 0; i < std::size(kReasons); ++i)
    if (static_cast<std::size_t>(kReasons[i].reason) != i) return false;
  return std::size(kReasons) == static_cast<std::size_t>(kHarnessFault) + 1;
}
static_assert(ReasonsInEnumOrder());

}  // namespace

const ReasonInfo& Info(Reason reason) { return kReasons[static_cast<std::size_t>(reason)]; }

std::span<const ReasonInfo> Reasons() { return kReasons; }

bool ParseReason(std::string_view name, Reason* out) {
  for (const ReasonInfo& r : kReasons) {
    if (name == r.name) {
      *out = r.reason;
      return true;
    }
  }
  return false;
}

}  // namespace fakehost::result
