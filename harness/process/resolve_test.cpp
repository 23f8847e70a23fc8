// ResolveExecutable and ResolveWorkingDirectory on a scratch directory: no process is spawned.
#include "harness/process/resolve.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace fakehost::process {
namespace {

class Scratch : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = std::filesystem::temp_directory_path() / "resolve_test.XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  std::string Make(const std::string& relative, mode_t mode) {
    const std::filesystem::path file = std::filesystem::path(root_) / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << "#!/bin/sh\n";
    ::chmod(file.c_str(), mode);
    return file.string();
  }

  std::string root_;
  std::string path_;
  std::string error_;
};

TEST_F(Scratch, TakesTheFirstRunnableMatchInPathOrder) {
  Make("a/tool", 0644);
  const std::string runnable = Make("b/tool", 0755);
  Make("c/tool", 0755);
  const std::vector<std::string> env = {"HOME=/x",
                                        "PATH=" + root_ + "/a:" + root_ + "/b:" + root_ + "/c"};
  ASSERT_TRUE(ResolveExecutable("tool", root_, env, &path_, &error_)) << error_;
  EXPECT_EQ(path_, runnable);
}

TEST_F(Scratch, ReportsAMatchThatCannotRunWhenNothingLaterCan) {
  const std::string file = Make("a/tool", 0640);
  const std::vector<std::string> env = {"PATH=/nonexistent:" + root_ + "/a"};
  EXPECT_FALSE(ResolveExecutable("tool", root_, env, &path_, &error_));
  EXPECT_EQ(error_, "not executable: " + file + " (permission bits 0640), found through PATH");
}

TEST_F(Scratch, NamesABareNameThatIsNowhereInPath) {
  const std::vector<std::string> env = {"PATH=/nonexistent"};
  EXPECT_FALSE(ResolveExecutable("tool", root_, env, &path_, &error_));
  EXPECT_EQ(error_, "not found in PATH: tool (PATH=/nonexistent)");
}

TEST_F(Scratch, CountsEmptyAndRelativePathEntriesFromTheWorkingDirectory) {
  const std::string here = Make("tool", 0755);
  const std::string below = Make("bin/other", 0755);
  const std::vector<std::string> env = {"PATH=/nonexistent::bin"};
  ASSERT_TRUE(ResolveExecutable("tool", root_, env, &path_, &error_)) << error_;
  EXPECT_EQ(path_, here);
  ASSERT_TRUE(ResolveExecutable("other", root_, env, &path_, &error_)) << error_;
  EXPECT_EQ(path_, below);
}

TEST_F(Scratch, FallsBackToTheHarnessPathWhenTheEnvironmentHasNone) {
  ASSERT_TRUE(ResolveExecutable("sh", root_, {"HOME=/x"}, &path_, &error_)) << error_;
  EXPECT_EQ(path_.substr(path_.size() - 3), "/sh");
  EXPECT_EQ(path_.front(), '/');
}

TEST_F(Scratch, JoinsARelativePathToTheWorkingDirectory) {
  const std::string file = Make("sub/tool", 0755);
  ASSERT_TRUE(ResolveExecutable("sub/tool", root_, {}, &path_, &error_)) << error_;
  EXPECT_EQ(path_, file);
  EXPECT_FALSE(ResolveExecutable("./missing", root_, {}, &path_, &error_));
  EXPECT_EQ(error_, "no such file: " + root_ + "/./missing");
}

TEST_F(Scratch, RefusesAnEmptyProgramName) {
  EXPECT_FALSE(ResolveExecutable("", root_, {}, &path_, &error_));
  EXPECT_EQ(error_, "empty program name (argv[0])");
}

TEST_F(Scratch, MakesARelativeWorkingDirectoryAbsoluteAndRefusesAFile) {
  const std::string file = Make("sub/file", 0644);
  char harness[4096];
  ASSERT_NE(::getcwd(harness, sizeof harness), nullptr);
  const std::string relative = std::filesystem::relative(root_ + "/sub", harness).string();
  std::string absolute;
  ASSERT_TRUE(ResolveWorkingDirectory(relative, &absolute, &error_)) << error_;
  EXPECT_EQ(std::filesystem::canonical(absolute), std::filesystem::canonical(root_ + "/sub"));
  EXPECT_FALSE(ResolveWorkingDirectory(file, &absolute, &error_));
  EXPECT_EQ(error_, "not a directory: " + file);
  ASSERT_TRUE(ResolveWorkingDirectory("", &absolute, &error_));
  EXPECT_EQ(absolute, harness);
}

}  // namespace
}  // namespace fakehost::process
