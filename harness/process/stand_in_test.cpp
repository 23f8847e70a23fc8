#include "harness/process/stand_in.hpp"

#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>

namespace fakehost::process {
namespace {

TEST(StandInParent, LivesUntilKilledAndIsReapedThen) {
  StandInParent s;
  ASSERT_TRUE(s.Start());
  pid_t pid = s.pid();
  ASSERT_GT(pid, 0);
  EXPECT_EQ(::kill(pid, 0), 0) << "alive after Start";
  s.Kill();
  EXPECT_EQ(s.pid(), -1);
  errno = 0;
  EXPECT_EQ(::kill(pid, 0), -1) << "gone and reaped after Kill";
  EXPECT_EQ(errno, ESRCH);
}

// It must not keep a plugin's pipe open: the write end closed here reads as EOF at once.
TEST(StandInParent, HoldsNoInheritedDescriptor) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  StandInParent s;
  ASSERT_TRUE(s.Start());
  ::close(fds[1]);
  pollfd p{fds[0], POLLIN, 0};
  ASSERT_EQ(::poll(&p, 1, 5000), 1) << "the stand-in still holds the write end";
  char c;
  EXPECT_EQ(::read(fds[0], &c, 1), 0);
  ::close(fds[0]);
}

}  // namespace
}  // namespace fakehost::process
