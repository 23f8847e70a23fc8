// Steps that wait for the plugin's frames: expect and expect_none.
#include "harness/interpreter/player.hpp"

#include "harness/json/json.hpp"

namespace fakehost::interpreter {
Clock::time_point Player::ServingUntil(Clock::time_point since) const {
  Clock::time_point until = since;
  for (const auto& [key, req] : session_.requests()) {
    if (!req.answer_frame)
      until = std::max(until, req.sent + req.deadline);
    else if (req.answered >= since)
      until = std::max(until, req.answered + profile_.default_deadline());
  }
  return until;
}

double Player::FirstFrameMs() const {
  for (const auto& entry : session_.transcript())
    if (entry.direction == session::Direction::kPluginToHost) return entry.t_ms;
  return 0;
}

bool Player::ExpectWindowOf(const Step& step, const Expect& expect, ExpectWindow* w) {
  w->start = w->base = Clock::now();
  w->within = expect.within;
  if (expect.filter.kind == Filter::Kind::kReplyTo) {
    const Named* named = bindings_.FindNamed(expect.filter.name);
    if (!named)
      return ScenarioBug(step, "reply_to " + expect.filter.name + ": no request by that name");
    w->base = named->sent;  // deadlines count from the request, as the host's do
    // The step's own deadline_ms, else the one the session holds the request to (its method's,
    // or the start-up's for a first request without a handshake: Session::RequestDeadline).
    const session::PendingRequest* pending = session_.RequestByFrame(named->frame);
    Ms deadline = named->deadline ? *named->deadline
                  : pending       ? pending->deadline
                                  : profile_.DeadlineFor(named->method);
    if (w->within.count() == 0 || expect.from_first_frame) w->within = deadline;
  }
  if (w->within.count() == 0) w->within = profile_.default_deadline();
  // What the plugin sends on its own while it serves a host request (a host call, a log, sent
  // as a request or a notification: `any`) may come at any time before that request's
  // deadline: with no window of its own, the wait lasts as long as a request is open, and the
  // default deadline after its answer.
  w->serving = expect.within.count() == 0 && (expect.filter.kind == Filter::Kind::kRequest ||
                                              expect.filter.kind == Filter::Kind::kNotification ||
                                              expect.filter.kind == Filter::Kind::kAny);
  return true;
}

bool Player::ExpectSees(ExpectSight& sight, const Inbound& in) const {
  const Expect& expect = sight.expect;
  std::vector<Mismatch> why;
  std::vector<std::string> unjudged;
  const Fit fit = Check(expect.filter, sight.patterns, in, &why, &unjudged);
  if (in.frame <= sight.taken_after) {
    if (fit == Fit::kYes && sight.nearest.empty())
      sight.nearest = Summarise(in) + " — sent before " + expect.after + ", so not in answer to it";
    return false;
  }
  if (fit == Fit::kYes ||
      (fit == Fit::kWrongContent && expect.filter.kind == Filter::Kind::kReplyTo)) {
    sight.fit = fit;
    sight.why = std::move(why);
    sight.unjudged = std::move(unjudged);
    return true;
  }
  if (fit == Fit::kWrongContent && sight.nearest.empty())
    sight.nearest = Summarise(in) + " — " + Join(why);
  return false;
}

bool Player::DoExpect(const Step& step, const Expect& expect) {
  Checked(step);
  Patterns patterns;
  ExpectWindow window;
  if (!InstantiatePatterns(expect.filter, &patterns, step) ||
      !ExpectWindowOf(step, expect, &window))
    return false;
  ExpectSight sight{expect, patterns};
  if (const Named* named = bindings_.FindNamed(expect.after); !expect.after.empty() && named)
    sight.taken_after = named->frame;
  Clock::time_point wanted = window.Until(*this);
  std::optional<Inbound> found = AwaitExpected(sight, window, &wanted);
  const std::string what = Describe(expect.filter);
  if (found) return JudgeFound(step, expect, sight, *found, window.start, what);
  return ExpectMissed(step, sight, wanted, std::chrono::duration_cast<Ms>(wanted - window.base),
                      what);
}

std::optional<Inbound> Player::AwaitExpected(ExpectSight& sight, const ExpectWindow& window,
                                             Clock::time_point* wanted) {
  session::Cursor cursor;
  for (;;) {
    std::optional<Inbound> in = session_.Next(cursor, Deadline(*wanted));
    if (in && ExpectSees(sight, *in) && session_.Take(in->frame)) return in;
    // An answer to the request being served moves the end of the wait: wait on to the new end.
    const Clock::time_point moved = window.Until(*this);
    if (!in && (moved == *wanted || session_.gone() || Interrupted())) return std::nullopt;
    *wanted = moved;
  }
}

bool Player::JudgeFound(const Step& step, const Expect& expect, const ExpectSight& sight,
                        const Inbound& found, Clock::time_point start, const std::string& what) {
  if (sight.fit == Fit::kWrongContent)
    return Miss(step, Reason::kWrongContent, what + " arrived but does not match", Join(sight.why),
                Summarise(found), found.frame);
  if (expect.not_before && found.at - start < *expect.not_before)
    return Miss(step, Reason::kWrongTime,
                found.at < start
                    ? what + " had already arrived before the step began"
                    : what + " arrived after " +
                          MsText(session_.ElapsedMs(found.at) - session_.ElapsedMs(start)) +
                          ", earlier than allowed",
                "not before " + MsText(*expect.not_before), Summarise(found), found.frame);
  if (expect.from_first_frame) {
    double first = FirstFrameMs();
    double at = session_.ElapsedMs(found.at);
    if (at - first > static_cast<double>(expect.within.count()))
      return Miss(step, Reason::kWrongTime,
                  what + " arrived " + MsText(at - first) + " after the plugin's first frame",
                  "within " + MsText(expect.within) + " of its first frame",
                  "after " + MsText(at - first), found.frame);
  }
  // It matched only if what an operator could not judge holds: the scenario cannot pass, and
  // nothing says it fails (matcher.hpp); untested unless something else fails it.
  if (!sight.unjudged.empty())
    outcome_.Untested("step " + std::to_string(step_number_) + ": " + what +
                      " could not be fully judged: " + sight.unjudged.front());
  if (!expect.as.empty()) {
    bindings_.Capture(expect.as, found);
  }
  if (!expect.reply) return true;
  if (found.answered_by_host) {
    outcome_.Untested(WildcardUnused());
    return false;
  }
  rapidjson::Document reply;
  if (!Instantiate(expect.reply, &reply, step)) return false;
  session_.Reply(found, reply);
  return true;
}

bool Player::ExpectMissed(const Step& step, const ExpectSight& sight, Clock::time_point wanted,
                          Ms within, const std::string& what) {
  if (Interrupted()) return false;
  const std::string closest =
      sight.nearest.empty() ? "nothing matching arrived" : "closest: " + sight.nearest;
  if (std::optional<Reason> gone = session_.GoneReason())
    return Miss(step, *gone, "while waiting for " + what + ", " + session_.Describe(*gone), what,
                closest);
  if (HitHardLimit(wanted))
    return Miss(step, Reason::kHardLimit, HardLimitText() + " while waiting for " + what);
  return Miss(step, Reason::kDeadlinePassed,
              "no " + what.substr(what.find(' ') + 1) + " within " + MsText(within), what, closest);
}

bool Player::DoExpectNone(const Step& step, const ExpectNone& none) {
  Checked(step);
  Patterns patterns;
  if (!InstantiatePatterns(none.filter, &patterns, step)) return false;
  Barrier barrier;
  if (none.barrier && !SendBarrier(step, &barrier)) return false;
  const Clock::time_point wanted = Clock::now() + (none.barrier ? barrier.deadline : none.window);
  // since: NAME judges only what came after NAME's answer (after NAME, while it is unanswered).
  std::size_t judged_after = 0;
  if (const Named* named = bindings_.FindNamed(none.since); !none.since.empty() && named) {
    const session::PendingRequest* req = session_.RequestByFrame(named->frame);
    judged_after = req && req->answer_frame ? *req->answer_frame : named->frame;
  }
  const NoneSight sight = AwaitForbidden(none, patterns, barrier, judged_after, wanted);
  std::string what = Describe(none.filter);
  if (sight.offending) {
    return Miss(step, Reason::kForbiddenFrame, what + " arrived, but none may",
                "no " + what.substr(what.find(' ') + 1), Summarise(*sight.offending),
                sight.offending->frame);
  }
  if (!none.barrier || sight.barrier_answered || Interrupted()) return true;
  std::string text = profile_.barrier_method() + " id " + json::ToCompact(barrier.id) +
                     " (frame #" + std::to_string(barrier.frame) + ")";
  if (std::optional<Reason> gone = session_.GoneReason())
    return Miss(step, *gone,
                "before the barrier " + text + " was answered, " + session_.Describe(*gone) +
                    ", so the absence of " + what + " could not be shown");
  return Miss(step, Reason::kDeadlinePassed,
              "the barrier " + text + " was not answered within " +
                  MsText(profile_.DeadlineFor(profile_.barrier_method())) + ", so the absence of " +
                  what + " could not be shown");
}

bool Player::SendBarrier(const Step& step, Barrier* barrier) {
  // The revision in play may have its own barrier (MCP 2026-07-28 has no ping), and its
  // requests their members.
  const protocol::Revisions* revisions = profile_.revisions();
  const protocol::Revision* revision = revisions ? revisions->Find(revision_) : nullptr;
  const std::string& method =
      revision && !revision->barrier.empty() ? revision->barrier : profile_.barrier_method();
  rapidjson::Document msg;
  msg.SetObject();
  auto& a = msg.GetAllocator();
  rapidjson::Value id = session_.NextId(method);
  barrier->id.CopyFrom(id, barrier->id.GetAllocator());
  msg.AddMember("id", id, a);
  msg.AddMember("method", rapidjson::Value(method.c_str(), a), a);
  if (!AddRevisionMembers(&msg, step)) return false;
  barrier->frame = session_.Send(std::move(msg), false);
  barrier->deadline = profile_.DeadlineFor(method);
  return true;
}

bool Player::Barrier::AnsweredBy(const Inbound& in) const {
  if (in.kind != MessageKind::kResponse) return false;
  const rapidjson::Value* got = json::Find(*in.doc, "id");
  return got && json::StrictEqual(*got, id);
}

Player::NoneSight Player::AwaitForbidden(const ExpectNone& none, const Patterns& patterns,
                                         const Barrier& barrier, std::size_t judged_after,
                                         Clock::time_point wanted) {
  session::Cursor cursor;
  while (std::optional<Inbound> in = session_.Next(cursor, Deadline(wanted))) {
    if (in->frame <= judged_after) continue;
    if (none.barrier && barrier.AnsweredBy(*in)) {
      session_.Take(in->frame);
      return {.offending = std::nullopt, .barrier_answered = true};
    }
    // Left to the inbox: a later step may still expect it (a should-level "not yet" followed
    // by a must-level "eventually"). One that matches only if what an operator could not judge
    // holds is not shown to be forbidden: the scenario is untested, not failed.
    std::vector<std::string> unjudged;
    if (Check(none.filter, patterns, *in, nullptr, &unjudged) != Fit::kYes) continue;
    if (unjudged.empty()) return {.offending = std::move(in), .barrier_answered = false};
    outcome_.Untested("step " + std::to_string(step_number_) + ": " + Summarise(*in) +
                      " may be what none may send: " + unjudged.front());
  }
  return {};
}

}  // namespace fakehost::interpreter
