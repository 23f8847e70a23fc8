#include "harness/report/destination.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

namespace fakehost::report {
namespace {

namespace fs = std::filesystem;

std::string Reason(int error) { return std::strerror(error); }

std::string Absolute(const std::string& path) {
  std::error_code ec;
  return fs::absolute(path, ec).lexically_normal().string();
}

// The kernel's names for what already exists: nothing is created or replaced under them.
bool IsKernelPath(const std::string& absolute) {
  return absolute.rfind("/dev/", 0) == 0 || absolute.rfind("/proc/", 0) == 0;
}

const char* KindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

// 1 or 2 when `st` is the very file that descriptor is open on, whatever named it (/dev/stdout,
// /dev/fd/1, /proc/self/fd/2, a terminal's node, the file stdout was redirected to); else -1.
int StandardStreamOf(const struct stat& st, const std::string& absolute) {
  const bool err_first =
      absolute == "/dev/stderr" || absolute == "/dev/fd/2" || absolute == "/proc/self/fd/2";
  for (int fd : {err_first ? 2 : 1, err_first ? 1 : 2}) {
    struct stat own {};
    if (::fstat(fd, &own) == 0 && own.st_dev == st.st_dev && own.st_ino == st.st_ino) return fd;
  }
  return -1;
}

// Whether a character device is a terminal, by number in the kernel's table of tty drivers
// (/proc/tty/drivers: name, node, major, minors, type), so that no other device is opened to find
// out: opening some has effects (a watchdog starts counting). A pseudo-terminal master (/dev/ptmx,
// pty:master) is no terminal to write to.
bool IsTerminalDevice(dev_t rdev) {
  const unsigned want_major = major(rdev), want_minor = minor(rdev);
  std::ifstream in("/proc/tty/drivers");
  bool table = false;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string name, node, minors, type;
    unsigned driver_major = 0;
    if (!(fields >> name >> node >> driver_major >> minors >> type)) continue;
    table = true;
    if (node == "/dev/ptmx" || type == "pty:master" || driver_major != want_major) continue;
    unsigned low = 0, high = 0;
    char dash = 0;
    std::istringstream range(minors);
    range >> low;
    high = (range >> dash >> high) ? high : low;
    if (want_minor >= low && want_minor <= high) return true;
  }
  if (table) return false;
  // No table (a /proc without it): Linux's fixed numbers (admin-guide/devices.txt) for consoles
  // and serial ports, /dev/tty and /dev/console, and pseudo-terminal slaves.
  return want_major == 4 || (want_major == 5 && want_minor <= 1) ||
         (want_major >= 136 && want_major <= 143);
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

std::atomic<unsigned> temp_serial{0};

std::string TemporaryName(const std::string& beside) {
  return beside + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(temp_serial++);
}

// The temporary file an atomic write fills, beside `beside`; -1 with errno set.
int OpenTemporary(const std::string& beside, std::string* name) {
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
    *name = TemporaryName(beside);
    fd = ::open(name->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  return fd;
}

// Proves that the final write will be able to create `entry`: the write's own first creation is
// made now and undone at once (its temporary file beside `entry` when the directory exists, else
// the first missing directory, in the nearest one that exists). access(2) is no such proof: it
// says yes to root wherever the file system is mounted read-write, /sys and /proc included, where
// nobody can create a file.
bool ProbeCreation(const fs::path& entry, const std::string& path, std::string* error) {
  fs::path at = entry.parent_path().empty() ? fs::path(".") : entry.parent_path(), missing;
  struct stat st {};
  while (::stat(at.c_str(), &st) != 0) {
    if (errno != ENOENT || !at.has_relative_path()) {
      *error = "cannot write " + path + ": " + at.string() + ": " + Reason(errno);
      return false;
    }
    missing = at;
    at = at.parent_path().empty() ? fs::path(".") : at.parent_path();
  }
  if (!S_ISDIR(st.st_mode)) {
    *error = "cannot write " + path + ": " + at.string() + " is not a directory";
    return false;
  }
  std::string probe;
  if (missing.empty()) {
    int fd = OpenTemporary(entry.string(), &probe);
    if (fd < 0) {
      *error = "cannot write " + path + ": cannot create a file in " + at.string() + ": " +
               Reason(errno);
      return false;
    }
    ::close(fd);
    ::unlink(probe.c_str());
  } else {
    probe = TemporaryName(missing.string());
    if (::mkdir(probe.c_str(), 0700) != 0) {
      *error = "cannot write " + path + ": cannot create a directory in " + at.string() + ": " +
               Reason(errno);
      return false;
    }
    ::rmdir(probe.c_str());
  }
  return true;
}

// Opens a stream to write into it as it is: never created (no O_CREAT), truncated or replaced.
// Without blocking (a FIFO nobody reads is ENXIO at once, a serial line's carrier is not waited
// for), then blocking again so that the report is written whole. Close-on-exec: no plugin holds
// it, so a FIFO's reader sees its end when fakehost closes it.
int OpenStream(const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return -1;
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

// What the rules make of a path: a stream, opened (`fd`, the caller's to close), or a regular
// file, existing or not, whose content goes to `target`.
struct Resolved {
  int fd = -1;
  fs::path target;
  bool exists = false;
  struct stat st {};
};

// A character device that is not the standard output or error: /dev/null (1:3, by number under
// any name) and terminals are opened; no other device is, not even to look.
bool OpenDevice(const std::string& path, Resolved* r, std::string* error) {
  const bool null = r->st.st_rdev == makedev(1, 3);
  if (!null && !IsTerminalDevice(r->st.st_rdev)) {
    *error = "cannot write " + path +
             ": it is a device, not a file, a terminal, the standard output or error, or /dev/null";
    return false;
  }
  r->fd = OpenStream(path);
  if (r->fd < 0) {
    // ENXIO: a terminal's node with nothing behind it (/dev/tty without a controlling terminal).
    *error = "cannot write " + path + ": " +
             (errno == ENXIO ? "no terminal is behind it (" + Reason(errno) + ")" : Reason(errno));
    return false;
  }
  if (!null && !::isatty(r->fd)) {
    ::close(r->fd), r->fd = -1;
    *error = "cannot write " + path + ": it is a device, and not a terminal";
    return false;
  }
  return true;
}

// The rules of destination.hpp, in their order. `probe`: prove a regular file's directory (at the
// check); at the write, the write itself is the proof.
bool Resolve(const std::string& path, bool probe, Resolved* r, std::string* error) {
  auto refuse = [&](const std::string& why) {
    *error = "cannot write " + path + ": " + why;
    return false;
  };
  const std::string absolute = Absolute(path);
  r->exists = ::stat(path.c_str(), &r->st) == 0;
  if (!r->exists && errno != ENOENT && errno != ENOTDIR)  // ENOTDIR: the probe says where
    return refuse(Reason(errno));
  const mode_t mode = r->st.st_mode;
  if (r->exists) {
    if (int own = StandardStreamOf(r->st, absolute); own >= 0) {
      r->fd = ::fcntl(own, F_DUPFD_CLOEXEC, 3);
      return r->fd >= 0 || refuse(Reason(errno));
    }
    if (S_ISDIR(mode)) return refuse("it is a directory");
    if (S_ISFIFO(mode)) {
      r->fd = OpenStream(path);
      return r->fd >= 0 || refuse(errno == ENXIO ? "nobody reads the FIFO; start its reader first"
                                                 : Reason(errno));
    }
    if (S_ISCHR(mode)) return OpenDevice(path, r, error);
    if (!S_ISREG(mode))
      return refuse(std::string("it is ") + KindOf(mode) + ", which fakehost does not replace");
  }
  r->target = Target(path);
  if (IsKernelPath(absolute) || IsKernelPath(r->target.lexically_normal().string()))
    return refuse(r->exists ? "it is a regular file under /dev/ or /proc/, which fakehost neither "
                              "replaces nor writes into"
                            : "it does not exist, and fakehost creates no files there");
  if (r->exists && ::access(path.c_str(), W_OK) != 0) return refuse(Reason(errno));
  return !probe || ProbeCreation(r->target, path, error);
}

// Streams opened by CheckDestination, by the path as given, until WriteFileAtomically writes
// there: the FIFO's reader that was there at the check gets the report, even if the FIFO's name
// is replaced meanwhile. `checks`: how many destinations named the path (two reports to one
// FIFO); the descriptor is closed after the last one's write.
struct Held {
  int fd;
  int checks;
};
std::mutex held_mutex;
std::map<std::string, Held>& HeldStreams() {
  static std::map<std::string, Held> held;
  return held;
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

// A FIFO or pipe whose reader left is EPIPE, and a SIGPIPE that would end fakehost where no
// command ignores it (report merge, certify merge): blocked for this thread during the write, and
// the one the write raised taken back, so it is an error message and exit 3, not a death.
bool WriteStream(int fd, bool close, const std::string& path, const std::string& content,
                 std::string* error) {
  sigset_t pipe_only, before, pending;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_only, &before);
  const bool was_pending = ::sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
  bool ok = WriteAll(fd, content);
  int saved = errno;
  if (!ok && saved == EPIPE && !was_pending) {
    const struct timespec now {};
    ::sigtimedwait(&pipe_only, nullptr, &now);
  }
  ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
  if (close) ::close(fd);
  if (!ok) *error = "cannot write " + path + ": " + Reason(saved);
  return ok;
}

bool ReplaceAtomically(const fs::path& target, const std::string& path, const std::string& content,
                       const struct stat* existing, std::string* error) {
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  std::string tmp;
  int fd = OpenTemporary(target.string(), &tmp);
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
  std::lock_guard lock(held_mutex);
  auto& held = HeldStreams();
  if (auto it = held.find(path); it != held.end()) {
    ++it->second.checks;
    return true;
  }
  Resolved r;
  if (!Resolve(path, /*probe=*/true, &r, error)) return false;
  if (r.fd >= 0) held[path] = {r.fd, 1};
  return true;
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
  return ProbeCreation(fs::absolute(dir) / ".fakehost", dir, error);
}

bool WriteFileAtomically(const std::string& path, const std::string& content, std::string* error) {
  if (path.empty()) {
    *error = "an empty path";
    return false;
  }
  int fd = -1;
  bool last = true;
  {
    std::lock_guard lock(held_mutex);
    auto& held = HeldStreams();
    if (auto it = held.find(path); it != held.end()) {
      fd = it->second.fd;
      last = --it->second.checks == 0;
      if (last) held.erase(it);
    }
  }
  if (fd < 0) {
    Resolved r;
    if (!Resolve(path, /*probe=*/false, &r, error)) return false;
    if (r.fd < 0)
      return ReplaceAtomically(r.target, path, content, r.exists ? &r.st : nullptr, error);
    fd = r.fd;
  }
  return WriteStream(fd, last, path, content, error);
}

}  // namespace fakehost::report
