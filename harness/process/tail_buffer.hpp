// The last bytes of a stream, in bounded memory: what the harness keeps of a plugin's stderr.
//
// A plugin that crashes says why at the end of its stderr (an exception's message, a panic, an
// allocator's complaint), so the end is what is kept; a plugin flooding stderr costs `cap`
// bytes however much it writes. The bytes before the kept ones are only counted.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fakehost::process {

class TailBuffer {
 public:
  explicit TailBuffer(std::size_t cap) : cap_(cap) {}

  /// Adds `bytes` at the end, dropping the oldest bytes beyond the cap.
  void Append(std::string_view bytes);

  /// The kept bytes, oldest first: the last min(cap, everything appended) bytes.
  std::string Text() const;
  /// Bytes appended and no longer kept (all before the first byte of Text()).
  std::uint64_t dropped() const { return total_ - ring_.size(); }

 private:
  std::size_t cap_;
  std::string ring_;       // grows to cap_, then is overwritten in a circle
  std::size_t start_ = 0;  // where the oldest kept byte is, once ring_ is full
  std::uint64_t total_ = 0;
};

}  // namespace fakehost::process
