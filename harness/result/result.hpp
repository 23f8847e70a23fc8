// What playing one scenario produced: plain data for the run layer and the reporters.
//
// Reporters see only these structs (and the transcript entries they carry); they never touch a
// session, a process or a scenario file.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/result/model_basics.hpp"
#include "harness/result/transcript.hpp"

namespace fakehost::result {

/// kSkip: not applicable (the plugin does not declare what the scenario is about).
/// kUntested: applicable, but it needs a trigger the plugin's fakehost.yaml does not give.
/// kXfail: failed, as an entry of the run's --expected-failures file says it does (not a failure
/// of the run). kStale: passed, though such an entry says it fails (a failure of the run).
enum class Status { kPass, kFail, kWarn, kSkip, kError, kNotRun, kUntested, kXfail, kStale };

struct StatusNameEntry {
  Status status;
  std::string_view name;
};
/// Every status and its name in reports: the one list both directions of the mapping read.
inline constexpr std::array<StatusNameEntry, 9> kStatusNames = {{
    {Status::kPass, "pass"},
    {Status::kFail, "fail"},
    {Status::kWarn, "warn"},
    {Status::kSkip, "skip"},
    {Status::kError, "error"},
    {Status::kNotRun, "not-run"},
    {Status::kUntested, "untested"},
    {Status::kXfail, "xfail"},
    {Status::kStale, "stale"},
}};
/// The status's name in kStatusNames ("pass", "fail", ..., "xfail", "stale").
const char* StatusName(Status status);
/// The inverse of StatusName: false, leaving `*status` alone, for a name that is no status.
bool ParseStatus(std::string_view name, Status* status);
/// Whether a scenario of this status was judged (played and graded): not the not applicable,
/// the untested or the not run. A judged result's revision is the one it was judged under.
bool WasJudged(Status status);

/// One miss: a step whose expectation did not hold, or an always-on check that fired.
struct Failure {
  Level level = Level::kMust;    ///< must: a failure; should: a warning (a failure with --strict)
  bool harness_error = false;    ///< the scenario or the harness is at fault, not the plugin
  std::string check;             ///< "step" for step misses, else the always-on check's id
  std::size_t step = 0;          ///< 1-based index of the step that ran (0: none)
  std::string step_kind;         ///< "expect", "shutdown", ...
  SourceLoc loc;                 ///< where that step is written
  std::string message;           ///< one sentence
  std::string expected, actual;  ///< may be empty
  std::optional<std::size_t> frame;  ///< the transcript entry it is about
  /// Why, as data (session/reason.hpp): set where the miss happens; what reports and the fuzzer
  /// read to tell one cause from another, never `message`.
  result::Reason reason = result::Reason::kCheckFired;
};

/// How the plugin process ended.
struct ExitInfo {
  bool exited = false;
  std::string description;  ///< "exit code 0", "killed by SIGKILL"
  std::optional<int> code, signal;
  double at_ms = 0;        ///< since spawn
  std::string stop_stage;  ///< stage of the stop sequence it ended in ("" = on its own)
  double stop_ms = 0;      ///< from the start of the stop sequence to the exit
  bool graded = false;     ///< a `shutdown` step graded it (else it was the teardown)
};

/// An entry of an --expected-failures file, as it applied to a result.
struct ExpectedFailure {
  std::string id;        ///< the entry's scenario id or glob
  std::string reason;    ///< why it fails (required in the file)
  std::string kind;      ///< "" = any failure; else the Failure::check every failure must have
  std::string until;     ///< "" = no end; else YYYY-MM-DD, after which the entry fails the run
  SourceLoc loc;         ///< where the entry is written
  bool expired = false;  ///< applied past `until`: the scenario's failure fails the run again
};

struct ScenarioResult {
  std::string id, title, spec, requirement;
  Level level = Level::kMust;
  /// The protocol revision the scenario was judged under (the one the handshake settled, else
  /// the one offered), and the sentence of that revision's text it cites; "" for a protocol
  /// without revisions.
  std::string revision, sentence;
  std::vector<std::string> tags;
  SourceLoc loc;
  Status status = Status::kNotRun;
  std::string skip_reason;
  double duration_ms = 0;
  std::size_t steps_run = 0, steps_total = 0;
  std::vector<Failure> failures;
  std::vector<result::TranscriptEntry> transcript;
  /// Frames the transcript had but `transcript` does not hold: a JSON report keeps only the
  /// transcripts of scenarios that did not pass, so one read back counts the rest here.
  std::size_t transcript_elided = 0;
  std::string stderr_tail;
  std::uint64_t stderr_bytes_dropped = 0;
  ExitInfo exit;
  /// The expected-failures entry that made this result xfail or stale, or that had expired.
  std::optional<ExpectedFailure> expected_failure;
};

/// pass/fail/warn/error from the failures: an error wins, then a must-level miss (or a
/// should-level one under `strict`), then a should-level miss is a warning.
Status Grade(const std::vector<Failure>& failures, bool strict);

}  // namespace fakehost::result
