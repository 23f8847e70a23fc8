// The step loop: what is settled before each step, and the context each step plays on (see
// player.hpp). The steps' bodies are steps.hpp's.
#include "harness/interpreter/player.hpp"

#include "harness/interpreter/steps.hpp"

namespace fakehost::interpreter {

StepContext Player::ContextFor(const Step& step, std::size_t number) {
  return StepContext{.scenario = scenario_,
                     .profile = profile_,
                     .plugin = plugin_,
                     .session = session_,
                     .bindings = bindings_,
                     .outcome = outcome_,
                     .result = result_,
                     .limit = limit_,
                     .revision = revision_,
                     .stand_in = stand_in_,
                     .interrupted = options_.interrupted,
                     .player = *this,
                     .step = step,
                     .number = number};
}

bool Player::MayRun(const Step& step) {
  if (!SettleRevision() || !SettleAnnouncements()) return false;
  if (!deferred_missing_.empty() && SendsMissingTrigger(step)) {
    // Reached before the announcements were read (a scenario that sends the trigger before
    // the handshake): untested, as if the trigger had been missed before the spawn.
    outcome_.EndEarly(Status::kUntested, deferred_missing_);
    return false;
  }
  if (Clock::now() < limit_.deadline) return true;
  ContextFor(step, step_number_)
      .Miss(Reason::kHardLimit, limit_.Text() + " before this step could run");
  result_.failures.back().level = Level::kMust;
  // Before its first step the plugin was asked nothing: the time went to this machine, not to
  // the plugin, so that is the harness's trouble, never the plugin's failure.
  if (step_number_ == 0) {
    result_.failures.back().harness_error = true;
    result_.failures.back().message += " (no step had run: the machine was too busy)";
  }
  return false;
}

bool Player::RunSteps(const std::vector<Step>& steps) {
  for (const Step& step : steps) {
    if (Interrupted() || !MayRun(step)) return false;
    if (SkipsForNoneTrigger(step)) continue;
    StepContext ctx = ContextFor(step, ++step_number_);
    if (!PlayBody(ctx)) return false;
  }
  return true;
}

}  // namespace fakehost::interpreter
