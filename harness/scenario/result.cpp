#include "harness/scenario/result.hpp"

namespace fakehost::scenario {

namespace {

// Every status and its name in reports, once: StatusName and ParseStatus both read this table,
// so a status added here is written and read back alike.
struct StatusEntry {
  Status status;
  const char* name;
};
constexpr StatusEntry kStatusNames[] = {
    {Status::kPass, "pass"},         {Status::kFail, "fail"},   {Status::kWarn, "warn"},
    {Status::kSkip, "skip"},         {Status::kError, "error"}, {Status::kNotRun, "not-run"},
    {Status::kUntested, "untested"},
};

}  // namespace

const char* StatusName(Status status) {
  for (const StatusEntry& e : kStatusNames)
    if (e.status == status) return e.name;
  return "not-run";
}

bool ParseStatus(std::string_view name, Status* status) {
  for (const StatusEntry& e : kStatusNames) {
    if (name == e.name) {
      *status = e.status;
      return true;
    }
  }
  return false;
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
