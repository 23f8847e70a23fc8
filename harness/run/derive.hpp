// Triggers made from a plugin's own lists, so that an MCP server needs no configuration for
// the scenarios that call its tools (profile member "derive"; its $comment says what is made
// from what, and why only read-only tools are called).
//
// Once per plugin, before the scenarios, and only when the selected scenarios send a trigger
// the plugin's fakehost.yaml neither gives nor declares none (or when the plugin's name is to be
// read from its handshake): a first session reads the plugin's lists (tools/list,
// resources/list, prompts/list) and the name it announces; a second calls each tool fakehost may
// call, once, with arguments made from its inputSchema (schema/instance.hpp) and a progress
// token, reads a resource and gets a prompt. A trigger that promises behaviour is made only from
// a call seen to keep the promise. Both sessions are plays like any scenario's (spawned, limited,
// validated, stopped), but nothing in them is judged: they only look.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "harness/interpreter/interpreter.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/scenario/model.hpp"

namespace fakehost::schema {
class FrameSchema;
}

namespace fakehost::run {

/// The trigger names `scenarios` send.
std::set<std::string> TriggersSent(const std::vector<const scenario::Scenario*>& scenarios);

/// Fills `target->triggers` (and `triggers_none`, for a trigger the lists show the plugin cannot
/// have) for each of `needed` the plugin lacks, `target->derived` with what served each and why
/// the rest were not made, and, for a plugin without a manifest whose id the user did not give,
/// its id and version from the name it announced. `fragment_dirs` holds the handshake fragment.
void DeriveTriggers(const protocol::Profile& profile, const schema::FrameSchema* schema,
                    const interpreter::PlayOptions& options,
                    const std::vector<std::string>& fragment_dirs,
                    const std::set<std::string>& needed, interpreter::PluginTarget* target);

}  // namespace fakehost::run
