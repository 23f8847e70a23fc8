// Which failures of a scenario share one cause, so that the reports show the cause once with
// the steps it broke. One slip by a plugin often breaks a scenario several times: a stray print
// corrupts the length-prefixed framing and every later step that waits for a frame misses; a
// plugin that dies leaves every later step waiting; a hang runs into the hard limit and the
// steps after it cannot run. The JSON report keeps every failure and names, for each
// consequence, the failure it is a consequence of (`caused_by`).
//
// The grouping is conservative: a failure is a consequence only when its root explains it, and
// what explains what is read from each failure's typed reason (session/reason.hpp), set where
// the failure happened; the messages are never read.
//  - The connection was over: a step that waited in vain because the framing was lost
//    (kFramingLost) is a consequence of the framing check that ended the connection (the
//    failure with that reason on a frame), else of the first such step.
//  - The plugin was gone: a step that waited in vain because the plugin had exited
//    (kPluginExited, believed only when the result records an exit) or closed its stdout
//    (kStdoutClosed) is a consequence of the framing check on the frame its stdout ended inside
//    (kCutShort), if there is one, else of the first step that missed for that reason.
//  - The hard limit: a step that missed because the scenario had reached its hard limit
//    (kHardLimit) is a consequence of the first step that did.
//  - A frame that is not a message at all (kNotAMessage, kFramingLost, kCutShort on a frame):
//    the other always-on checks that fired on that same frame are its consequences.
// A step that simply timed out, a reply with the wrong content, or a check on another frame
// stays its own cause, even when it follows a root: nothing in the result says the root
// explains it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "harness/result/result.hpp"

namespace fakehost::report {

enum class Cause {
  kOwn,             ///< a failure of its own; a group with no consequences
  kConnectionLost,  ///< the framing was lost, so the connection was over
  kPluginGone,      ///< the plugin exited or closed its stdout while steps still waited
  kHardLimit,       ///< the scenario ran into its hard limit
  kBrokenFrame,     ///< a frame that is not a message, and the checks that fired on it
};

struct CauseGroup {
  Cause cause = Cause::kOwn;
  std::size_t root = 0;                   ///< index into ScenarioResult::failures
  std::vector<std::size_t> consequences;  ///< indices the root explains: steps in step order,
                                          ///< then the rest in order
};

/// Every failure of `r` in exactly one group; groups in the order of their first member in
/// `r.failures`.
std::vector<CauseGroup> GroupByCause(const result::ScenarioResult& r);

/// For failure i of `r`: the index of the root it is a consequence of, or nullopt for a root.
std::vector<std::optional<std::size_t>> CausedBy(const result::ScenarioResult& r);

/// The consequences, short: "step 2 expect (line 20), before-handshake (frame #1)". A step
/// written in the scenario's own file is named by its line, one written elsewhere (a fragment)
/// by its whole location. "" for a group without consequences.
std::string ConsequenceList(const result::ScenarioResult& r, const CauseGroup& group);

}  // namespace fakehost::report
