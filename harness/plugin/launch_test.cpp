// Judging an entrypoint before it is spawned: inside the plugin directory, and exec-able.
#include "harness/plugin/launch.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace fakehost::plugin {
namespace {

namespace fs = std::filesystem;

TEST(PathStaysInside, JudgesThePathAsWritten) {
  for (const char* inside : {"p", "./p", "bin/p", "bin/../p", "a/./b/../../p", "link-to-elsewhere"})
    EXPECT_TRUE(PathStaysInside(inside)) << inside;
  for (const char* outside : {"/usr/bin/p", "../p", "./../p", "a/../../p", ".."})
    EXPECT_FALSE(PathStaysInside(outside)) << outside;
}

class ExecFormat : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("exec-format-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& bytes) {
    std::ofstream(dir_ / name, std::ios::binary) << bytes;
    return (dir_ / name).string();
  }
  fs::path dir_;
  std::string error_;
};

TEST_F(ExecFormat, AcceptsAScriptWithAShebangAndAnElfBinary) {
  EXPECT_TRUE(CheckExecFormat(Write("s", "#!/bin/sh\n"), "the entrypoint", &error_)) << error_;
  EXPECT_TRUE(CheckExecFormat(std::string("/proc/self/exe"), "the entrypoint", &error_)) << error_;
}

TEST_F(ExecFormat, RefusesAnEmptyFileAndAScriptWithoutAShebang) {
  std::string empty = Write("e", "");
  EXPECT_FALSE(CheckExecFormat(empty, "the entrypoint", &error_));
  EXPECT_EQ(error_, "the entrypoint " + empty + " is empty");
  std::string script = Write("py", "import sys\n");
  EXPECT_FALSE(CheckExecFormat(script, "the entrypoint", &error_));
  EXPECT_NE(error_.find("has no #! line"), std::string::npos) << error_;
}

TEST_F(ExecFormat, RefusesAFifoWithoutWaitingForAWriter) {
  std::string fifo = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0700), 0);
  EXPECT_FALSE(CheckExecFormat(fifo, "the entrypoint", &error_));
  EXPECT_EQ(error_, "the entrypoint " + fifo + " is not a regular file");
}

}  // namespace
}  // namespace fakehost::plugin

namespace fakehost::plugin {
namespace {

TEST_F(ExecFormat, ResolvesSymlinksBeforeJudgingWhetherAPathStaysInside) {
  const fs::path plugin = dir_ / "plugin";
  fs::create_directories(plugin / "bin");
  fs::create_directories(dir_ / "plugin-old");
  Write("plugin/bin/run", "#!/bin/sh\n");
  Write("plugin-old/run", "#!/bin/sh\n");
  fs::create_symlink("bin/run", plugin / "in");                 // stays inside
  fs::create_symlink("/bin/sh", plugin / "system");             // absolute, outside
  fs::create_symlink("../plugin-old/run", plugin / "sibling");  // a prefix of the name only
  fs::create_symlink(dir_, plugin / "up");                      // a directory above
  std::string resolved;
  EXPECT_TRUE(ResolvesInside(plugin.string(), "bin/run", &resolved)) << resolved;
  EXPECT_TRUE(ResolvesInside(plugin.string(), "in", &resolved)) << resolved;
  EXPECT_EQ(resolved, fs::canonical(plugin / "bin/run").string());
  EXPECT_TRUE(ResolvesInside(plugin.string(), "missing", &resolved)) << resolved;
  for (const char* outside : {"system", "sibling", "up/plugin-old/run", ".", "bin/.."}) {
    EXPECT_FALSE(ResolvesInside(plugin.string(), outside, &resolved)) << outside;
  }
  // Through a symlinked plugin directory, its own files are still inside.
  fs::create_symlink(plugin, dir_ / "alias");
  EXPECT_TRUE(ResolvesInside((dir_ / "alias").string(), "in", &resolved)) << resolved;
}

}  // namespace
}  // namespace fakehost::plugin
