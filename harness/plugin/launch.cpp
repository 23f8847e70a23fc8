#include "harness/plugin/launch.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string_view>

namespace fakehost::plugin {

bool PathStaysInside(const std::string& path) {
  if (!path.empty() && path[0] == '/') return false;
  int depth = 0;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = std::min(path.find('/', start), path.size());
    std::string_view part(path.data() + start, end - start);
    if (!part.empty() && part != ".") depth += part == ".." ? -1 : 1;
    if (depth < 0) return false;
    start = end + 1;
  }
  return true;
}

bool ResolvesInside(const std::string& dir, const std::string& path, std::string* resolved) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path root = fs::weakly_canonical(fs::absolute(dir, ec), ec);
  if (ec) return false;
  const fs::path full = fs::weakly_canonical(root / path, ec);
  if (ec) return false;
  *resolved = full.string();
  // Component by component: /plugins/a-old is not inside /plugins/a.
  auto r = root.begin();
  auto f = full.begin();
  for (; r != root.end(); ++r, ++f)
    if (f == full.end() || *f != *r) return false;
  return f != full.end();  // the directory itself is no file inside it
}

bool CheckExecFormat(const std::string& path, const std::string& what, std::string* error) {
  // O_NONBLOCK: the path was checked to be a regular file, but it may have been swapped for a
  // FIFO since; opening must never wait for a writer.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    *error = what + " " + path + " cannot be read (" + std::strerror(errno) + ")";
    return false;
  }
  struct stat st {};
  char head[4] = {};
  ssize_t n = -1;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) n = ::read(fd, head, sizeof head);
  ::close(fd);
  if (n < 0) {
    *error = what + " " + path + " is not a regular file";
    return false;
  }
  if (n == 0) {
    *error = what + " " + path + " is empty";
    return false;
  }
  std::string_view h(head, static_cast<std::size_t>(n));
  if (h.substr(0, 2) == "#!" || h == std::string_view("\x7f"
                                                      "ELF",
                                                      4))
    return true;
  *error = what + " " + path +
           " has no #! line and is not an executable binary: the host execs it directly, "
           "without a shell (a script needs a shebang line such as #!/usr/bin/env python3)";
  return false;
}

}  // namespace fakehost::plugin
