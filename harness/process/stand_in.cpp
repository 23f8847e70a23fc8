#include "harness/process/stand_in.hpp"

#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

namespace fakehost::process {

bool StandInParent::Start() {
  const pid_t parent = ::getpid();
  pid_ = ::fork();
  if (pid_ == 0) {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    ::sigaction(SIGINT, &dfl, nullptr);
    ::sigaction(SIGTERM, &dfl, nullptr);
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent ||
        ::syscall(SYS_close_range, 3U, ~0U, 0U) != 0)
      ::_exit(1);
    for (;;) ::pause();
  }
  return pid_ > 0;
}

void StandInParent::Kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
}

}  // namespace fakehost::process
