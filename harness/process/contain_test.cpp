// The cgroups of dead runs: removed at the next run's start, and only theirs.
#include "harness/process/contain.hpp"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fakehost::process::detail {
namespace {

namespace fs = std::filesystem;

std::string StartTime(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream fields(text.substr(text.rfind(')') + 2));
  std::string field;
  for (int i = 3; i <= 22; ++i) fields >> field;  // field 3 (the state) to field 22
  return field;
}

TEST(Contain, RemovesTheEmptyCgroupsOfDeadRunsAndNoOthers) {
  const std::string parent = CgroupParentDir();
  if (parent.empty() || ::access(parent.c_str(), W_OK) != 0)
    GTEST_SKIP() << "no cgroup v2 directory this user may create cgroups in";
  // A run that is gone: a child, its start time read, then reaped.
  const pid_t dead = ::fork();
  ASSERT_GE(dead, 0);
  if (dead == 0) {
    ::pause();
    ::_exit(0);
  }
  const std::string dead_start = StartTime(dead);
  ::kill(dead, SIGKILL);
  ::waitpid(dead, nullptr, 0);
  const std::string self = std::to_string(::getpid());
  const std::string gone = parent + "/fakehost-" + std::to_string(dead) + "-" + dead_start + ".1";
  const std::string old_style = parent + "/fakehost-" + std::to_string(dead) + ".2";
  const std::string alive = parent + "/fakehost-" + self + "-" + StartTime(::getpid()) + ".90";
  const std::string reused = parent + "/fakehost-" + self + "-1.91";  // our pid, not our start
  const std::string stranger = parent + "/fakehost-plugin-cgroup";
  for (const auto& dir : {gone, old_style, alive, reused, stranger})
    ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0) << dir;

  EXPECT_EQ(SweepDeadRunCgroups(parent), 3);
  EXPECT_FALSE(fs::exists(gone));
  EXPECT_FALSE(fs::exists(old_style));
  EXPECT_FALSE(fs::exists(reused));
  EXPECT_TRUE(fs::exists(alive)) << "a live run's cgroup";
  EXPECT_TRUE(fs::exists(stranger)) << "not a name fakehost gives";
  ::rmdir(alive.c_str());
  ::rmdir(stranger.c_str());
}

TEST(Contain, ACgroupIsNamedForItsRunAndRemovedWithItsEnclosure) {
  const std::string parent = CgroupParentDir();
  std::string created;
  {
    Enclosure enclosure;
    if (!enclosure.uses_cgroup()) GTEST_SKIP() << "no cgroup on this machine";
    const std::string prefix =
        "fakehost-" + std::to_string(::getpid()) + "-" + StartTime(::getpid()) + ".";
    for (const auto& e : fs::directory_iterator(parent))
      if (e.path().filename().string().rfind(prefix, 0) == 0) created = e.path().string();
    EXPECT_NE(created, "") << "no cgroup named " << prefix << "<n> in " << parent;
  }
  EXPECT_FALSE(fs::exists(created));
}

}  // namespace
}  // namespace fakehost::process::detail
