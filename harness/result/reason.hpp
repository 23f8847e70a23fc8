// Why a failure happened, as data: set where it happens, carried by a session's findings and a
// scenario's failures, and read by whatever needs to know why (report/causes.cpp groups the
// failures one slip caused, fuzz/oracle.cpp names the rule a finding breaks). Messages are
// written for people and may be reworded at will; nothing reads them back.
//
// Part of the result layer (fakehost_result): plain data, no session, scenario or process.
#pragma once

#include <span>
#include <string_view>

namespace fakehost::result {

enum class Reason {
  /// A check fired: an always-on check on a message, a manifest rule, an expected-failures
  /// entry. Its id (the failure's `check`) says which; nothing else explains it.
  kCheckFired,
  /// An always-on check on a frame that is not a message at all: not JSON, no valid envelope,
  /// a frame over the size limit that the stream survived (NDJSON resumes at the next line).
  kNotAMessage,
  /// The framing was lost, so the connection is over: the framing check that ended it, and
  /// each step that then waited for a frame that could no longer come.
  kFramingLost,
  /// The plugin's stdout ended inside a frame (the plugin stopped in the middle of one).
  kCutShort,
  /// The plugin had exited: while a step waited, or before a stop sequence began.
  kPluginExited,
  /// The plugin had closed its stdout while a step waited.
  kStdoutClosed,
  /// The scenario reached its hard limit, during a step or before one could run.
  kHardLimit,
  /// A step's window ended without what it waited for (a frame, an answer, an exit).
  kDeadlinePassed,
  /// What arrived does not match the step's pattern.
  kWrongContent,
  /// What arrived came earlier (not_before) or later (counted_from) than the step allows.
  kWrongTime,
  /// A frame arrived that an expect_none says may not.
  kForbiddenFrame,
  /// The plugin did not end as the step requires: another code or signal, a signal needed, a
  /// stop sequence it outlived, or more time than the step's grace.
  kWrongExit,
  /// A host request was never answered.
  kUnanswered,
  /// The harness, its environment or the scenario is at fault, not the plugin.
  kHarnessFault,
};

/// What a reason says ended, when it explains the steps that then waited in vain: the
/// connection (its framing), the plugin (its exit or its stdout), or the scenario's time.
enum class ReasonEnds { kNothing, kConnection, kPlugin, kTime };

/// One row per reason: everything any layer reads about it. A new reason is its enum value above
/// and its row in reason.cpp (and the report schema's enum); no switch elsewhere names reasons.
struct ReasonInfo {
  Reason reason = Reason::kCheckFired;
  /// The name in the JSON report (`failure.reason`, the schema's enum): "check-fired", ...
  const char* name = "";
  /// What this reason ended, if anything: a step that then waited in vain is its consequence
  /// (report/causes.cpp), and the fuzzer's oracle calls a step that found the plugin gone "died".
  ReasonEnds ends = ReasonEnds::kNothing;
  /// An always-on check on a frame that is not a message at all: whatever else fired on that
  /// frame says the same thing again (report/causes.cpp).
  bool broken_frame = false;
  /// How a session gone for this reason is said ("the plugin closed its stdout"); empty when the
  /// reason is not a way for a session to be gone.
  const char* gone = "";
  /// The rule the fuzzer's oracle names for a finding of this reason; empty: the check's own id,
  /// or the step's (fuzz/oracle.cpp).
  const char* rule = "";
};

/// The row of `reason`.
const ReasonInfo& Info(Reason reason);
/// The reason's name in the JSON report (`failure.reason`, the schema's enum).
inline const char* ReasonName(Reason reason) { return Info(reason).name; }
/// The reason named `name`; false, leaving `*out` alone, when no reason has that name.
bool ParseReason(std::string_view name, Reason* out);
/// Every row, in the enum's order (the schema test compares the names with the report schema).
std::span<const ReasonInfo> Reasons();

}  // namespace fakehost::result
