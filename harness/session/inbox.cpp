#include "harness/session/inbox.hpp"

#include <algorithm>
#include <iterator>

namespace fakehost::session {

namespace {

bool Before(const Inbound& message, std::size_t frame) { return message.frame < frame; }

}  // namespace

std::vector<std::size_t> Inbox::Keep(Inbound message) {
  bytes_ += message.bytes;
  messages_.push_back(std::move(message));
  std::vector<std::size_t> released;
  for (auto it = messages_.begin(); Over() && std::next(it) != messages_.end();) {
    // The waiting step reads these next, unless they flood past what is held for it.
    if (it->frame >= unread_from_ && !Over(kUnreadHeld)) break;
    if (it->answers_request) {
      ++it;
      continue;
    }
    bytes_ -= it->bytes;
    released.push_back(it->frame);
    ++released_;
    it = messages_.erase(it);
  }
  return released;
}

std::optional<Inbound> Inbox::After(const Cursor& cursor) const {
  // Kept in the order they arrived, which is the order of their frame numbers.
  auto it = std::lower_bound(messages_.begin(), messages_.end(), cursor.from, Before);
  if (it == messages_.end()) return std::nullopt;
  return *it;
}

bool Inbox::Take(std::size_t frame) {
  auto it = std::lower_bound(messages_.begin(), messages_.end(), frame, Before);
  if (it == messages_.end() || it->frame != frame) return false;
  bytes_ -= it->bytes;
  messages_.erase(it);
  return true;
}

std::optional<Inbound> Inbox::Take(const std::function<bool(const Inbound&)>& accept) {
  for (auto it = messages_.begin(); it != messages_.end(); ++it) {
    if (!accept(*it)) continue;
    Inbound taken = std::move(*it);
    bytes_ -= taken.bytes;
    messages_.erase(it);
    return taken;
  }
  return std::nullopt;
}

}  // namespace fakehost::session
