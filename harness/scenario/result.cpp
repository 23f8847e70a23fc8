#include "harness/scenario/result.hpp"

namespace fakehost::scenario {

const char* StatusName(Status status) {
  switch (status) {
    case Status::kPass:
      return "pass";
    case Status::kFail:
      return "fail";
    case Status::kWarn:
      return "warn";
    case Status::kSkip:
      return "skip";
    case Status::kError:
      return "error";
    case Status::kUntested:
      return "untested";
    case Status::kNotRun:
      break;
  }
  return "not-run";
}

ScenarioResult ResultFor(const Scenario& scenario, Status status) {
  ScenarioResult r;
  r.id = scenario.id;
  r.title = scenario.title;
  r.spec = scenario.spec;
  r.requirement = scenario.requirement;
  r.level = scenario.level;
  r.tags = scenario.tags;
  r.loc = scenario.loc;
  r.steps_total = scenario.steps.size();
  r.status = status;
  return r;
}

Status Grade(const std::vector<Failure>& failures, bool strict) {
  bool fail = false, warn = false;
  for (const auto& f : failures) {
    if (f.harness_error) return Status::kError;
    if (f.level == Level::kMust || (strict && f.level == Level::kShould))
      fail = true;
    else if (f.level == Level::kShould)
      warn = true;
  }
  return fail ? Status::kFail : warn ? Status::kWarn : Status::kPass;
}

}  // namespace fakehost::scenario
