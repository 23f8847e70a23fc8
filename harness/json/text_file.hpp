// Reading input files with a size cap, and locating a byte offset as line:column.
//
// Every file fakehost reads on a user's behalf (scenarios, manifests, fakehost.yaml) is read
// through ReadFileCapped, so a huge or endless file (a FIFO, /dev/zero) costs at most `cap`
// bytes and an error, never unbounded memory. Parse errors name line:column, not a byte offset.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace fakehost::json {

/// Default cap for files a person writes (scenarios, manifests, fakehost.yaml): 1 MiB.
inline constexpr std::size_t kInputFileCap = 1024 * 1024;

/// Reads a regular file of at most `cap` bytes into `*out`. False with `*error` (naming the
/// path) when it cannot be opened, is not a regular file, or is larger than `cap`.
bool ReadFileCapped(const std::string& path, std::size_t cap, std::string* out, std::string* error);

/// 1-based line and column (in bytes) of `offset` in `text`; an offset past the end is placed
/// after the last byte.
struct LineCol {
  int line = 1;
  int column = 1;
};
LineCol LocateOffset(std::string_view text, std::size_t offset);

}  // namespace fakehost::json
