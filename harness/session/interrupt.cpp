#include "harness/session/interrupt.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>

#include "harness/process/child.hpp"

namespace fakehost::session {
namespace {

std::atomic<bool> g_interrupted{false};
int g_fd = -1;

extern "C" void OnSignal(int) {
  const int saved = errno;  // a handler must leave errno as it found it
  if (g_interrupted.exchange(true)) {
    // The second one, or later: the user insists. Teardown skips to SIGKILL; reports follow.
    process::RequestHurry();
    errno = saved;
    return;
  }
  std::uint64_t one = 1;
  ssize_t ignored = ::write(g_fd, &one, sizeof one);  // async-signal-safe
  (void)ignored;
  errno = saved;
}

}  // namespace

void InstallInterruptHandlers() {
  if (g_fd >= 0) return;
  g_fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

const std::atomic<bool>& InterruptFlag() { return g_interrupted; }

int InterruptFd() { return g_fd; }

}  // namespace fakehost::session
