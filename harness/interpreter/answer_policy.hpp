// Who answers a plugin's requests in one scenario: the one place that reads it off the scenario.
//
// The fake host answers every plugin->host request on arrival (protocol::HostResponder) unless
// the scenario says otherwise: its `host:` block scripts a method's reply or holds it, and a
// step that answers a request itself (an `expect` with `reply`, or one whose capture an `answer`
// step replies to) needs the host to hold that method. The policy is applied before the plugin
// starts, not as the steps are reached: a plugin's request may arrive before the step that
// answers it (while an earlier step waits, or during the handshake), and by then the host would
// have answered it; it must be held from the start.
#pragma once

#include "harness/protocol/host.hpp"
#include "harness/scenario/model.hpp"

namespace fakehost::interpreter {

/// The scenario's holds and replies, each with its reason. Where the `host:` block and a step
/// both name a method, the step's hold wins: the step answers it. Where several steps do, the
/// first written gives the reason.
protocol::AnswerPolicy AnswerPolicyFor(const scenario::Scenario& scenario);

}  // namespace fakehost::interpreter
