#include <signal.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

#include <cstring>
#include <mutex>
#include <string>

#include "harness/os/signals.hpp"
#include "harness/process/child.hpp"
#include "harness/process/child_state.hpp"
#include "harness/process/contain.hpp"

namespace fakehost::process {
namespace {

std::atomic<bool> g_hurry{false};
int g_hurry_fd = -1;  // set once, by InitProcessEnvironment, before any handler can run

}  // namespace

namespace detail {
int HurryFd() { return g_hurry_fd; }
}  // namespace detail

std::string ExitStatus::Describe() const {
  std::string text = "no exit status";
  if (code) {
    text = "exit code " + std::to_string(*code);
  } else if (signal) {
    text = "killed by " + os::SignalName(*signal);
  }
  if (!limit.empty()) text += ": " + limit;
  return text;
}

SweepResult SweepOrphans(std::chrono::milliseconds budget) {
  const detail::SweepCount count = detail::KillAndReapOrphans(budget);
  return {count.killed, count.reaped};
}

void RequestHurry() {
  g_hurry.store(true);
  if (g_hurry_fd >= 0) {
    std::uint64_t one = 1;
    ssize_t ignored = ::write(g_hurry_fd, &one, sizeof one);  // async-signal-safe
    (void)ignored;
  }
}

bool HurryRequested() { return g_hurry.load(); }

void InitProcessEnvironment() {
  static std::once_flag once;
  std::call_once(once, [] {
    // A write to a plugin that closed its stdin must come back as EPIPE, not kill the harness.
    ::signal(SIGPIPE, SIG_IGN);
    // Inherited as SIG_IGN (some CI runners do that), SIGCHLD would make the kernel reap
    // children itself and every wait fail with ECHILD.
    ::signal(SIGCHLD, SIG_DFL);
    // Orphaned grandchildren become our children instead of init's, so ~Child can reap them.
    ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    // Not dumpable: a plugin running as the same user can then neither open /proc/<harness>/fd/*
    // (to write into the harness's stdout or its report files), nor read its memory, nor ptrace
    // it. Plugins are exec'd, and exec makes them dumpable again. Root passes these checks
    // anyway (CAP_SYS_PTRACE): see the README's security section.
    ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    g_hurry_fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  });
}

}  // namespace fakehost::process
