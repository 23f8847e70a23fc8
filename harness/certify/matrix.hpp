// The certification matrix: plugins × scenarios, the model every certify writer reads.
//
// A cell keeps only what the matrix shows (status, a one-line cause, where the miss is), never
// the scenario's transcript: certify streams results, so memory grows with the number of cells,
// not with the traffic. A plugin that cannot be run at all (its manifest is unreadable, its
// entrypoint will not execute, its fakehost.yaml has errors) is still a row, with that verdict.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "harness/result/result.hpp"

namespace fakehost::certify {

/// One plugin × scenario outcome.
struct Cell {
  result::Status status = result::Status::kNotRun;
  std::string cause;     ///< one line: the headline miss, or why it was not run; "" for a pass
  std::string location;  ///< the step that missed ("file:line:col"), and "frame #N" when known
  double duration_ms = 0;
  /// The protocol revision the cell was judged under (a protocol with revisions, a scenario
  /// that was judged); "" otherwise.
  std::string revision;
};

/// A scenario column: what it checks, shown once in the failure details.
struct Column {
  std::string id, title, spec, requirement;
};

/// What a plugin row amounts to. kUnrunnable: nothing could be spawned (see Row::detail).
enum class Verdict { kPass, kFail, kError, kRefused, kUnrunnable, kUntested };
/// "pass", "fail", "error", "refused", "unrunnable", "untested"
const char* VerdictName(Verdict v);
/// False for an unknown name.
bool ParseVerdict(std::string_view name, Verdict* out);
/// pass and warn pass; skip, untested and not-run say nothing either way.
bool IsFailing(result::Status s);
bool IsFailing(Verdict v);

/// A frame the candidate schema rejects: which plugin, which scenario, which frame.
struct Rejection {
  std::string scenario;
  std::size_t frame = 0;    ///< transcript index
  bool from_plugin = true;  ///< plugin → host (else host → plugin)
  std::string def;          ///< the candidate $defs entry it was routed to
  std::vector<std::pair<std::string, std::string>> violations;  ///< (pointer, message)
};

struct Row {
  std::string key;  ///< the plugin's id, or its directory when it has none (unique per matrix)
  std::string id, version, dir;
  Verdict verdict = Verdict::kUntested;
  std::string detail;                 ///< why it was refused or unrunnable; "" otherwise
  std::string probe;                  ///< what the run's revision probe found; "" without one
  std::map<std::string, Cell> cells;  ///< by scenario id; a missing one was not selected
  /// Candidate-schema re-validation (--schema): frames checked, frames rejected, frames that
  /// could not be re-checked (clipped or summarised in the transcript), and the first rejections.
  std::size_t frames_checked = 0, frames_rejected = 0, frames_unchecked = 0;
  std::vector<Rejection> rejections;
};

/// --since: how this matrix differs from a previous one. Failing is fail or error (cell) or a
/// failing verdict (row); a cell that newly fails also counts when it did not exist before.
struct Change {
  std::string plugin;         ///< row key
  std::string scenario;       ///< "" for the row's verdict
  std::string before, after;  ///< status or verdict names; "" = absent
};
struct Diff {
  bool computed = false;
  std::string since;  ///< the previous matrix's path
  std::vector<Change> newly_failing, newly_passing;
  std::vector<std::string> plugins_appeared, plugins_vanished;
  std::vector<std::string> scenarios_appeared, scenarios_vanished;
};

struct Matrix {
  std::string tool_version, protocol, suite, started_at;
  int jobs = 1;
  std::string shard;                ///< "K/N" or ""
  std::vector<int> missing_shards;  ///< a merge with --allow-partial: the shards it lacked
  std::string candidate;            ///< --schema path, "" when not given
  std::vector<Column> columns;      ///< in id order
  std::vector<Row> rows;            ///< in key order
  double duration_ms = 0;
  Diff diff;
};

/// The cell for a finished scenario (cause clipped to one line of at most 300 bytes).
Cell CellFor(const result::ScenarioResult& r, bool strict);
/// The row's verdict from its cells (kRefused/kUnrunnable are set by whoever resolved it):
/// error if any cell errored, fail if any failed, untested if nothing passed, failed or
/// warned, else pass. Leaves kRefused and kUnrunnable as they are.
void Grade(Row* row);
/// Sorts rows by key and gives rows with the same key a " (dir)" suffix.
void Finish(Matrix* m);

/// What changed from `previous` to `current`.
Diff Compare(const Matrix& previous, const Matrix& current);

/// Plugins, scenarios and cells counted for summaries.
struct Totals {
  int plugins = 0, passing = 0, failing = 0, rejected_by_candidate = 0;
  std::map<result::Status, int> cells;
};
Totals Count(const Matrix& m);
/// The plugin × revision view of a row: "2024-11-05: 26 judged, 2 failing", one per revision
/// its cells were judged under, oldest first; "" for a protocol without revisions.
std::string RevisionsJudged(const Row& r);

/// 0 when nothing fails: with a diff, nothing newly fails; without, every plugin passes. A frame
/// the candidate schema rejects always fails.
int ExitCode(const Matrix& m);

/// Shards read back from JSON (`sources[i]` names parts[i] in messages), one matrix: same
/// protocol, suite, candidate and fakehost version required; each part must be shard K/N of one
/// N, each K once, and every K present unless `allow_partial` (then out->missing_shards lists the
/// absent ones); columns united, rows concatenated (a plugin in two shards is an error). False
/// with `*error`.
bool Merge(std::vector<Matrix> parts, const std::vector<std::string>& sources, bool allow_partial,
           Matrix* out, std::string* error);

}  // namespace fakehost::certify
