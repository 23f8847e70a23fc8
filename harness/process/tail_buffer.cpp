#include "harness/process/tail_buffer.hpp"

#include <algorithm>

namespace fakehost::process {

void TailBuffer::Append(std::string_view bytes) {
  total_ += bytes.size();
  if (cap_ == 0) return;
  if (bytes.size() >= cap_) {  // the new bytes alone fill the buffer
    ring_.assign(bytes.substr(bytes.size() - cap_));
    start_ = 0;
    return;
  }
  const std::size_t room = std::min(cap_ - ring_.size(), bytes.size());
  ring_.append(bytes.substr(0, room));
  bytes.remove_prefix(room);
  while (!bytes.empty()) {  // full: overwrite the oldest bytes
    const std::size_t n = std::min(bytes.size(), cap_ - start_);
    ring_.replace(start_, n, bytes.substr(0, n));
    start_ = (start_ + n) % cap_;
    bytes.remove_prefix(n);
  }
}

std::string TailBuffer::Text() const {
  std::string text;
  text.reserve(ring_.size());
  text.append(ring_, start_, std::string::npos);
  text.append(ring_, 0, start_);
  return text;
}

}  // namespace fakehost::process
