// The run report's one computation: the summary its scenarios add up to.
#include "harness/result/run_report.hpp"

namespace fakehost::run {

void Summarise(RunReport* report) {
  Summary s;
  s.duration_ms = report->summary.duration_ms;
  for (const auto& r : report->scenarios) {
    ++s.total;
    switch (r.status) {
      case scenario::Status::kPass:
        ++s.passed;
        break;
      case scenario::Status::kFail:
        ++s.failed;
        break;
      case scenario::Status::kWarn:
        ++s.warned;
        break;
      case scenario::Status::kSkip:
        ++s.skipped;
        break;
      case scenario::Status::kError:
        ++s.errored;
        break;
      case scenario::Status::kNotRun:
        ++s.not_run;
        break;
      case scenario::Status::kUntested:
        ++s.untested;
        break;
      case scenario::Status::kXfail:
        ++s.xfailed;
        break;
      case scenario::Status::kStale:
        ++s.stale;
        break;
    }
  }
  report->summary = s;
}

}  // namespace fakehost::run
