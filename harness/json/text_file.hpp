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

/// Default cap for files a person writes (scenarios, manifests, fakehost.yaml, baselines, corpus
/// lists): 1 MiB.
inline constexpr std::size_t kInputFileCap = 1024 * 1024;
/// A protocol's profile (the largest shipped is 40 KB).
inline constexpr std::size_t kProfileFileCap = 4 * 1024 * 1024;
/// A JSON Schema of a protocol's frames (the largest shipped is 470 KB).
inline constexpr std::size_t kSchemaFileCap = 32 * 1024 * 1024;
/// A transcript fakehost wrote (JSON lines): `validate`, `from-transcript`.
inline constexpr std::size_t kTranscriptFileCap = 256 * 1024 * 1024;

/// Reads a regular file of at most `cap` bytes into `*out`. False with `*error` (naming the
/// path) when it cannot be opened, is not a regular file, or is larger than `cap`.
bool ReadFileCapped(const std::string& path, std::size_t cap, std::string* out, std::string* error);

/// For a file read as a stream (a transcript, line by line): a regular file of at most `cap`
/// bytes, checked with stat before it is opened (a FIFO is never opened, so never waited on).
bool CheckInputFile(const std::string& path, std::size_t cap, std::string* error);

/// 1-based line and column (in bytes) of `offset` in `text`; an offset past the end is placed
/// after the last byte.
struct LineCol {
  int line = 1;
  int column = 1;
};
LineCol LocateOffset(std::string_view text, std::size_t offset);

}  // namespace fakehost::json
