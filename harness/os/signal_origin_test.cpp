#include "harness/os/signal_origin.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>

namespace fakehost::os {
namespace {

siginfo_t From(pid_t sender, int code = SI_USER) {
  siginfo_t info{};
  info.si_signo = SIGINT;
  info.si_code = code;
  info.si_pid = sender;
  return info;
}

TEST(SignalOrigin, TheKernelTheSelfAndEveryAncestorAreTheUsers) {
  siginfo_t info = From(0, SI_KERNEL);  // a terminal's Ctrl-C
  EXPECT_EQ(JudgeSignalOrigin(&info), SignalOrigin::kKernel);
  info = From(0);
  EXPECT_EQ(JudgeSignalOrigin(&info), SignalOrigin::kOutside);
  info = From(::getpid());
  EXPECT_EQ(JudgeSignalOrigin(&info), SignalOrigin::kSelf);
  info = From(::getppid());
  EXPECT_EQ(JudgeSignalOrigin(&info), SignalOrigin::kAncestor);
  const long grandparent = ParentOf(::getppid());
  if (grandparent > 0) {
    info = From(static_cast<pid_t>(grandparent));
    EXPECT_EQ(JudgeSignalOrigin(&info), SignalOrigin::kAncestor);
  }
  EXPECT_EQ(ParentOf(::getpid()), ::getppid());
}

std::atomic<int> g_judged{-1};

extern "C" void Judge(int, siginfo_t* info, void*) {
  g_judged.store(static_cast<int>(JudgeSignalOrigin(info)));
}

TEST(SignalOrigin, AChildsKillOfItsParentIsNotTheUsersEvenOnceTheChildIsGone) {
  struct sigaction sa {
  }, old{};
  sa.sa_sigaction = Judge;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  ASSERT_EQ(::sigaction(SIGUSR1, &sa, &old), 0);
  sigset_t usr1, saved;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  // Held until the child has exited and been reaped: the sender no longer exists when judged.
  ASSERT_EQ(::pthread_sigmask(SIG_BLOCK, &usr1, &saved), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::kill(::getppid(), SIGUSR1);
    ::_exit(0);
  }
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);
  ::pthread_sigmask(SIG_SETMASK, &saved, nullptr);  // delivered here
  ::sigaction(SIGUSR1, &old, nullptr);
  EXPECT_EQ(g_judged.load(), static_cast<int>(SignalOrigin::kOther));

  siginfo_t info = From(child);  // and judged on its pid alone
  EXPECT_FALSE(IsUsersSignal(JudgeSignalOrigin(&info)));
}

}  // namespace
}  // namespace fakehost::os
