// The run report's one computation: the summary its scenarios add up to.
#include "harness/result/run_report.hpp"

#include <array>

namespace fakehost::result {
namespace {

// Each status's counter, in the enum's order (kStatusNames checks that order).
constexpr std::array<int Summary::*, kStatusNames.size()> kCounters = {
    &Summary::passed,  &Summary::failed,   &Summary::warned,  &Summary::skipped, &Summary::errored,
    &Summary::not_run, &Summary::untested, &Summary::xfailed, &Summary::stale,
};

}  // namespace

void Summarise(RunReport* report) {
  Summary s;
  s.duration_ms = report->summary.duration_ms;
  for (const ScenarioResult& r : report->scenarios) {
    ++s.total;
    ++(s.*kCounters[static_cast<std::size_t>(r.status)]);
  }
  report->summary = s;
}

}  // namespace fakehost::result
