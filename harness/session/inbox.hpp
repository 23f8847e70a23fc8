// The plugin's messages as a session keeps them for the steps: every message that passed the
// pipeline (checked, recorded, answered by the fake host when it answers) is kept here, bounded,
// until a step takes it.
//
// Steps pull: a waiting step reads the inbox through a Cursor (Session::Next), oldest first,
// each message once, and takes (Session::Take) the one it wants; the rest stay for later steps.
// Messages are handed out owned, never by reference. Past a count and a byte budget the oldest
// are released, but never one the step waiting now has not read yet, so a burst of frames in
// one read cannot slip past it.
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

/// Where a waiting step has read the inbox up to: it reads next the oldest message whose frame
/// number is `from` or later.
struct Cursor {
  std::size_t from = 0;
};

/// Plugin messages no step took, oldest first (by frame number), within a count and a byte
/// budget.
class Inbox {
 public:
  struct Caps {
    std::size_t documents;  ///< Session::Options::inbox_documents_cap
    std::size_t bytes;      ///< Session::Options::inbox_bytes_cap
  };
  explicit Inbox(Caps caps) : caps_(caps) {}

  /// Keeps `message`. Past either cap the oldest go, but never the newest (a step waiting now
  /// wants it most), nor a first answer to a host request (at most one per request), nor, up to
  /// kUnreadHeld times the caps, one the waiting step has not read yet (HoldUnread): returns the
  /// frame numbers released.
  std::vector<std::size_t> Keep(Inbound message);
  /// How far past its caps the inbox holds what a waiting step has not read: one read of the
  /// plugin's stdout (or one batch) may bring more frames than the caps, each of which the step
  /// must see; past this a flood is released like any other, so memory stays bounded whatever
  /// the plugin sends (the released frames' entries say so).
  /// While a step waits at `cursor`, what it has not read is kept past the caps; nullptr: no
  /// step waits.
  void HoldUnread(const Cursor* cursor) { unread_from_ = cursor ? cursor->from : SIZE_MAX; }
  /// The oldest message at or after `cursor` (a copy: it stays until taken); nullopt when none.
  std::optional<Inbound> After(const Cursor& cursor) const;
  /// Removes frame `frame`'s message; false when it is not here (taken or released).
  bool Take(std::size_t frame);
  /// The oldest message `accept` accepts, removed from the inbox; nullopt when it accepts none.
  /// `accept` sees the messages oldest first, and none after the one it accepts.
  std::optional<Inbound> Take(const std::function<bool(const Inbound&)>& accept);

  std::size_t size() const { return messages_.size(); }
  bool empty() const { return messages_.empty(); }
  /// Messages released before anyone took them.
  std::uint64_t released() const { return released_; }
  const Caps& caps() const { return caps_; }
  static constexpr std::size_t kUnreadHeld = 4;

 private:
  bool Over(std::size_t times = 1) const {
    return messages_.size() > times * caps_.documents || bytes_ > times * caps_.bytes;
  }

  Caps caps_;
  std::deque<Inbound> messages_;
  std::size_t bytes_ = 0;
  std::uint64_t released_ = 0;
  std::size_t unread_from_ = SIZE_MAX;  // HoldUnread
};

}  // namespace fakehost::session
