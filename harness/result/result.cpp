#include "harness/result/result.hpp"

namespace fakehost::result {

// Each status once, in the enum's order (so a missing or doubled one cannot go unnoticed).
static_assert([] {
  for (std::size_t i = 0; i < kStatusNames.size(); ++i)
    if (static_cast<std::size_t>(kStatusNames[i].status) != i) return false;
  return true;
}());

bool WasJudged(Status status) {
  return status != Status::kSkip && status != Status::kNotRun && status != Status::kUntested;
}

const char* StatusName(Status status) {
  for (const StatusNameEntry& e : kStatusNames)
    if (e.status == status) return e.name.data();  // every name is a literal: NUL-terminated
  return "not-run";
}

bool ParseStatus(std::string_view name, Status* status) {
  for (const StatusNameEntry& e : kStatusNames) {
    if (name == e.name) {
      *status = e.status;
      return true;
    }
  }
  return false;
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

}  // namespace fakehost::result
