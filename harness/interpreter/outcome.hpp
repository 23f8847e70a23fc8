// What a scenario's play learns about its own verdict besides its failures, and the one place
// that turns it into the result's status and reason.
//
// Steps and settling report what they find as it happens: the scenario does not apply (not
// applicable) or cannot be exercised (a trigger missing), so the steps stop; something it
// scripts was never exercised; its checks fell away; a check ran; a miss came before any
// made-up answer. Apply() then grades once, in one order of precedence, so "why is my scenario
// untested rather than failed?" is answered here.
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "harness/result/result.hpp"

namespace fakehost::interpreter {

class Outcome {
 public:
  /// The steps stop here: the scenario does not apply (kSkip) or cannot be exercised
  /// (kUntested), whatever was recorded before. The first call decides.
  void EndEarly(result::Status status, std::string why);
  bool ended_early() const { return ended_early_.has_value(); }
  /// Something the scenario scripts was not exercised, or not judged; the first reason stays.
  void Untested(std::string why);
  /// The scenario's checks fell away (an empty for_each); the first reason stays.
  void NotApplicable(std::string why);
  /// A step that checks the plugin ran (not set-up from a fragment).
  void Checked() { ++checks_; }
  /// The failure at `index` is a step's miss from before the fake host made up any answer: it
  /// cannot be that answer's fault.
  void MissBeforeStandIn(std::size_t index) { misses_before_stand_in_.insert(index); }
  bool MissedBeforeStandIn(std::size_t index) const {
    return misses_before_stand_in_.count(index) != 0;
  }

  /// What only the end of the play knows.
  struct End {
    bool interrupted = false;
    bool strict = false;
    /// Why a failed scenario is the fake host's made-up answer's doing, if it may be (a stand-in
    /// answered and every failing miss came after it); "" when not.
    std::string stand_in = {};
    /// Why a scenario that scripts the host's answer to every call exercised none; "" when it
    /// did, or scripts none.
    std::string wildcard_unused = {};
  };
  /// The result's status and skip_reason from its failures and what was reported, in this
  /// order: an interrupted run is not run; else the failures are graded; a failure that may be a
  /// stand-in's is untested; a scenario that ended early is what it ended as (its failures on
  /// the way dropped: they were not its); a pass that left something unexercised is untested; a
  /// pass that checked nothing is not applicable.
  void Apply(const End& end, result::ScenarioResult* result) const;

 private:
  std::optional<std::pair<result::Status, std::string>> ended_early_;
  std::string untested_;
  std::string not_applicable_;
  std::size_t checks_ = 0;
  std::set<std::size_t> misses_before_stand_in_;
};

}  // namespace fakehost::interpreter
