// The plugin's messages as a session hands them on: pushed to a handler as they arrive, and
// kept, bounded, for a later step to take.
//
// As clangd's JSON transport calls its MessageHandler with each decoded message, a Session calls
// the MessageHandler installed (Session::SetHandler) with each plugin message once the message
// has passed the pipeline (checked, recorded, answered by the fake host when it answers). A
// handler that takes the message keeps what it needs of it; one it leaves goes to the Inbox,
// which hands its messages out owned (Take), never by reference, and releases the oldest past
// a count and a byte budget. So a step that waits looks at each message once: the inbox's
// backlog when it starts, then each message as it arrives, never again after every event.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/json/rapidjson.hpp"
#include "harness/protocol/profile.hpp"

namespace fakehost::session {

/// A decoded plugin->host message, with what the session found out about it.
struct Inbound {
  std::size_t frame = 0;  ///< transcript index (the number Record gave it)
  protocol::MessageKind kind = protocol::MessageKind::kInvalid;
  std::string method;  ///< requests/notifications; responses: the answered request's method
  std::shared_ptr<rapidjson::Document> doc;
  std::chrono::steady_clock::time_point at;
  std::size_t bytes = 0;          ///< payload bytes (counted against the inbox's byte budget)
  bool answered_by_host = false;  ///< requests: the fake host already replied
  bool valid = true;              ///< matched its schema entry
  bool answers_request = false;   ///< the first answer to a host request: never released
  /// Answers a request the host sent deliberately invalid (a Flash string id), echoing its id:
  /// the plugin may answer such noise or not, so the answer is neither required nor judged
  /// against a schema; or under the integer its id denotes (3 for 3.0), which the frame rules
  /// warn of (reply-to-invalid-request).
  bool echoes_noise = false;
  /// An error without an id (or id null) answering a frame the host wrote with no id to read
  /// (profile envelope.error_without_id): allowed, and no answer to anything a step sent, so no
  /// step's `response: true` takes it.
  bool answers_unreadable = false;
};

/// What a session calls with each plugin message, in the order they arrived.
class MessageHandler {
 public:
  virtual ~MessageHandler() = default;
  /// True if the handler takes `message` (copying what it keeps); false leaves it to the inbox.
  virtual bool OnMessage(const Inbound& message) = 0;
};

/// Plugin messages no handler took, oldest first, within a count and a byte budget.
class Inbox {
 public:
  struct Caps {
    std::size_t documents;  ///< Session::Options::inbox_documents_cap
    std::size_t bytes;      ///< Session::Options::inbox_bytes_cap
  };
  explicit Inbox(Caps caps) : caps_(caps) {}

  /// Keeps `message`. Past either cap the oldest go, but never the newest (a step waiting now
  /// wants it most) nor a first answer to a host request (at most one per request): returns the
  /// frame numbers released.
  std::vector<std::size_t> Keep(Inbound message);
  /// The oldest message `accept` accepts, removed from the inbox; nullopt when it accepts none.
  /// `accept` sees the messages oldest first, and none after the one it accepts.
  std::optional<Inbound> Take(const std::function<bool(const Inbound&)>& accept);

  std::size_t size() const { return messages_.size(); }
  bool empty() const { return messages_.empty(); }
  /// Messages released before anyone took them.
  std::uint64_t released() const { return released_; }
  const Caps& caps() const { return caps_; }

 private:
  bool Over() const { return messages_.size() > caps_.documents || bytes_ > caps_.bytes; }

  Caps caps_;
  std::deque<Inbound> messages_;
  std::size_t bytes_ = 0;
  std::uint64_t released_ = 0;
};

}  // namespace fakehost::session
