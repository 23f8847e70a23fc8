#include "harness/session/interrupt.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>

#include "harness/os/signal_origin.hpp"
#include "harness/process/child.hpp"

namespace fakehost::session {
namespace {

std::atomic<bool> g_interrupted{false};
int g_fd = -1;
std::atomic<int> g_ignored{0};
std::atomic<long> g_ignored_pid{0};
std::atomic<int> g_ignored_signal{0};

extern "C" void OnSignal(int sig, siginfo_t* info, void*) {
  const int saved = errno;  // a handler must leave errno as it found it
  if (!os::IsUsersSignal(os::JudgeSignalOrigin(info))) {
    // A plugin's (or a stranger's): noted, and the run goes on.
    g_ignored_pid.store(info->si_pid);
    g_ignored_signal.store(sig);
    g_ignored.fetch_add(1);
    errno = saved;
    return;
  }
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
  sa.sa_sigaction = OnSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART | SA_SIGINFO;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

const std::atomic<bool>& InterruptFlag() { return g_interrupted; }

int InterruptFd() { return g_fd; }

std::string IgnoredSignalsNote() {
  const int count = g_ignored.load();
  if (count == 0) return {};
  const int sig = g_ignored_signal.load();
  return "ignored " + std::to_string(count) + " interrupting signal" + (count > 1 ? "s" : "") +
         " (the last " + (sig == SIGINT ? "SIGINT" : "SIGTERM") + " from pid " +
         std::to_string(g_ignored_pid.load()) +
         "): only the terminal, fakehost's parent or another process above it can interrupt a "
         "run, and a plugin is none of them";
}

}  // namespace fakehost::session
