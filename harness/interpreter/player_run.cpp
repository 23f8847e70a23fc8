// One scenario from start to result: prepare, play, tear down, assemble.
#include <unistd.h>

#include <filesystem>

#include "harness/interpreter/answer_policy.hpp"
#include "harness/interpreter/player.hpp"
#include "harness/json/json.hpp"

namespace fakehost::interpreter {
namespace {

template <typename T>
bool HasStep(const std::vector<Step>& steps) {
  bool found = false;
  VisitSteps(steps, [&](const Step& s) { found = found || std::holds_alternative<T>(s.body); });
  return found;
}

Failure HarnessFailure(std::string check, std::string message) {
  Failure f;
  f.harness_error = true;
  f.reason = result::Reason::kHarnessFault;
  f.check = std::move(check);
  f.message = std::move(message);
  return f;
}

}  // namespace

ScenarioResult Player::Run() {
  result_ = ResultFor(scenario_, Status::kNotRun);
  Clock::time_point start = Clock::now();
  if (!Prepare()) {
    outcome_.Apply({.strict = options_.strict}, &result_);
    return std::move(result_);
  }
  PlaySteps();
  Assemble();
  if (!data_dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(data_dir_, ec);
  }
  result_.duration_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return std::move(result_);
}

bool Player::Prepare() {
  if (scenario_.hold_after_handshake) session_.HoldAfterHandshake();
  // The revision first: a plugin that does not speak any the scenario cites is the plainest
  // reason it does not apply.
  if (!PrepareRevision()) return false;
  if (std::string unmet = Unmet(); !unmet.empty()) {
    outcome_.EndEarly(Status::kSkip, unmet);
    return false;
  }
  if (std::string none = TriggerNotApplicable(); !none.empty()) {
    outcome_.EndEarly(Status::kSkip, none);
    return false;
  }
  if (std::string missing = MissingTrigger(); !missing.empty()) {
    // Whether the scenario applies may still depend on what the plugin announces: then that is
    // settled first, and a plugin that does not announce the feature is not applicable rather
    // than untested for want of a trigger it could never have.
    if (!RequiresAnnouncements()) {
      outcome_.EndEarly(Status::kUntested, missing);
      return false;
    }
    deferred_missing_ = missing;
  }
  if (RequiresAnnouncements() && !profile_.announcements_pointer()) {
    result_.failures.push_back(
        HarnessFailure("scenario",
                       "the scenario requires what the plugin announces ({announced: ...} or "
                       "{not_announced: ...}), but the " +
                           profile_.name() +
                           " profile names no handshake.announcements (where in its handshake "
                           "answer a plugin announces what it has)"));
    return false;  // graded an error: its failure is the harness's
  }
  limit_.limit = options_.timeout.count()    ? options_.timeout
                 : scenario_.timeout.count() ? scenario_.timeout
                                             : profile_.scenario_timeout();
  if (HasStep<KillParent>(scenario_.steps) && !stand_in_.Start()) {
    result_.failures.push_back(
        HarnessFailure("stand-in", "could not start a stand-in host process for kill_parent"));
    return false;  // graded an error: its failure is the harness's
  }
  if (!profile_.plugin_env().empty() || !plugin_.scenario_env.empty()) {
    char templ[] = "/tmp/fakehost-data-XXXXXX";
    if (const char* dir = ::mkdtemp(templ)) data_dir_ = dir;
  }
  BuildVars();
  session_.host().SetPluginReplies(plugin_.host_replies, plugin_.config_file);
  session_.host().Apply(AnswerPolicyFor(scenario_));  // before the plugin starts: see there
  return true;
}

bool Player::PrepareRevision() {
  const protocol::Revisions* revisions = profile_.revisions();
  if (!revisions) {
    if (scenario_.cites.empty()) return true;
    result_.failures.push_back(HarnessFailure(
        "scenario", "the scenario cites sentences of revisions, but the " + profile_.name() +
                        " profile knows no revisions (profile member revisions)"));
    return false;  // graded an error: its failure is the harness's
  }
  std::string why;
  const std::string revision = RevisionToPlay(*revisions, &why);
  if (!why.empty()) {
    outcome_.EndEarly(Status::kSkip, "not applicable: " + why);
    return false;
  }
  JudgeUnder(revision);
  if (const protocol::Revision* r = revisions->Find(revision); r && !r->handshake) {
    revision_settled_ = true;  // nothing to negotiate: every request says its revision
    session_.WithoutHandshake();
    session_.AnnouncedIn(plugin_.probe.answer);
    if (options_.revision_schemas)
      if (auto s = options_.revision_schemas->find(revision); s != options_.revision_schemas->end())
        session_.UseSchema(s->second);
  }
  return true;
}

void Player::PlaySteps() {
  process::SpawnSpec spawn = plugin_.spawn;
  std::string error;
  if (!PluginEnvironment(&spawn, &error)) {
    result_.failures.push_back(HarnessFailure("environment", error));
    return;
  }
  if (!session_.Start(spawn, &error)) {
    result_.failures.push_back(
        HarnessFailure("spawn", "the plugin could not be started: " + error));
    return;
  }
  // The hard limit is the plugin's time: it starts once the plugin runs, so the time this
  // machine took to prepare and spawn it (a loaded runner, --jobs in the thousands) is not
  // counted against the plugin.
  limit_.deadline = Clock::now() + limit_.limit;
  limit_.ceiling = Clock::now() + std::max(limit_.limit, profile_.scenario_timeout_max());
  bool completed = RunSteps(scenario_.steps);
  // The handshake may have been the last step: its answer still settles the scenario.
  if (completed && (!SettleRevision() || !SettleAnnouncements())) completed = false;
  result_.steps_run = step_number_;
  // Any miss already explains what is missing; a request it left open is not news.
  bool clean = result_.failures.empty();
  if (completed && clean && !session_.exited() && !result_.exit.graded) AwaitOpenRequests();
  if (completed && RequiresAnnouncements() && !announcements_settled_) {
    // Nothing judged whether the scenario applies (no handshake answer with announcements was
    // read): it may have passed checks that were never meant for this plugin.
    outcome_.Untested(
        "the scenario requires what the plugin announces in its handshake answer, and no "
        "handshake answer with " +
        *profile_.announcements_pointer() + " was read");
  }
  // After a graded shutdown the host has abandoned whatever was still open, as a real host
  // does; before it, every request must have had its answer.
  if (completed && clean && !result_.exit.graded) FailUnanswered();
  Teardown();
}

bool Player::Unanswered() const {
  for (const auto& [key, req] : session_.requests())
    if (req.Owed()) return true;
  return false;
}

void Player::AwaitOpenRequests() {
  // A request still open may be answered until its own deadline, counted from when it was
  // sent, as the host counts it: wait for the last of those (at once when all are answered).
  Clock::time_point last = Clock::now();
  for (const auto& [key, req] : session_.requests())
    if (req.Owed()) last = std::max(last, req.sent + req.deadline);
  session_.RunUntil([this] { return !Unanswered() || session_.gone() || Interrupted(); },
                    limit_.Cap(last));
}

void Player::FailUnanswered() {
  for (const auto& [key, req] : session_.requests()) {
    if (!req.Owed()) continue;
    Failure f;
    f.check = "unanswered";
    f.reason = result::Reason::kUnanswered;
    f.message = "request #" + std::to_string(req.frame) + " (" + json::Abbreviate(req.method) +
                ", id " + req.id_text +
                ") was never answered; every request gets exactly one answer";
    f.frame = req.frame;
    result_.failures.push_back(std::move(f));
  }
}

void Player::Teardown() {
  if (session_.exited()) return;
  const auto* teardown = profile_.StopSequence("teardown");
  process::StopResult r = session_.Stop(*teardown, /*graded=*/false);
  if (!result_.exit.graded) {
    result_.exit.stop_stage = r.exited_before ? "" : "teardown: " + r.stage_label;
    result_.exit.stop_ms = static_cast<double>(r.elapsed.count());
  }
}

void Player::Assemble() {
  const std::size_t step_failures = result_.failures.size();  // the findings come after
  for (const auto& finding : session_.findings()) {
    Failure f;
    f.level = finding.severity == result::Severity::kShould ? Level::kShould : Level::kMust;
    f.harness_error = finding.severity == result::Severity::kError;
    f.check = finding.check;
    f.message = finding.message;
    f.frame = finding.frame;
    f.reason = finding.reason;
    result_.failures.push_back(std::move(f));
  }
  if (const auto& st = session_.exit_status()) {
    result_.exit.exited = true;
    result_.exit.description = st->Describe();
    result_.exit.code = st->code;
    result_.exit.signal = st->signal;
    result_.exit.at_ms = session_.ElapsedMs(st->at);
  }
  result_.transcript = session_.transcript();
  result_.stderr_tail = session_.StderrTail(4096, &result_.stderr_bytes_dropped);
  Outcome::End end{.interrupted = Interrupted(), .strict = options_.strict};
  if (!end.interrupted && Grade(result_.failures, options_.strict) == Status::kFail)
    end.stand_in = StandInAnswerReason(step_failures);
  if (scenario_.host_replies.count("*") && session_.host().wildcard_answers() == 0)
    end.wildcard_unused = WildcardUnused(plugin_);
  outcome_.Apply(end, &result_);
}

std::string Player::StandInAnswerReason(std::size_t step_failures) const {
  const auto& stand_ins = session_.host().stand_ins();
  if (stand_ins.empty()) return {};
  for (std::size_t i = 0; i < result_.failures.size(); ++i) {
    const Failure& f = result_.failures[i];
    bool fails = f.level == Level::kMust || options_.strict;
    // An always-on finding (a malformed frame, a bad id) is the plugin's whatever it was told,
    // and so is a miss that came before the first made-up answer.
    if (fails && (i >= step_failures || f.harness_error || outcome_.MissedBeforeStandIn(i)))
      return {};
  }
  const std::string where = ConfigFileToName();
  std::string names, yaml;
  for (const auto& s : stand_ins) {
    names += (names.empty() ? "" : ", ") + s.method + " (" + s.why + ")";
    std::string example = R"({result: ...})";
    if (const protocol::HostAnswer* r = profile_.host().Reply(s.method);
        r && r->body && json::Find(*r->body, "result"))
      example = "{result: " + json::ToCompact(*json::Find(*r->body, "result")) + "}";
    yaml += "\n      " + s.method + ": " + example;
  }
  return "the fake host answered " + names +
         " with a stand-in, and the scenario failed after it; the failure may be the made-up "
         "answer's, so this is untested, not failed. Give the answer your plugin needs in " +
         where + ":\n  host:\n    replies:" + yaml;
}

ScenarioResult Play(const Scenario& scenario, const protocol::Profile& profile,
                    const schema::FrameSchema* schema, const PluginTarget& plugin,
                    const PlayOptions& options) {
  Player p(scenario, profile, schema, plugin, options);
  return p.Run();
}

}  // namespace fakehost::interpreter
