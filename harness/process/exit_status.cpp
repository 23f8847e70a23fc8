#include <signal.h>
#include <sys/prctl.h>

#include <cstring>
#include <mutex>
#include <string>

#include "harness/process/child.hpp"

namespace fakehost::process {

std::string ExitStatus::Describe() const {
  if (code) return "exit code " + std::to_string(*code);
  if (signal) {
    const char* abbrev = ::sigabbrev_np(*signal);  // "TERM"; null for unnamed (real-time)
    if (abbrev != nullptr) return std::string("killed by SIG") + abbrev;
    return "killed by signal " + std::to_string(*signal);
  }
  return "no exit status";
}

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
  });
}

}  // namespace fakehost::process
