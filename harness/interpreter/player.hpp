// The player of one scenario, shared by the files that hold its parts (what it learns of its
// verdict is outcome.hpp's, what its templates can name bindings.hpp's):
//   player.cpp         the step loop, variables, matching and how a miss is recorded
//   player_prepare.cpp what is settled before the plugin is spawned (applicability, triggers,
//                      variables); who answers the plugin's requests is answer_policy.hpp's
//   player_run.cpp     prepare / play / teardown / assemble, and Play()
//   steps_send.cpp     steps that send: send, send_raw, answer
//   steps_expect.cpp   steps that wait for frames: expect, expect_none
//   steps_exit.cpp     steps about the process: expect_exit, shutdown
// Internal to the interpreter; interpreter.hpp is the interface.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "harness/interpreter/bindings.hpp"
#include "harness/interpreter/interpreter.hpp"
#include "harness/interpreter/outcome.hpp"
#include "harness/json/rapidjson.hpp"
#include "harness/process/stand_in.hpp"
#include "harness/scenario/matcher.hpp"
#include "harness/session/session.hpp"

namespace fakehost::interpreter {

// The scenario model's names, which the player's files use on nearly every line. Listed once
// here, in the header internal to the player, so that a reader sees which names come from the
// scenario layer; the interpreter's public headers qualify them in full.
using protocol::MessageKind;
using scenario::Answer;
using scenario::Cite;
using scenario::CloseStdin;
using scenario::Expect;
using scenario::ExpectExit;
using scenario::ExpectNone;
using scenario::Failure;
using scenario::Filter;
using scenario::ForEach;
using scenario::JsonPtr;
using scenario::KillParent;
using scenario::Level;
using scenario::Mismatch;
using scenario::Ms;
using scenario::Requirement;
using scenario::Scenario;
using scenario::ScenarioResult;
using scenario::Send;
using scenario::SendRaw;
using scenario::Shutdown;
using scenario::Signal;
using scenario::Sleep;
using scenario::Status;
using scenario::Step;
using session::Inbound;
using session::Reason;

/// "250 ms".
std::string MsText(Ms ms);
std::string MsText(double ms);
/// The mismatches as one "; "-separated sentence.
std::string Join(const std::vector<Mismatch>& mismatches);
/// Whether a manifest value declares nothing. A present object declares its surface even when
/// it is {} (Flash's `query: {}` and `hints: {}` declare an evaluator and a hints provider).
bool IsEmptyValue(const rapidjson::Value& v);

/// How a frame fits what a step waits for: not at all, wholly, or by kind but not content.
enum class Fit { kNo, kYes, kWrongContent };

// Patterns of a filter with the variables filled in, once per step.
struct Patterns {
  rapidjson::Document result, error, params, message;
  bool has_result = false, has_error = false, has_params = false, has_message = false;
};

/// The session a scenario plays on: the plugin's manifest (the host grants from it where the
/// profile says so) and, in tests, a fake child.
inline session::Session::Options SessionOptions(const PluginTarget& plugin,
                                                const PlayOptions& play) {
  session::Session::Options options;
  options.manifest = plugin.manifest;
  options.spawn = play.spawn;
  options.interrupted = play.interrupted;
  if (play.transcript_text_cap) options.transcript_text_cap = play.transcript_text_cap;
  return options;
}

class Player {
 public:
  Player(const Scenario& scenario, const protocol::Profile& profile,
         const schema::FrameSchema* schema, const PluginTarget& plugin, const PlayOptions& options)
      : scenario_(scenario),
        profile_(profile),
        plugin_(plugin),
        options_(options),
        session_(profile, schema, SessionOptions(plugin, options)) {}

  /// Prepare, then play, tear down and assemble: the scenario's result.
  ScenarioResult Run();

 private:
  /// Settles what can be settled without the plugin: false when the scenario does not apply,
  /// is untested or cannot be set up (the result says which).
  bool Prepare();
  /// The revision to play under, put in play (Prepare's first part): false when the scenario
  /// does not apply, or cites revisions the profile does not know (the result says which).
  bool PrepareRevision();
  /// Spawns the plugin and plays the steps, then checks that every request had its answer.
  void PlaySteps();
  /// Whether a host request is still owed its answer.
  bool Unanswered() const;
  /// Waits until every open request is answered or the last of their deadlines passes.
  void AwaitOpenRequests();
  /// A failure for every request still owed its answer.
  void FailUnanswered();
  /// Stops the plugin if no `shutdown` step did (an ungraded teardown).
  void Teardown();
  /// Turns the session's findings, exit and transcript into the result, and grades it.
  void Assemble();

  bool RunSteps(const std::vector<Step>& steps);
  bool RunStep(const Step& step);
  bool DoSend(const Step& step, const Send& send);
  /// A `send: {trigger: NAME}` as the request it sends: the plugin's method and params, the
  /// step's params merged in. False, with the scenario's bug reported, for a trigger it lacks.
  bool ResolveTrigger(const Step& step, const Send& send, Send* resolved);
  /// The deadline a send step's request carries (its deadline_ms, else the manifest's), put in
  /// the profile's deadline member of `msg`. False, with the scenario's bug reported, for a bad
  /// deadline_ms.
  bool SendDeadline(const Step& step, const Send& send, rapidjson::Document* msg,
                    std::optional<Ms>* deadline);
  /// A `send: {retry: CAPTURE}` as the request it resends: method, and params with the fake
  /// host's input answers and the state laid in (the profile's input_required). False, with the
  /// scenario's bug reported, when the capture answers no named request or asked for nothing.
  bool ResolveRetry(const Step& step, const Send& send, Send* resolved);
  /// Grows the string at the step's pad_at so `msg` is exactly pad_to bytes.
  bool PadFrame(const Step& step, const Send& send, rapidjson::Document* msg);
  bool DoSendRaw(const Step& step, const SendRaw& raw);
  /// A send_raw step's bytes, framed as it asks (a claimed length noted in `note`); `honest`:
  /// framed with their true length, so the plugin reads the messages in them.
  std::string RawBytes(const SendRaw& raw, std::string* note, bool* honest) const;
  /// The messages the profile's framing delimits in `bytes`, parsed (nullopt: not JSON).
  std::vector<std::optional<rapidjson::Document>> MessagesIn(const std::string& bytes) const;
  /// Names the requests of a send_raw step's `as:`, one per message written as frame `index`.
  bool NameRawRequests(const Step& step, const SendRaw& raw, std::size_t index,
                       const std::vector<std::optional<rapidjson::Document>>& messages);
  /// DoSendRaw for unframed bytes that repeat within every chunk: never built whole. False,
  /// with nothing written, for other bytes.
  bool DoSendRawRepeated(const SendRaw& raw);
  /// When the plugin's first frame arrived, in ms since its spawn (its first sign of life).
  double FirstFrameMs() const;
  /// An expect step: its window (ExpectWindowOf), the wait, then what was found judged
  /// (JudgeFound) or the miss worded (ExpectMissed).
  bool DoExpect(const Step& step, const Expect& expect);
  /// Where an expect step's wait starts and ends. `serving`: a frame the plugin sends on its own
  /// while it serves a host request may come until that request's deadline (ServingUntil).
  struct ExpectWindow {
    Clock::time_point start, base;
    Ms within{0};
    bool serving = false;
    Clock::time_point Until(const Player& p) const {
      return serving ? std::max(base + within, p.ServingUntil(start)) : base + within;
    }
  };
  /// False, with the scenario's bug reported, when reply_to names no request.
  bool ExpectWindowOf(const Step& step, const Expect& expect, ExpectWindow* out);
  /// What an expect step saw while it waited: how the frame it took fits, that frame's
  /// mismatches and what an operator could not judge in it, and the nearest miss to report if it
  /// took none. Filled by ExpectSees, the step's look at each message.
  struct ExpectSight {
    const Expect& expect;
    const Patterns& patterns;
    std::size_t taken_after = 0;  ///< after: NAME takes only frames after this one
    Fit fit = Fit::kNo;
    std::vector<Mismatch> why = {};
    std::vector<std::string> unjudged = {};
    std::string nearest = {};
  };
  bool ExpectSees(ExpectSight& sight, const Inbound& in) const;
  /// Reads the plugin's messages, oldest first, until ExpectSees takes one (taken from the
  /// inbox: nullopt if none). `wanted`, the end of the wait, moves with the window.
  std::optional<Inbound> AwaitExpected(ExpectSight& sight, const ExpectWindow& window,
                                       Clock::time_point* wanted);
  /// The frame an expect step took, judged: its content, its time, its capture and the reply.
  bool JudgeFound(const Step& step, const Expect& expect, const ExpectSight& sight,
                  const Inbound& found, Clock::time_point start, const std::string& what);
  /// Why an expect step took nothing: the plugin gone, the hard limit, or its window.
  bool ExpectMissed(const Step& step, const ExpectSight& sight, Clock::time_point wanted, Ms within,
                    const std::string& what);
  bool DoExpectNone(const Step& step, const ExpectNone& none);
  /// An expect_none step's barrier request: its id, its frame and its deadline.
  struct Barrier {
    rapidjson::Document id = {};
    std::size_t frame = 0;
    Ms deadline{0};
    bool AnsweredBy(const Inbound& in) const;
  };
  /// Sends the barrier request of the revision in play; false if a template of it failed.
  bool SendBarrier(const Step& step, Barrier* barrier);
  /// What an expect_none step saw: a frame none may send, or the barrier's answer (taken).
  struct NoneSight {
    std::optional<Inbound> offending = {};
    bool barrier_answered = false;
  };
  /// Reads the plugin's messages after frame `judged_after`, oldest first, until one is
  /// forbidden, the barrier is answered, or the wait ends.
  NoneSight AwaitForbidden(const ExpectNone& none, const Patterns& patterns, const Barrier& barrier,
                           std::size_t judged_after, Clock::time_point wanted);
  bool DoAnswer(const Step& step, const Answer& answer);
  bool DoExpectExit(const Step& step, const ExpectExit& exit);
  bool DoShutdown(const Step& step, const Shutdown& shutdown);
  bool DoForEach(const Step& step, const ForEach& each);

  /// Records a miss at `step` for `reason`; returns true if the steps may go on (a
  /// should/may-level miss).
  bool Miss(const Step& step, Reason reason, std::string message, std::string expected = {},
            std::string actual = {}, std::optional<std::size_t> frame = {});
  /// "the scenario reached its hard limit of 30000 ms": a kHardLimit miss's words.
  std::string HardLimitText() const {
    return "the scenario reached its hard limit of " + MsText(hard_limit_);
  }
  bool ScenarioBug(const Step& step, std::string message);
  std::string NoteText(const std::string& note) const;  ///< a step's note, variables filled in
  bool Instantiate(const JsonPtr& templ, rapidjson::Document* out, const Step& step);
  bool InstantiatePatterns(const Filter& filter, Patterns* out, const Step& step);
  const rapidjson::Value* Lookup(std::string_view path) const { return bindings_.Lookup(path); }
  /// `untested` (may be null) gets what a matcher operator could not judge (matcher.hpp).
  Fit Check(const Filter& filter, const Patterns& patterns, const Inbound& in,
            std::vector<Mismatch>* why, std::vector<std::string>* untested = nullptr) const;
  std::string Describe(const Filter& filter) const;
  std::string Summarise(const Inbound& in) const;
  /// How long a plugin may still send on its own as part of serving the host's requests: the
  /// last deadline of a request still open, or the default deadline after an answer that came
  /// since `since`; `since` when there is neither.
  Clock::time_point ServingUntil(Clock::time_point since) const;
  Clock::time_point Deadline(Clock::time_point wanted) const {
    return std::min(wanted, hard_deadline_);
  }
  bool HitHardLimit(Clock::time_point wanted) const {
    return wanted > hard_deadline_ && Clock::now() >= hard_deadline_;
  }
  bool Interrupted() const { return options_.interrupted && options_.interrupted->load(); }
  void BuildVars();
  bool PluginEnvironment(process::SpawnSpec* spawn, std::string* error);
  /// Why the manifest does not meet the scenario's manifest requirements; "" when it does.
  std::string Unmet() const;
  /// Whether `requires:` has an {announced: ...} or {not_announced: ...}.
  bool RequiresAnnouncements() const;
  /// What the plugin announced: its handshake answer at the profile's handshake.announcements
  /// pointer; nullptr before that answer, or when it has nothing there (an error answer).
  const rapidjson::Value* Announcements() const;
  /// Why `announced` does not meet the scenario's announced requirements; "" when it does.
  std::string Unannounced(const rapidjson::Value& announced) const;
  /// Run before each step: once the handshake answer with its announcements has arrived, settles
  /// the announced requirements. Unmet, the scenario ends here as not applicable (ended_early_);
  /// met with a trigger missing, as untested. False: the steps stop.
  bool SettleAnnouncements();
  /// Run before each step too: once the handshake answer names the revision the plugin speaks
  /// (at the profile's revisions.negotiated), judges the scenario by that revision's cite, or
  /// ends it as not applicable (a revision fakehost does not know, another than --revision
  /// pins, one the scenario cites nothing of). False: the steps stop.
  bool SettleRevision();
  /// Puts the revision in play, its cite's section, sentence and level, into the result.
  void JudgeUnder(const std::string& revision);
  /// The revision the scenario is played under before the plugin says anything: --revision's,
  /// else the newest without a handshake that it cites and the run's probe found the plugin
  /// speaks, else the one the profile offers in the handshake. "" with `why` set when it does
  /// not apply to this plugin at all.
  std::string RevisionToPlay(const protocol::Revisions& revisions, std::string* why) const;
  /// Adds the members the revision in play puts in every request (profile request_members) that
  /// the request `msg` does not have. False (a scenario bug recorded) if a template fails.
  bool AddRevisionMembers(rapidjson::Document* msg, const Step& step);
  /// The level of a step that names none: the scenario's, under the revision in play.
  Level StepLevel(const Step& step) const;
  /// Whether `step` (or a step inside it) sends a trigger the plugin's fakehost.yaml lacks.
  bool SendsMissingTrigger(const Step& step) const;
  /// Why the scenario cannot be run on this plugin yet: a trigger it sends that the plugin's
  /// fakehost.yaml does not give, with the YAML to add; "" when every trigger is there.
  std::string MissingTrigger() const;
  /// Why the scenario does not apply to this plugin: a trigger it sends that the plugin's
  /// fakehost.yaml declares it cannot have ({none: "why"}); "" when none is.
  std::string TriggerNotApplicable() const;
  /// The plugin's fakehost.yaml, or where one would go, for a message that asks for a line in it.
  std::string ConfigFileToName() const;
  /// Under `triggers: any`: true for a send of a trigger the plugin declares none, and for a
  /// step that names the request such a send would have named; the step is then not played.
  bool SkipsForNoneTrigger(const Step& step);
  /// Why a failed scenario is untested rather than failed: every miss that fails it is a step's,
  /// and the plugin had received an answer the fake host cannot really give (a profile reply
  /// marked stand_in), so it may only have disliked made-up data. Says which answer and the
  /// fakehost.yaml to give the plugin's own. "" when that is not the case.
  std::string StandInAnswerReason(std::size_t step_failures) const;
  /// Counts a step that checks the plugin (not set-up from a fragment).
  void Checked(const Step& step) {
    if (!step.from_fragment) outcome_.Checked();
  }

  const Scenario& scenario_;
  const protocol::Profile& profile_;
  const PluginTarget& plugin_;
  const PlayOptions& options_;
  session::Session session_;
  ScenarioResult result_;
  /// Variables, named requests, captures and the for_each item (bindings.hpp).
  Bindings bindings_;
  std::string data_dir_;  // ${scenario.data_dir}, removed when the scenario ends
  std::size_t step_number_ = 0;
  Clock::time_point hard_deadline_;
  /// What for_each may extend hard_deadline_ to, at most: the profile's scenario_timeout_max_ms
  /// from the spawn (or the hard limit, if that is longer).
  Clock::time_point hard_ceiling_;
  Ms hard_limit_{0};
  bool stopped_ = false;                // a `shutdown` step ran: the teardown is not needed
  process::StandInParent stand_in_;     // the plugin's "host" when a step kills it
  bool announcements_settled_ = false;  // the announced requirements were judged (and met)
  std::string revision_;                // the revision in play: offered, then the one answered
  bool revision_settled_ = false;       // the handshake answer named it
  /// A trigger the plugin lacks, for a scenario that may still turn out not to apply: untested
  /// only once the plugin's announcements say it applies (SettleAnnouncements).
  std::string deferred_missing_;
  /// The names of the requests `triggers: any` skipped (SkipsForNoneTrigger).
  std::set<std::string> skipped_requests_;
  /// What the play learns of its own verdict besides the failures, graded once (outcome.hpp).
  Outcome outcome_;
  /// The reason a scenario that scripts the host's answer to "*" is untested when the plugin's
  /// calls were all ones the host answers by itself (RIM rim.log, Flash storage).
  std::string WildcardUnused() const {
    return "the plugin's host calls were all ones the host answers by itself (such as a log), "
           "so the answer this scenario scripts was never exercised: give a trigger in " +
           (plugin_.config_file.empty() ? std::string("fakehost.yaml") : plugin_.config_file) +
           " that calls another host method";
  }
};

}  // namespace fakehost::interpreter
