// Bytes queued for a child's stdin, shared rather than copied.
//
// A write holds views of memory that an owner keeps alive until the write has completed or been
// abandoned (asio may still hold the views after the queue has let go of them). A string is taken
// over whole; the pieces of one large buffer (a `send_raw` written in 64 KiB chunks) all share
// it, so 40 MiB written in chunks are held once, not once more per chunk queued; a frame may be
// several pieces written back to back (its document's long strings and the text around them).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fakehost::process {

class SharedBytes {
 public:
  SharedBytes() = default;
  /// Takes the string over (implicit: a caller with a string just hands it on).
  SharedBytes(std::string bytes)  // NOLINT(google-explicit-constructor)
      : SharedBytes(std::make_shared<const std::string>(std::move(bytes))) {}
  SharedBytes(const char* text) : SharedBytes(std::string(text)) {}  // NOLINT
  /// All of `buffer`.
  explicit SharedBytes(std::shared_ptr<const std::string> buffer)
      : SharedBytes(buffer, 0, buffer->size()) {}
  /// `size` bytes of `buffer` from `offset` (clamped to the buffer).
  SharedBytes(std::shared_ptr<const std::string> buffer, std::size_t offset, std::size_t size)
      : SharedBytes(buffer, {std::string_view(*buffer).substr(offset, size)}) {}
  /// `pieces`, back to back, in memory `owner` keeps alive.
  SharedBytes(std::shared_ptr<const void> owner, std::vector<std::string_view> pieces)
      : owner_(std::move(owner)), pieces_(std::move(pieces)) {
    for (std::string_view piece : pieces_) size_ += piece.size();
  }

  const std::vector<std::string_view>& pieces() const { return pieces_; }
  std::size_t size() const { return size_; }
  /// The bytes in one string (a copy: for tests and fakes).
  std::string Joined() const {
    std::string all;
    for (std::string_view piece : pieces_) all += piece;
    return all;
  }

 private:
  std::shared_ptr<const void> owner_;
  std::vector<std::string_view> pieces_;
  std::size_t size_ = 0;
};

}  // namespace fakehost::process
