// Known-failure baselines (`fakehost run --expected-failures FILE`): the failures a plugin author
// knows of and cannot fix yet, each with why, so that CI stays green on them and turns red both
// on a new failure and on a listed one that passes again (stale), as MCP conformance's
// --expected-failures and pytest's xfail(strict=True) do. `--skip` hides a scenario for good;
// a baseline keeps playing it.
//
// The file is YAML, a list of entries:
//   - id: shutdown/exits-promptly   # a scenario id, or a glob as --only takes
//     reason: "waits for its worker thread; fixed in 2.1"   # required
//     kind: step                    # optional: only failures whose check is this
//     until: 2027-01-31             # optional: after this date (UTC) the entry fails the run
//
// This unit loads one (errors with file:line:col), applies it to results (statuses xfail and
// stale) and writes one from a run's failures.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "harness/result/result.hpp"
#include "harness/scenario/load_error.hpp"

namespace fakehost::run {

struct ExpectedFailures {
  std::string file;
  std::vector<result::ExpectedFailure> entries;  ///< in file order
};

/// The check id of the failure added to a stale result or an expired entry's failing one.
inline constexpr const char* kExpectedFailureCheck = "expected-failure";

/// Parses a baseline's text (`file` names it in messages): a YAML list of maps with keys id,
/// reason (both non-empty strings), kind (a non-empty string), until (a date YYYY-MM-DD). An
/// empty document is an empty list. Unknown keys, missing ones, wrong types, bad dates and an
/// id listed twice with the same kind are errors at their place.
bool ParseExpectedFailures(std::string_view text, const std::string& file, ExpectedFailures* out,
                           std::vector<scenario::LoadError>* errors);

/// Reads `path` (size-capped) and parses it.
bool ReadExpectedFailures(const std::string& path, ExpectedFailures* out,
                          std::vector<scenario::LoadError>* errors);

/// Every entry names (or its glob matches) at least one of `suite_ids`: the whole suite, not
/// the selection, so --only and shards leave a baseline valid. An error at each entry's id that
/// matches none.
bool CheckExpectedFailures(const ExpectedFailures& baseline,
                           const std::vector<std::string>& suite_ids,
                           std::vector<scenario::LoadError>* errors);

/// ReadExpectedFailures, then CheckExpectedFailures against the ids of `suite`.
bool LoadExpectedFailures(const std::string& path, const std::vector<scenario::Scenario>& suite,
                          ExpectedFailures* out, std::vector<scenario::LoadError>* errors);

struct ApplyOptions {
  bool strict = false;  ///< a warning is a failure (as --strict grades it)
  std::string today;    ///< YYYY-MM-DD, UTC: entries whose `until` is before it have expired
};

/// Applies the first entry matching the result's id (in file order) that fits it:
///  - a failing result (fail, or warn under strict) becomes xfail when the entry has no kind or
///    every failure that fails it has that check; its failures stay. If the entry has expired
///    it stays failing (fail) with a failure naming the entry put first, so every report says
///    why a known failure fails the run again.
///  - a passing result becomes stale, with a failure naming the entry ("passes now").
///  - error, skip, untested, not-run, and warn without strict are left as they are.
/// A result that already carries an entry is left alone, so applying twice changes nothing.
void ApplyExpectedFailures(const ExpectedFailures& baseline, const ApplyOptions& options,
                           result::ScenarioResult* result);
void ApplyExpectedFailures(const ExpectedFailures& baseline, const ApplyOptions& options,
                           std::vector<result::ScenarioResult>* results);

/// A baseline listing the failing results (fail, warn under `strict`, and xfail), sorted by id,
/// each with its reason: that of the entry that applied, else its first failure's message on
/// one line. Ids under a prefix P/ are written as the glob "P/*" when every id of the suite
/// below P/ is listed (never one that would also match a passing or unselected scenario). Loaded
/// back, it turns the same run's failures into xfail. `header` is written as comment lines.
std::string WriteExpectedFailures(const std::vector<result::ScenarioResult>& results,
                                  const std::vector<std::string>& suite_ids, bool strict,
                                  const std::string& header);

/// Today's date in UTC, YYYY-MM-DD.
std::string TodayUtc();

}  // namespace fakehost::run
