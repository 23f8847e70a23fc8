#include "harness/session/inbox.hpp"

#include <iterator>

namespace fakehost::session {

std::vector<std::size_t> Inbox::Keep(Inbound message) {
  bytes_ += message.bytes;
  messages_.push_back(std::move(message));
  std::vector<std::size_t> released;
  for (auto it = messages_.begin(); Over() && std::next(it) != messages_.end();) {
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
