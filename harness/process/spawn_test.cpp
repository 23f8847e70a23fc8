// Child::Spawn: what the child gets (argv, cwd, environment, descriptors, group) and how a
// program that cannot run is reported.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "harness/process/child.hpp"
#include "harness/process/test_support.hpp"

namespace fakehost::process {
namespace {

using namespace std::chrono_literals;
using testing::FixtureSpec;
using testing::Recorder;
using testing::RunUntil;
using testing::SpawnOrDie;
using testing::Watchdog;

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "process_test.XXXXXX");
    path_ = ::mkdtemp(pattern.data());
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string File(const std::string& name, const std::string& text, mode_t mode) const {
    const std::string file = path_ + "/" + name;
    std::ofstream(file) << text;
    ::chmod(file.c_str(), mode);
    return file;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

SpawnSpec Spec(std::vector<std::string> argv, std::string cwd = "",
               std::vector<std::string> env = {}) {
  SpawnSpec spec;
  spec.argv = std::move(argv);
  spec.cwd = std::move(cwd);
  spec.env = std::move(env);
  return spec;
}

std::string SpawnError(const SpawnSpec& spec) {
  InitProcessEnvironment();
  boost::asio::io_context io;
  std::string error;
  auto child = Child::Spawn(io, spec, Callbacks{}, &error);
  EXPECT_FALSE(child);
  return error;
}

// The fixture's output for `spec`, once it exited.
std::string OutputOf(const SpawnSpec& spec) {
  boost::asio::io_context io;
  Recorder rec;
  auto child = SpawnOrDie(io, spec, &rec);
  EXPECT_TRUE(RunUntil(
      io, [&] { return rec.exit && rec.eof; }, 2s));
  return rec.out;
}

TEST(Spawn, RefusesAMissingExecutable) {
  EXPECT_EQ(SpawnError(Spec({"/nonexistent/plugin"})), "no such file: /nonexistent/plugin");
}

TEST(Spawn, RefusesAFileWithoutExecuteBits) {
  TempDir dir;
  const std::string file = dir.File("plugin", "#!/bin/sh\n", 0644);
  EXPECT_EQ(SpawnError(Spec({file})), "not executable: " + file + " (permission bits 0644)");
}

TEST(Spawn, RefusesADirectory) {
  TempDir dir;
  EXPECT_EQ(SpawnError(Spec({dir.path()})), "is a directory: " + dir.path());
}

TEST(Spawn, RefusesAMissingWorkingDirectory) {
  EXPECT_EQ(SpawnError(Spec({testing::kFixture}, "/nonexistent/dir")),
            "no such directory: /nonexistent/dir");
}

TEST(Spawn, ReportsAnExecFailureWithTheReasonAndLeavesNoChild) {
  Watchdog watchdog(5s);
  TempDir dir;
  const std::string file = dir.File("garbage", "this is not a program\n", 0755);
  EXPECT_EQ(SpawnError(Spec({file})), "cannot execute " + file + ": Exec format error");
  EXPECT_TRUE(testing::HasNoChildren());
}

TEST(Spawn, FindsABareNameThroughThePathOfTheChildsEnvironment) {
  Watchdog watchdog(5s);
  const SpawnSpec spec =
      Spec({"process_fixture", "argv0"}, "", {"PATH=/nonexistent:" + testing::kFixtureDir});
  EXPECT_EQ(OutputOf(spec), "process_fixture\n");  // argv[0] is passed as given
}

TEST(Spawn, ResolvesARelativePathAgainstTheWorkingDirectory) {
  Watchdog watchdog(5s);
  const SpawnSpec spec = Spec({"./process_fixture", "cwd"}, testing::kFixtureDir);
  EXPECT_EQ(OutputOf(spec), std::filesystem::canonical(testing::kFixtureDir).string() + "\n");
}

TEST(Spawn, PassesExactlyTheGivenEnvironment) {
  Watchdog watchdog(5s);
  ASSERT_NE(::getenv("PATH"), nullptr);
  SpawnSpec spec = FixtureSpec({"env", "FAKEHOST_PROBE"});
  spec.env = {"FAKEHOST_PROBE=a b=c"};
  EXPECT_EQ(OutputOf(spec), "a b=c\n");
  spec.argv.back() = "PATH";
  EXPECT_EQ(OutputOf(spec), "<unset>\n");
}

TEST(Spawn, LeaksNoDescriptorIntoTheChild) {
  Watchdog watchdog(5s);
  // A descriptor opened without O_CLOEXEC, as a careless library in another thread might.
  const int stray = ::open("/dev/null", O_RDONLY);
  ASSERT_GE(stray, 3);
  const std::string out = OutputOf(FixtureSpec({"list-fds"}));
  ::close(stray);
  EXPECT_EQ(out, "0 1 2\n");
}

TEST(Spawn, PutsTheChildInItsOwnSessionAndProcessGroup) {
  Watchdog watchdog(5s);
  boost::asio::io_context io;
  Recorder rec;
  auto child = SpawnOrDie(io, FixtureSpec({"never-read"}), &rec);
  EXPECT_EQ(::getpgid(child->pid()), child->pid());
  EXPECT_NE(::getpgid(child->pid()), ::getpgrp());
  // A session of its own: no controlling terminal to open, take over or type into.
  EXPECT_EQ(::getsid(child->pid()), child->pid());
  EXPECT_NE(::getsid(child->pid()), ::getsid(0));
}

}  // namespace
}  // namespace fakehost::process
