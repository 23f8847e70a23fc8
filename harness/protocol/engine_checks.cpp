// The always-on checks the engine raises, with the placeholders each one's wording may use.
// Every profile words each of them (profile member "checks"); Profile refuses one that does not.
#include "harness/protocol/profile.hpp"

namespace fakehost::protocol {

const std::vector<EngineCheck>& EngineChecks() {
  static const std::vector<EngineCheck> checks = {
      {"not-json", {"frame", "error"}, false},
      {"duplicate-key", {"frame", "key"}, false},
      {"invalid-envelope", {"frame", "reason"}, false},
      {"null-reply-id", {"frame"}, false},
      {"bad-reply-id", {"frame", "type"}, false},
      {"reply-id-type", {"frame", "request", "method", "id", "type", "request_id"}, false},
      {"unknown-reply-id", {"frame", "id"}, false},
      {"reply-to-invalid-request", {"frame", "id", "request", "request_id"}, false},
      {"duplicate-reply", {"frame", "request", "method", "request_id", "first"}, false},
      {"before-handshake", {"what"}, false},
      {"after-shutdown", {"what", "notification"}, false},
      {"stdin-blocked", {"frame", "ms", "frames", "bytes"}, false},
      {"schema", {"frame", "def", "violations"}, false},
      {"host-frame-invalid", {"frame", "def", "violations"}, false},
      {"oversized", {"frame", "size", "max"}, false},
      {"truncated", {"frame", "received", "expected"}, false},
      {"truncated-by-teardown", {"frame", "received", "expected"}, false},
      {"header-text", {"hex", "text"}, true},
      {"header-big-endian", {"size"}, true},
  };
  return checks;
}

}  // namespace fakehost::protocol
