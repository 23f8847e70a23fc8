// The body of each step kind: one function over the step's context per StepBody alternative,
// and PlayBody, the one place that picks it. A kind without its function here does not compile
// (std::visit finds no PlayStep for it). Each returns false when the steps must stop (a
// must-level miss, a scenario bug, an interruption, a scenario ended early).
// Internal to the interpreter; interpreter.hpp is the interface.
#pragma once

#include <variant>

#include "harness/interpreter/step_context.hpp"

namespace fakehost::interpreter {

bool PlayStep(StepContext& ctx, const Send& send);        // steps_send.cpp
bool PlayStep(StepContext& ctx, const SendRaw& raw);      // steps_send.cpp
bool PlayStep(StepContext& ctx, const Answer& answer);    // steps_send.cpp
bool PlayStep(StepContext& ctx, const Expect& expect);    // steps_expect.cpp
bool PlayStep(StepContext& ctx, const ExpectNone& none);  // steps_expect.cpp
bool PlayStep(StepContext& ctx, const CloseStdin&);       // steps_process.cpp
bool PlayStep(StepContext& ctx, const KillParent&);       // steps_process.cpp
bool PlayStep(StepContext& ctx, const Signal& signal);    // steps_process.cpp
bool PlayStep(StepContext& ctx, const Sleep& sleep);      // steps_process.cpp
bool PlayStep(StepContext& ctx, const ExpectExit& exit);  // steps_process.cpp
bool PlayStep(StepContext& ctx, const Shutdown& stop);    // steps_process.cpp
bool PlayStep(StepContext& ctx, const ForEach& each);     // steps_for_each.cpp

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
