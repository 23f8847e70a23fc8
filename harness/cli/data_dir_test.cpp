#include "harness/cli/data_dir.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

namespace fakehost::cli {
namespace {
namespace fs = std::filesystem;

class CliDataDir : public ::testing::Test {
 protected:
  void SetUp() override {
    prefix_ = fs::temp_directory_path() / ("fakehost-data-dir-" + std::to_string(getpid()));
    fs::remove_all(prefix_);
    fs::create_directories(prefix_ / "bin");
  }
  void TearDown() override { fs::remove_all(prefix_); }
  std::string Exe() const { return (prefix_ / "bin" / "fakehost").string(); }
  fs::path prefix_;
};

TEST_F(CliDataDir, PrefersFakehostHomeOverEverything) {
  fs::create_directories(prefix_ / "share" / "fakehost");
  EXPECT_EQ(ResolveDataDir("/elsewhere", Exe(), "/src"), "/elsewhere");
}

TEST_F(CliDataDir, FindsTheShareFolderBesideAnInstalledBinary) {
  fs::create_directories(prefix_ / "share" / "fakehost");
  EXPECT_EQ(fs::path(ResolveDataDir(nullptr, Exe(), "/src")), prefix_ / "share" / "fakehost");
  EXPECT_EQ(fs::path(ResolveDataDir("", Exe(), "/src")), prefix_ / "share" / "fakehost");
}

TEST_F(CliDataDir, FallsBackToTheSourceTreeWhenNothingIsInstalledBesideIt) {
  EXPECT_EQ(ResolveDataDir(nullptr, Exe(), "/src"), "/src");
  EXPECT_EQ(ResolveDataDir(nullptr, "", "/src"), "/src");
}

}  // namespace
}  // namespace fakehost::cli
