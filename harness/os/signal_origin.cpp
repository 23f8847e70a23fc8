#include "harness/os/signal_origin.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace fakehost::os {
namespace {

// Enough for any process tree; a loop in a corrupted read ends here too.
constexpr int kMaxDepth = 128;

// "/proc/<pid>/stat" into `out` (at least 32 bytes), without allocating.
void StatPath(long pid, char* out) {
  const char prefix[] = "/proc/";
  int at = 0;
  for (const char* p = prefix; *p != '\0'; ++p) out[at++] = *p;
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + pid % 10);
    pid /= 10;
  } while (pid > 0 && n < 20);
  while (n > 0) out[at++] = digits[--n];
  const char suffix[] = "/stat";
  for (const char* p = suffix; *p != '\0'; ++p) out[at++] = *p;
  out[at] = '\0';
}

}  // namespace

long ParentOf(long pid) {
  if (pid <= 0) return -1;
  char path[32];
  StatPath(pid, path);
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  // "pid (comm) S ppid ...": comm is at most 16 bytes but may hold ')' and spaces, so the
  // parent follows the last ')'. 512 bytes always reach it.
  char buf[512];
  ssize_t n;
  do {
    n = ::read(fd, buf, sizeof buf);
  } while (n < 0 && errno == EINTR);
  ::close(fd);
  if (n <= 0) return -1;
  int close_paren = -1;
  for (int i = 0; i < n; ++i)
    if (buf[i] == ')') close_paren = i;
  int at = close_paren + 4;  // ") S " then the parent
  if (close_paren < 0 || at >= n) return -1;
  long parent = 0;
  bool any = false;
  for (; at < n && buf[at] >= '0' && buf[at] <= '9'; ++at) {
    parent = parent * 10 + (buf[at] - '0');
    any = true;
  }
  return any ? parent : -1;
}

SignalOrigin JudgeSignalOrigin(const siginfo_t* info) {
  if (info == nullptr || info->si_code > 0) return SignalOrigin::kKernel;
  const long sender = info->si_pid;
  if (sender == 0) return SignalOrigin::kOutside;
  if (sender == ::getpid()) return SignalOrigin::kSelf;
  long above = ::getppid();
  for (int depth = 0; depth < kMaxDepth && above > 0; ++depth) {
    if (above == sender) return SignalOrigin::kAncestor;
    above = ParentOf(above);  // 0 above pid 1 (and above a parent in another namespace)
  }
  return SignalOrigin::kOther;
}

}  // namespace fakehost::os
