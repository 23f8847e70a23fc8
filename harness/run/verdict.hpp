// The verdict of a run's report: 0 or 1. Shared by run::Execute and `fakehost report merge`, so
// that a merged report of shards is judged exactly as the unsharded run.
#pragma once

#include <ostream>

#include "harness/result/run_report.hpp"

namespace fakehost::run {

struct VerdictRules {
  bool fail_untested = false;  ///< --fail-untested: a scenario left untested fails the run
  /// A shard judges only its own failures: that nothing at all was checked is for the merged
  /// report to say, since one shard may hold only scenarios the plugin has no trigger for.
  bool shard = false;
};

/// kFailures or kOk for `report` (its summary filled in), with the reason on `err` when it is
/// not a plain failed scenario. A harness error (kHarnessError) is the caller's to decide first.
int Verdict(const result::RunReport& report, const VerdictRules& rules, std::ostream& err);

}  // namespace fakehost::run
