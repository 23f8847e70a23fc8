// Steps that wait for the plugin's frames: expect and expect_none. Each pulls the plugin's
// messages with Session::Next and judges them as they come.

#include "harness/interpreter/bindings.hpp"
#include "harness/interpreter/outcome.hpp"
#include "harness/interpreter/step_context.hpp"
#include "harness/interpreter/steps.hpp"
#include "harness/json/json.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/session/session.hpp"

namespace fakehost::interpreter {
namespace {

// How long a plugin may still send on its own as part of serving the host's requests: the last
// deadline of a request still open, or the default deadline after an answer that came since
// `since`; `since` when there is neither.
Clock::time_point ServingUntil(const StepContext& ctx, Clock::time_point since) {
  Clock::time_point until = since;
  for (const auto& [key, req] : ctx.session.requests()) {
    if (!req.answer_frame)
      until = std::max(until, req.sent + req.deadline);
    else if (req.answered >= since)
      until = std::max(until, req.answered + ctx.profile.default_deadline());
  }
  return until;
}

// When the plugin's first frame arrived, in ms since its spawn (its first sign of life).
double FirstFrameMs(const StepContext& ctx) {
  for (const auto& entry : ctx.session.transcript())
    if (entry.direction == result::Direction::kPluginToHost) return entry.t_ms;
  return 0;
}

// Where an expect step's wait starts and ends. `serving`: a frame the plugin sends on its own
// while it serves a host request may come until that request's deadline (ServingUntil).
struct ExpectWindow {
  Clock::time_point start = {}, base = {};
  Ms within{0};
  bool serving = false;
  Clock::time_point Until(const StepContext& ctx) const {
    return serving ? std::max(base + within, ServingUntil(ctx, start)) : base + within;
  }
};

// What an expect step saw while it waited: how the frame it took fits, that frame's mismatches
// and what an operator could not judge in it, and the nearest miss to report if it took none.
// Filled by ExpectSees, the step's look at each message.
struct ExpectSight {
  const Expect& expect;
  const Patterns& patterns;
  std::size_t taken_after = 0;  // after: NAME takes only frames after this one
  Fit fit = Fit::kNo;
  std::vector<Mismatch> why = {};
  std::vector<std::string> unjudged = {};
  std::string nearest = {};
};

// False, with the scenario's bug reported, when reply_to names no request.
bool ExpectWindowOf(StepContext& ctx, const Expect& expect, ExpectWindow* w) {
  w->start = w->base = Clock::now();
  w->within = expect.within;
  if (expect.filter.kind == Filter::Kind::kReplyTo) {
    const Named* named = ctx.bindings.FindNamed(expect.filter.name);
    if (!named)
      return ctx.ScenarioBug("reply_to " + expect.filter.name + ": no request by that name");
    w->base = named->sent;  // deadlines count from the request, as the host's do
    // The step's own deadline_ms, else the one the session holds the request to (its method's,
    // or the start-up's for a first request without a handshake: Session::RequestDeadline).
    const session::PendingRequest* pending = ctx.session.RequestByFrame(named->frame);
    Ms deadline = named->deadline ? *named->deadline
                  : pending       ? pending->deadline
                                  : ctx.profile.DeadlineFor(named->method);
    if (w->within.count() == 0 || expect.from_first_frame) w->within = deadline;
  }
  if (w->within.count() == 0) w->within = ctx.profile.default_deadline();
  // What the plugin sends on its own while it serves a host request (a host call, a log, sent
  // as a request or a notification: `any`) may come at any time before that request's
  // deadline: with no window of its own, the wait lasts as long as a request is open, and the
  // default deadline after its answer.
  w->serving = expect.within.count() == 0 && (expect.filter.kind == Filter::Kind::kRequest ||
                                              expect.filter.kind == Filter::Kind::kNotification ||
                                              expect.filter.kind == Filter::Kind::kAny);
  return true;
}

// The step's look at one message: whether it takes it, and what it saw in it.
bool ExpectSees(const StepContext& ctx, ExpectSight& sight, const Inbound& message) {
  const Expect& expect = sight.expect;
  std::vector<Mismatch> why;
  std::vector<std::string> unjudged;
  const Fit fit = ctx.Check(expect.filter, sight.patterns, message, &why, &unjudged);
  if (message.frame <= sight.taken_after) {
    if (fit == Fit::kYes && sight.nearest.empty())
      sight.nearest =
          ctx.Summarise(message) + " — sent before " + expect.after + ", so not in answer to it";
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
    sight.nearest = ctx.Summarise(message) + " — " + Join(why);
  return false;
}

// Reads the plugin's messages, oldest first, until ExpectSees takes one (taken from the inbox:
// nullopt if none). `wanted`, the end of the wait, moves with the window.
std::optional<Inbound> AwaitExpected(StepContext& ctx, ExpectSight& sight,
                                     const ExpectWindow& window, Clock::time_point* wanted) {
  session::Cursor cursor;
  for (;;) {
    std::optional<Inbound> message = ctx.session.Next(cursor, ctx.limit.Cap(*wanted));
    if (message && ExpectSees(ctx, sight, *message) && ctx.session.Take(message->frame))
      return message;
    // An answer to the request being served moves the end of the wait: wait on to the new end.
    const Clock::time_point moved = window.Until(ctx);
    if (!message && (moved == *wanted || ctx.session.gone() || ctx.Interrupted()))
      return std::nullopt;
    *wanted = moved;
  }
}

// The frame an expect step took, judged: its content, its time, its capture and the reply.
bool JudgeFound(StepContext& ctx, const Expect& expect, const ExpectSight& sight,
                const Inbound& found, Clock::time_point start, const std::string& what) {
  if (sight.fit == Fit::kWrongContent)
    return ctx.Miss(Reason::kWrongContent, what + " arrived but does not match", Join(sight.why),
                    ctx.Summarise(found), found.frame);
  if (expect.not_before && found.at - start < *expect.not_before)
    return ctx.Miss(Reason::kWrongTime,
                    found.at < start ? what + " had already arrived before the step began"
                                     : what + " arrived after " +
                                           MsText(ctx.session.ElapsedMs(found.at) -
                                                  ctx.session.ElapsedMs(start)) +
                                           ", earlier than allowed",
                    "not before " + MsText(*expect.not_before), ctx.Summarise(found), found.frame);
  if (expect.from_first_frame) {
    double first = FirstFrameMs(ctx);
    double at = ctx.session.ElapsedMs(found.at);
    if (at - first > static_cast<double>(expect.within.count()))
      return ctx.Miss(Reason::kWrongTime,
                      what + " arrived " + MsText(at - first) + " after the plugin's first frame",
                      "within " + MsText(expect.within) + " of its first frame",
                      "after " + MsText(at - first), found.frame);
  }
  // It matched only if what an operator could not judge holds: the scenario cannot pass, and
  // nothing says it fails (matcher.hpp); untested unless something else fails it.
  if (!sight.unjudged.empty())
    ctx.outcome.Untested("step " + std::to_string(ctx.number) + ": " + what +
                         " could not be fully judged: " + sight.unjudged.front());
  if (!expect.as.empty()) {
    ctx.bindings.Capture(expect.as, found);
  }
  if (!expect.reply) return true;
  if (found.answered_by_host) {
    ctx.outcome.Untested(WildcardUnused(ctx.plugin));
    return false;
  }
  rapidjson::Document reply;
  if (!ctx.Instantiate(expect.reply, &reply)) return false;
  ctx.session.Reply(found, reply);
  return true;
}

// Why an expect step took nothing: the plugin gone, the hard limit, or its window.
bool ExpectMissed(StepContext& ctx, const ExpectSight& sight, Clock::time_point wanted, Ms within,
                  const std::string& what) {
  if (ctx.Interrupted()) return false;
  const std::string closest =
      sight.nearest.empty() ? "nothing matching arrived" : "closest: " + sight.nearest;
  if (std::optional<Reason> gone = ctx.session.GoneReason())
    return ctx.Miss(*gone, "while waiting for " + what + ", " + ctx.session.Describe(*gone), what,
                    closest);
  if (ctx.limit.Hit(wanted))
    return ctx.Miss(Reason::kHardLimit, ctx.limit.Text() + " while waiting for " + what);
  return ctx.Miss(Reason::kDeadlinePassed,
                  "no " + what.substr(what.find(' ') + 1) + " within " + MsText(within), what,
                  closest);
}

// An expect_none step's barrier request: its id, its frame and its deadline.
struct Barrier {
  rapidjson::Document id = {};
  std::size_t frame = 0;
  Ms deadline{0};
  bool AnsweredBy(const Inbound& message) const;
};

// What an expect_none step saw: a frame none may send, or the barrier's answer (taken).
struct NoneSight {
  std::optional<Inbound> offending = {};
  bool barrier_answered = false;
};

// Sends the barrier request of the revision in play; false if a template of it failed.
bool SendBarrier(StepContext& ctx, Barrier* barrier) {
  // The revision in play may have its own barrier (MCP 2026-07-28 has no ping), and its
  // requests their members.
  const protocol::Revisions* revisions = ctx.profile.revisions();
  const protocol::Revision* revision = revisions ? revisions->Find(ctx.revision) : nullptr;
  const std::string& method =
      revision && !revision->barrier.empty() ? revision->barrier : ctx.profile.barrier_method();
  rapidjson::Document msg;
  msg.SetObject();
  auto& a = msg.GetAllocator();
  rapidjson::Value id = ctx.session.NextId(method);
  barrier->id.CopyFrom(id, barrier->id.GetAllocator());
  msg.AddMember("id", id, a);
  msg.AddMember("method", rapidjson::Value(method.c_str(), a), a);
  if (!ctx.AddRevisionMembers(&msg)) return false;
  barrier->frame = ctx.session.Send(std::move(msg), false);
  barrier->deadline = ctx.profile.DeadlineFor(method);
  return true;
}

bool Barrier::AnsweredBy(const Inbound& message) const {
  if (message.kind != MessageKind::kResponse) return false;
  const rapidjson::Value* got = json::Find(*message.doc, "id");
  return got && json::StrictEqual(*got, id);
}

// Reads the plugin's messages after frame `judged_after`, oldest first, until one is forbidden,
// the barrier is answered, or the wait ends.
NoneSight AwaitForbidden(StepContext& ctx, const ExpectNone& none, const Patterns& patterns,
                         const Barrier& barrier, std::size_t judged_after,
                         Clock::time_point wanted) {
  session::Cursor cursor;
  while (std::optional<Inbound> message = ctx.session.Next(cursor, ctx.limit.Cap(wanted))) {
    if (message->frame <= judged_after) continue;
    if (none.barrier && barrier.AnsweredBy(*message)) {
      ctx.session.Take(message->frame);
      return {.offending = std::nullopt, .barrier_answered = true};
    }
    // Left to the inbox: a later step may still expect it (a should-level "not yet" followed
    // by a must-level "eventually"). One that matches only if what an operator could not judge
    // holds is not shown to be forbidden: the scenario is untested, not failed.
    std::vector<std::string> unjudged;
    if (ctx.Check(none.filter, patterns, *message, nullptr, &unjudged) != Fit::kYes) continue;
    if (unjudged.empty()) return {.offending = std::move(message), .barrier_answered = false};
    ctx.outcome.Untested("step " + std::to_string(ctx.number) + ": " + ctx.Summarise(*message) +
                         " may be what none may send: " + unjudged.front());
  }
  return {};
}

}  // namespace

// An expect step: its window (ExpectWindowOf), the wait, then what was found judged
// (JudgeFound) or the miss worded (ExpectMissed).
bool PlayStep(StepContext& ctx, const Expect& expect) {
  ctx.Checked();
  Patterns patterns;
  ExpectWindow window;
  if (!ctx.InstantiatePatterns(expect.filter, &patterns) || !ExpectWindowOf(ctx, expect, &window))
    return false;
  ExpectSight sight{expect, patterns};
  if (const Named* named = ctx.bindings.FindNamed(expect.after); !expect.after.empty() && named)
    sight.taken_after = named->frame;
  Clock::time_point wanted = window.Until(ctx);
  std::optional<Inbound> found = AwaitExpected(ctx, sight, window, &wanted);
  const std::string what = ctx.Describe(expect.filter);
  if (found) return JudgeFound(ctx, expect, sight, *found, window.start, what);
  return ExpectMissed(ctx, sight, wanted, std::chrono::duration_cast<Ms>(wanted - window.base),
                      what);
}

bool PlayStep(StepContext& ctx, const ExpectNone& none) {
  ctx.Checked();
  Patterns patterns;
  if (!ctx.InstantiatePatterns(none.filter, &patterns)) return false;
  Barrier barrier;
  if (none.barrier && !SendBarrier(ctx, &barrier)) return false;
  const Clock::time_point wanted = Clock::now() + (none.barrier ? barrier.deadline : none.window);
  // since: NAME judges only what came after NAME's answer (after NAME, while it is unanswered).
  std::size_t judged_after = 0;
  if (const Named* named = ctx.bindings.FindNamed(none.since); !none.since.empty() && named) {
    const session::PendingRequest* req = ctx.session.RequestByFrame(named->frame);
    judged_after = req && req->answer_frame ? *req->answer_frame : named->frame;
  }
  const NoneSight sight = AwaitForbidden(ctx, none, patterns, barrier, judged_after, wanted);
  std::string what = ctx.Describe(none.filter);
  if (sight.offending) {
    return ctx.Miss(Reason::kForbiddenFrame, what + " arrived, but none may",
                    "no " + what.substr(what.find(' ') + 1), ctx.Summarise(*sight.offending),
                    sight.offending->frame);
  }
  if (!none.barrier || sight.barrier_answered || ctx.Interrupted()) return true;
  std::string text = ctx.profile.barrier_method() + " id " + json::ToCompact(barrier.id) +
                     " (frame #" + std::to_string(barrier.frame) + ")";
  if (std::optional<Reason> gone = ctx.session.GoneReason())
    return ctx.Miss(*gone, "before the barrier " + text + " was answered, " +
                               ctx.session.Describe(*gone) + ", so the absence of " + what +
                               " could not be shown");
  return ctx.Miss(Reason::kDeadlinePassed,
                  "the barrier " + text + " was not answered within " +
                      MsText(ctx.profile.DeadlineFor(ctx.profile.barrier_method())) +
                      ", so the absence of " + what + " could not be shown");
}

}  // namespace fakehost::interpreter
