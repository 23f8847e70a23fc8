#include "harness/json/text_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace fakehost::json {

bool CheckInputFile(const std::string& path, std::size_t cap, std::string* error) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    *error = path + ": cannot open (" + std::strerror(errno) + ")";
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    *error = path + ": not a regular file";
    return false;
  }
  if (static_cast<std::uint64_t>(st.st_size) > cap) {
    *error = path + ": " + std::to_string(st.st_size) + " bytes, more than the " +
             std::to_string(cap) + "-byte limit for this kind of file";
    return false;
  }
  return true;
}

bool ReadFileCapped(const std::string& path, std::size_t cap, std::string* out,
                    std::string* error) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below anyway.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    *error = path + ": cannot open (" + std::strerror(errno) + ")";
    return false;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    *error = path + ": not a regular file";
    return false;
  }
  if (static_cast<std::uint64_t>(st.st_size) > cap) {
    ::close(fd);
    *error = path + ": " + std::to_string(st.st_size) + " bytes, more than the " +
             std::to_string(cap) + "-byte limit for this kind of file";
    return false;
  }
  out->clear();
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *error = path + ": read failed (" + std::strerror(errno) + ")";
      ::close(fd);
      return false;
    }
    if (n == 0) break;
    // The file may grow while it is read: the cap holds for what is read, not only for stat.
    if (out->size() + static_cast<std::size_t>(n) > cap) {
      *error =
          path + ": more than the " + std::to_string(cap) + "-byte limit for this kind of file";
      ::close(fd);
      return false;
    }
    out->append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return true;
}

LineCol LocateOffset(std::string_view text, std::size_t offset) {
  LineCol lc;
  if (offset > text.size()) offset = text.size();
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++lc.line;
      lc.column = 1;
    } else {
      ++lc.column;
    }
  }
  return lc;
}

}  // namespace fakehost::json
