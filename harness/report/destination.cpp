#include "harness/report/destination.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace fakehost::report {
namespace {

namespace fs = std::filesystem;

// The kernel's names for streams that already exist: written in place, never created.
bool IsKernelPath(const std::string& path) {
  std::error_code ec;
  std::string absolute = fs::absolute(path, ec).lexically_normal().string();
  return absolute.rfind("/dev/", 0) == 0 || absolute.rfind("/proc/", 0) == 0;
}

std::string Reason(int error) { return std::strerror(error); }

const char* KindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

// The nearest directory at or above `dir` that exists, which is where a missing one would be
// created: it must be a directory we can write into.
bool CheckCreatable(const fs::path& dir, const std::string& path, std::string* error) {
  fs::path at = dir.empty() ? fs::path(".") : dir;
  struct stat st {};
  while (::stat(at.c_str(), &st) != 0) {
    if (errno != ENOENT || !at.has_relative_path()) {
      *error = "cannot write " + path + ": " + at.string() + ": " + Reason(errno);
      return false;
    }
    at = at.parent_path().empty() ? fs::path(".") : at.parent_path();
  }
  if (!S_ISDIR(st.st_mode)) {
    *error = "cannot write " + path + ": " + at.string() + " is not a directory";
    return false;
  }
  if (::access(at.c_str(), W_OK | X_OK) != 0) {
    *error = "cannot write " + path + ": cannot write in " + at.string() + ": " + Reason(errno);
    return false;
  }
  return true;
}

// Where a regular file's content goes: through symbolic links (a dangling one too) to their
// target, so that a link stays a link.
fs::path Target(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
    fs::path next = fs::read_symlink(p, ec);
    if (ec) break;
    p = (next.is_absolute() ? next : p.parent_path() / next).lexically_normal();
  }
  return p;
}

bool WriteAll(int fd, const std::string& content) {
  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// A stream: opened for writing as it is, appending, without blocking on a FIFO nobody reads.
bool WriteInPlace(const std::string& path, const std::string& content, std::string* error) {
  int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    *error = "cannot write " + path + ": " +
             (errno == ENXIO ? std::string("nobody reads this FIFO") : Reason(errno));
    return false;
  }
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  bool ok = WriteAll(fd, content);
  int saved = errno;
  ::close(fd);
  if (!ok) *error = "cannot write " + path + ": " + Reason(saved);
  return ok;
}

std::atomic<unsigned> temp_serial{0};

bool ReplaceAtomically(const fs::path& target, const std::string& path, const std::string& content,
                       const struct stat* existing, std::string* error) {
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  std::string tmp;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
    tmp = target.string() + ".tmp." + std::to_string(::getpid()) + "." +
          std::to_string(temp_serial++);
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    *error = "cannot write " + path + ": " + Reason(errno);
    return false;
  }
  if (existing) ::fchmod(fd, existing->st_mode & 07777);
  bool ok = WriteAll(fd, content);
  int saved = errno;
  if (::close(fd) != 0 && ok) ok = false, saved = errno;
  if (ok && std::rename(tmp.c_str(), target.c_str()) != 0) ok = false, saved = errno;
  if (!ok) {
    ::unlink(tmp.c_str());
    *error = "cannot write " + path + ": " + Reason(saved);
  }
  return ok;
}

}  // namespace

bool CheckDestination(const std::string& path, std::string* error) {
  if (path.empty()) {
    *error = "an empty path";
    return false;
  }
  struct stat st {};
  bool exists = ::stat(path.c_str(), &st) == 0;
  if (!exists && errno != ENOENT && errno != ENOTDIR) {  // ENOTDIR: CheckCreatable says where
    *error = "cannot write " + path + ": " + Reason(errno);
    return false;
  }
  if (exists && S_ISDIR(st.st_mode)) {
    *error = "cannot write " + path + ": it is a directory";
    return false;
  }
  if (IsKernelPath(path) || (exists && S_ISFIFO(st.st_mode))) {
    if (!exists) {
      *error = "cannot write " + path + ": it does not exist, and fakehost creates no files there";
      return false;
    }
    if (::access(path.c_str(), W_OK) != 0) {
      *error = "cannot write " + path + ": " + Reason(errno);
      return false;
    }
    return true;
  }
  if (exists && !S_ISREG(st.st_mode)) {
    *error = "cannot write " + path + ": it is " + KindOf(st.st_mode) +
             ", which fakehost does not replace";
    return false;
  }
  if (exists && ::access(path.c_str(), W_OK) != 0) {
    *error = "cannot write " + path + ": " + Reason(errno);
    return false;
  }
  return CheckCreatable(Target(path).parent_path(), path, error);
}

bool CheckDestinationDir(const std::string& dir, std::string* error) {
  if (dir.empty()) {
    *error = "an empty path";
    return false;
  }
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) {
    *error = "cannot write into " + dir + ": it is not a directory";
    return false;
  }
  return CheckCreatable(fs::absolute(dir), dir, error);
}

bool WriteFileAtomically(const std::string& path, const std::string& content, std::string* error) {
  if (!CheckDestination(path, error)) return false;
  struct stat st {};
  bool exists = ::stat(path.c_str(), &st) == 0;
  if (IsKernelPath(path) || (exists && S_ISFIFO(st.st_mode)))
    return WriteInPlace(path, content, error);
  return ReplaceAtomically(Target(path), path, content, exists ? &st : nullptr, error);
}

}  // namespace fakehost::report
