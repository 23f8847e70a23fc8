// The end of a run, shared by `fakehost run` and `fakehost report merge` so that a merged report
// of shards is written and judged exactly as the unsharded run's: its report files and its exit
// code.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "harness/run/run_report.hpp"

namespace fakehost::report {
class Reporter;
}

namespace fakehost::cli {

struct VerdictRules {
  bool fail_untested = false;  ///< --fail-untested: a scenario left untested fails the run
  /// A shard judges only its own failures: that nothing at all was checked is for the merged
  /// report to say, since one shard may hold only scenarios the plugin has no trigger for.
  bool shard = false;
};

/// kFailures or kOk for `report` (its summary filled in), with the reason on `err` when it is
/// not a plain failed scenario. A harness error (kHarnessError) is the caller's to decide first.
int Verdict(const run::RunReport& report, const VerdictRules& rules, std::ostream& err);

/// The file reporters of a run: OUT_DIR/report.json, each `--report FORMAT=PATH`, and the
/// transcripts when `transcripts_dir` is given. False, with the message on `err` naming the flag,
/// for a spec that is not FORMAT=PATH, an unknown format, or a destination that cannot be
/// written (report/destination.hpp): checked before anything runs.
bool MakeReporters(const std::string& out_dir, const std::vector<std::string>& specs,
                   const std::string& transcripts_dir,
                   std::vector<std::unique_ptr<report::Reporter>>* files, std::ostream& err);

/// Writes every file; false (each failure on `err`) if one could not be written.
bool WriteReports(const std::vector<std::unique_ptr<report::Reporter>>& files,
                  const run::RunReport& report, std::ostream& err);

}  // namespace fakehost::cli
