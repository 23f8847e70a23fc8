// The session's validate step: a frame against its entry in the protocol's frame schema.
//
// The entry is routed by kind and method (schema::RouteDef); what it finds goes into the
// frame's transcript entry (its schema_def and up to eight violations) before the entry is
// recorded and, when the frame breaks the schema, into one finding made once the frame has its
// number: "schema" for a plugin frame, "host-frame-invalid" (a harness fault) for one the host
// built.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "harness/json/rapidjson.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/result/transcript.hpp"

namespace fakehost::schema {
class FrameSchema;
}

namespace fakehost::session {

/// What validation found wrong with a frame: the entry it broke and its violations as a
/// finding lists them.
struct SchemaVerdict {
  std::string def;
  std::string violations;
};

/// Validates `frame` against its entry, unless `schema` is null or the frame has no valid
/// envelope: fills `entry`'s schema_def, violations and notes; nullopt when the frame holds.
std::optional<SchemaVerdict> Validate(const schema::FrameSchema* schema,
                                      result::TranscriptEntry& entry, const rapidjson::Value& frame,
                                      protocol::MessageKind kind, const std::string& method);
/// The finding for frame number `number`, recorded once validated, that broke its entry:
/// "schema" for a plugin frame, "host-frame-invalid" (a harness fault) for one the host built.
result::Finding SchemaFinding(const protocol::Profile& profile, const SchemaVerdict& verdict,
                              bool from_plugin, std::size_t number, std::string_view revision);

}  // namespace fakehost::session
