// The run report's one computation: the summary its scenarios add up to.
#include "harness/result/run_report.hpp"

namespace fakehost::result {

void Summarise(RunReport* report) {
  Summary s;
  s.duration_ms = report->summary.duration_ms;
  for (const auto& r : report->scenarios) {
    ++s.total;
    switch (r.status) {
      case result::Status::kPass:
        ++s.passed;
        break;
      case result::Status::kFail:
        ++s.failed;
        break;
      case result::Status::kWarn:
        ++s.warned;
        break;
      case result::Status::kSkip:
        ++s.skipped;
        break;
      case result::Status::kError:
        ++s.errored;
        break;
      case result::Status::kNotRun:
        ++s.not_run;
        break;
      case result::Status::kUntested:
        ++s.untested;
        break;
      case result::Status::kXfail:
        ++s.xfailed;
        break;
      case result::Status::kStale:
        ++s.stale;
        break;
    }
  }
  report->summary = s;
}

}  // namespace fakehost::result
