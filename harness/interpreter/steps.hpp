// The body of each step kind: one function over the step's context per StepBody alternative,
// and PlayBody, the one place that picks it. The declarations are written from model.hpp's list
// of bodies, so a kind whose function is not defined does not link. Each returns false when the
// steps must stop (a must-level miss, a scenario bug, an interruption, a scenario ended early).
// Internal to the interpreter; interpreter.hpp is the interface.
#pragma once

#include <variant>

#include "harness/interpreter/step_context.hpp"

namespace fakehost::interpreter {

// One per body of model.hpp's list, defined in the steps_*.cpp of its kind's family: send,
// send_raw and answer in steps_send.cpp; expect and expect_none in steps_expect.cpp; for_each in
// steps_for_each.cpp; the process's steps (close_stdin, kill_parent, signal, sleep, expect_exit,
// shutdown) in steps_process.cpp.
#define FAKEHOST_DECLARE_PLAY_STEP(Body) \
  bool PlayStep(StepContext& ctx, const scenario::Body& body);
FAKEHOST_STEP_BODIES(FAKEHOST_DECLARE_PLAY_STEP)
#undef FAKEHOST_DECLARE_PLAY_STEP

/// Plays the context's step by its kind.
inline bool PlayBody(StepContext& ctx) {
  return std::visit([&ctx](const auto& body) { return PlayStep(ctx, body); }, ctx.step.body);
}

/// A `send: {retry: CAPTURE}` as the request it resends: method, and params with the fake host's
/// input answers and the state laid in (the profile's input_required). False, with the
/// scenario's bug reported, when the capture answers no named request or asked for nothing.
/// (steps_retry.cpp)
bool ResolveRetry(StepContext& ctx, const Send& send, Send* resolved);

}  // namespace fakehost::interpreter
