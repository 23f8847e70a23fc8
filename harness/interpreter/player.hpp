// The player of one scenario: what is settled before the plugin is spawned, the step loop, the
// teardown and the result's assembly. A step's body is not the Player's: it is a function over
// the StepContext the loop makes for it (steps.hpp). The files:
//   player.cpp          the step loop: what is settled before each step, and the step's context
//   player_prepare.cpp  what is settled before the plugin is spawned (applicability, triggers,
//                       variables) and as its handshake answer comes (revision, announcements)
//   player_run.cpp      prepare / play / teardown / assemble, and Play()
// What it learns of its verdict is outcome.hpp's, what its templates can name bindings.hpp's, who
// answers the plugin's requests answer_policy.hpp's.
// Internal to the interpreter; interpreter.hpp is the interface.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "harness/interpreter/step_context.hpp"

namespace fakehost::interpreter {

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
  /// Plays `steps` in order, each settled first (SettleRevision, SettleAnnouncements, the hard
  /// limit, `triggers: any`): false when the steps must stop. for_each plays its steps here.
  bool RunSteps(const std::vector<Step>& steps);

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

  /// What `step`, numbered `number`, plays on.
  StepContext ContextFor(const Step& step, std::size_t number);
  /// Whether `step` may run: false (the steps stop) when the scenario ended early as it settled,
  /// or the hard limit passed before it.
  bool MayRun(const Step& step);
  bool Interrupted() const { return options_.interrupted && options_.interrupted->load(); }
  const rapidjson::Value* Lookup(std::string_view path) const { return bindings_.Lookup(path); }
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
  HardLimit limit_;
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
};

}  // namespace fakehost::interpreter
