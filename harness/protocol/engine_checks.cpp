// The always-on checks the engine raises, with the placeholders each one's wording may use.
// Every profile words each of them (profile member "checks"), and its framing's own checks
// (wire::Framing::checks()); Profile refuses one that does not.
#include "harness/protocol/profile.hpp"

namespace fakehost::protocol {

const std::vector<EngineCheck>& EngineChecks() {
  static const std::vector<EngineCheck> checks = {
      {"not-json", {"frame", "error"}},
      {"duplicate-key", {"frame", "key"}},
      {"invalid-envelope", {"frame", "reason"}},
      {"null-reply-id", {"frame"}},
      {"error-without-id", {"frame"}},
      {"bad-reply-id", {"frame", "type"}},
      {"reply-id-type", {"frame", "request", "method", "id", "type", "request_id"}},
      {"unknown-reply-id", {"frame", "id"}},
      {"reply-to-invalid-request", {"frame", "id", "request", "request_id"}},
      {"duplicate-reply", {"frame", "request", "method", "request_id", "first"}},
      {"before-handshake", {"what"}},
      {"after-shutdown", {"what", "notification"}},
      {"stdin-blocked", {"frame", "ms", "frames", "bytes"}},
      {"schema", {"frame", "def", "violations"}},
      {"host-frame-invalid", {"frame", "def", "violations"}},
      {"oversized", {"frame", "size", "max"}},
      {"truncated", {"frame", "received", "expected"}},
      {"truncated-by-teardown", {"frame", "received", "expected"}},
      {"reused-request-id", {"frame", "id", "first"}, /*optional=*/true},
      {"progress-unknown-token", {"frame", "token"}, /*optional=*/true},
      {"progress-after-completion", {"frame", "token", "request", "answer"}, /*optional=*/true},
      {"progress-not-increasing", {"frame", "token", "value", "last", "first"}, /*optional=*/true},
      {"unannounced-notification",
       {"frame", "method", "announced", "sentence", "where"},
       /*optional=*/true},
  };
  return checks;
}

}  // namespace fakehost::protocol
