// The session's validate step: a frame against its entry in the protocol's frame schema.
//
// The entry is routed by kind and method (schema::RouteDef); what it finds goes into the
// frame's transcript entry (its schema_def and up to eight violations) and, when the frame
// breaks the schema, into one finding: "schema" for a plugin frame, "host-frame-invalid" (a
// harness fault) for one the host built.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "harness/json/rapidjson.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/session/transcript.hpp"

namespace fakehost::schema {
class FrameSchema;
}

namespace fakehost::session {

/// Validates `frame` (frame number `number`, recorded as `entry`) unless `schema` is null or the
/// frame has no valid envelope.
std::optional<Finding> Validate(const schema::FrameSchema* schema, const protocol::Profile& profile,
                                TranscriptEntry& entry, const rapidjson::Value& frame,
                                protocol::MessageKind kind, const std::string& method,
                                bool from_plugin, std::size_t number);

}  // namespace fakehost::session
