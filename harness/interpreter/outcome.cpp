#include "harness/interpreter/outcome.hpp"

namespace fakehost::interpreter {

void Outcome::EndEarly(result::Status status, std::string why) {
  if (!ended_early_) ended_early_.emplace(status, std::move(why));
}

void Outcome::Untested(std::string why) {
  if (untested_.empty()) untested_ = std::move(why);
}

void Outcome::NotApplicable(std::string why) {
  if (not_applicable_.empty()) not_applicable_ = std::move(why);
}

void Outcome::Apply(const End& end, result::ScenarioResult* r) const {
  auto set = [r](result::Status status, std::string reason) {
    r->status = status;
    r->skip_reason = std::move(reason);
  };
  if (end.interrupted) {
    set(result::Status::kNotRun, "interrupted");
    return;
  }
  r->status = Grade(r->failures, end.strict);
  if (r->status == result::Status::kFail && !end.stand_in.empty())
    set(result::Status::kUntested, end.stand_in);
  if (ended_early_ && r->status != result::Status::kError) {
    // The steps stopped cleanly at the handshake answer: nothing after it was checked, so what
    // may have been found on the way (before the scenario knew it does not apply) is not its.
    set(ended_early_->first, ended_early_->second);
    r->failures.clear();
    return;
  }
  if (r->status != result::Status::kPass) return;
  // A scenario passes only if it checked something the plugin did.
  if (!untested_.empty())
    set(result::Status::kUntested, untested_);
  else if (!end.wildcard_unused.empty())
    set(result::Status::kUntested, end.wildcard_unused);
  else if (checks_ == 0)
    set(result::Status::kSkip, !not_applicable_.empty()
                                   ? not_applicable_
                                   : "none of this scenario's checks applied to this plugin");
}

}  // namespace fakehost::interpreter
