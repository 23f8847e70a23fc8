// The one place a host frame is built: what every message the host sends looks like on the wire.
#pragma once

#include "harness/json/rapidjson.hpp"
#include "harness/protocol/profile.hpp"

namespace fakehost::protocol {

/// The frame the host sends for `message`: the profile's envelope members first (so transcripts
/// read like the spec's examples), then the message, and for requests the profile's request
/// members (Flash: deadline_ms, the method's deadline unless the message gives its own). Used by
/// the session for every frame it sends, by the player to pad a frame to a size, by `schema
/// check` to certify the host's frames and by the fuzzer to build its frames.
rapidjson::Document HostFrame(const Profile& profile, rapidjson::Document message);

}  // namespace fakehost::protocol
