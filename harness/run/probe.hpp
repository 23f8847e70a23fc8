// The revision probe: once per plugin, before its scenarios, the host asks the plugin which
// revisions without a handshake it speaks (profile revisions.probe; MCP: server/discover, as the
// 2026-07-28 stdio binding's backward-compatibility probe), and keeps the answer for the run.
#pragma once

#include "harness/interpreter/interpreter.hpp"
#include "harness/protocol/profile.hpp"

namespace fakehost::run {

/// Plays the profile's probe against a fresh plugin process and records in `target->probe` what
/// it listed: a result's list at `listed`, an error of `error_codes` with its list at
/// `error_listed`; anything else (another error, no answer within `within_ms`, a plugin that
/// exits) lists nothing. A profile without a probe, or a plugin never spawned, is not probed.
void ProbeRevisions(const protocol::Profile& profile, const schema::FrameSchema* schema,
                    const interpreter::PlayOptions& options, interpreter::PluginTarget* target);

/// The list in `answer` (a result or an error frame) by the probe's rules, and whether the
/// answer had one; split out for the tests.
bool ListedRevisions(const protocol::RevisionProbe& probe, const rapidjson::Value& answer,
                     std::vector<std::string>* listed);

}  // namespace fakehost::run
