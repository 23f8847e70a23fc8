// What one step plays on: the session, what its templates can name, what the play learns of its
// verdict, the profile and the plugin, the step itself and its number, and the scenario's hard
// limit. The Player makes one for each step it runs (Player::ContextFor); a step's body
// (steps.hpp) is a function over it, and records a miss, a scenario bug or a check through it.
// Internal to the interpreter; interpreter.hpp is the interface.
#pragma once

#include <algorithm>
#include <atomic>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/interpreter/bindings.hpp"
#include "harness/interpreter/interpreter.hpp"
#include "harness/interpreter/outcome.hpp"
#include "harness/json/rapidjson.hpp"
#include "harness/process/stand_in.hpp"
#include "harness/scenario/matcher.hpp"
#include "harness/session/session.hpp"

namespace fakehost::interpreter {

// The scenario model's names, which the player's and the steps' files use on nearly every line.
// Listed once here, in the header internal to the interpreter that all of those files include,
// so that a reader sees which names come from the scenario layer; the interpreter's public
// headers qualify them in full.
using protocol::MessageKind;
using result::Failure;
using result::Level;
using result::Reason;
using result::ScenarioResult;
using result::Status;
using scenario::Answer;
using scenario::Cite;
using scenario::CloseStdin;
using scenario::Expect;
using scenario::ExpectExit;
using scenario::ExpectNone;
using scenario::Filter;
using scenario::ForEach;
using scenario::JsonPtr;
using scenario::KillParent;
using scenario::Mismatch;
using scenario::Ms;
using scenario::Requirement;
using scenario::Scenario;
using scenario::Send;
using scenario::SendRaw;
using scenario::Shutdown;
using scenario::Signal;
using scenario::Sleep;
using scenario::Step;
using session::Inbound;

class Player;

/// "250 ms".
std::string MsText(Ms ms);
std::string MsText(double ms);
/// The mismatches as one "; "-separated sentence.
std::string Join(const std::vector<Mismatch>& mismatches);
/// The reason a scenario that scripts the host's answer to "*" is untested when the plugin's
/// calls were all ones the host answers by itself (RIM rim.log, Flash storage).
std::string WildcardUnused(const PluginTarget& plugin);

/// How a frame fits what a step waits for: not at all, wholly, or by kind but not content.
enum class Fit { kNo, kYes, kWrongContent };

/// Patterns of a filter with the variables filled in, once per step.
struct Patterns {
  rapidjson::Document result, error, params, message;
  bool has_result = false, has_error = false, has_params = false, has_message = false;
};

/// The scenario's hard limit: every wait ends by `deadline`. It starts once the plugin runs;
/// for_each may move it on, up to `ceiling`.
struct HardLimit {
  Ms limit{0};
  Clock::time_point deadline = {};
  /// What for_each may extend the deadline to, at most: the profile's scenario_timeout_max_ms
  /// from the spawn (or the hard limit, if that is longer).
  Clock::time_point ceiling = {};

  /// `wanted`, cut to the deadline.
  Clock::time_point Cap(Clock::time_point wanted) const { return std::min(wanted, deadline); }
  /// Whether a wait for `wanted` ended at the hard limit rather than at its own end.
  bool Hit(Clock::time_point wanted) const { return wanted > deadline && Clock::now() >= deadline; }
  /// "the scenario reached its hard limit of 30000 ms": a kHardLimit miss's words.
  std::string Text() const { return "the scenario reached its hard limit of " + MsText(limit); }
};

/// One step's view of the play, made by Player::ContextFor: its references are the Player's, and
/// it lives while the step runs.
struct StepContext {
  const Scenario& scenario;
  const protocol::Profile& profile;
  const PluginTarget& plugin;
  session::Session& session;
  /// Variables, named requests, captures and the for_each item (bindings.hpp).
  Bindings& bindings;
  /// What the play learns of its own verdict besides the failures (outcome.hpp).
  Outcome& outcome;
  /// Where a miss goes; a `shutdown` step grades the exit in it.
  ScenarioResult& result;
  HardLimit& limit;
  const std::string& revision;           ///< the revision in play
  process::StandInParent& stand_in;      ///< the plugin's "host" when a step kills it
  const std::atomic<bool>* interrupted;  ///< set from outside (SIGINT); may be null
  /// The step loop, which a for_each plays its steps through (Player::RunSteps).
  Player& player;
  const Step& step;
  std::size_t number;  ///< the step's number in the scenario, from 1

  bool Interrupted() const { return interrupted && interrupted->load(); }
  /// Records a miss at this step for `reason`; returns true if the steps may go on (a
  /// should/may-level miss).
  bool Miss(Reason reason, std::string message, std::string expected = {}, std::string actual = {},
            std::optional<std::size_t> frame = {});
  /// Records the scenario's own bug at this step (a harness error); returns false.
  bool ScenarioBug(std::string message);
  /// Counts a step that checks the plugin (not set-up from a fragment).
  void Checked() {
    if (!step.from_fragment) outcome.Checked();
  }
  const rapidjson::Value* Lookup(std::string_view path) const { return bindings.Lookup(path); }
  /// `templ` with the variables filled in (null: null); false with a scenario bug recorded.
  bool Instantiate(const JsonPtr& templ, rapidjson::Document* out);
  bool InstantiatePatterns(const Filter& filter, Patterns* out);
  /// Adds the members the revision in play puts in every request (profile request_members) that
  /// the request `msg` does not have. False (a scenario bug recorded) if a template fails.
  bool AddRevisionMembers(rapidjson::Document* msg);
  /// `untested` (may be null) gets what a matcher operator could not judge (matcher.hpp).
  Fit Check(const Filter& filter, const Patterns& patterns, const Inbound& message,
            std::vector<Mismatch>* why, std::vector<std::string>* untested = nullptr) const;
  std::string Describe(const Filter& filter) const;
  std::string Summarise(const Inbound& message) const;

 private:
  /// The level of a step that names none: the scenario's, under the revision in play.
  Level StepLevel() const;
  std::string NoteText(const std::string& note) const;  ///< the step's note, variables filled in
};

}  // namespace fakehost::interpreter
