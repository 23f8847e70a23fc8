#include "harness/json/text_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

namespace fakehost::json {
namespace {

std::string TempPath(const char* name) {
  return std::string(::testing::TempDir()) + "/fakehost-text-file-" + std::to_string(::getpid()) +
         "-" + name;
}

TEST(ReadFileCapped, ReadsAFileWithinTheCap) {
  std::string path = TempPath("small");
  std::ofstream(path) << "hello\n";
  std::string text, error;
  ASSERT_TRUE(ReadFileCapped(path, 100, &text, &error)) << error;
  EXPECT_EQ(text, "hello\n");
  std::remove(path.c_str());
}

TEST(ReadFileCapped, RefusesAFileOverTheCapNamingBothSizes) {
  std::string path = TempPath("big");
  std::ofstream(path) << std::string(101, 'x');
  std::string text, error;
  EXPECT_FALSE(ReadFileCapped(path, 100, &text, &error));
  EXPECT_NE(error.find("101 bytes"), std::string::npos) << error;
  EXPECT_NE(error.find("100-byte limit"), std::string::npos) << error;
  std::remove(path.c_str());
}

TEST(ReadFileCapped, RefusesAFifoWithoutWaitingForAWriter) {
  std::string path = TempPath("fifo");
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  std::string text, error;
  EXPECT_FALSE(ReadFileCapped(path, 100, &text, &error));
  EXPECT_NE(error.find("not a regular file"), std::string::npos) << error;
  std::remove(path.c_str());
}

TEST(ReadFileCapped, RefusesAMissingFile) {
  std::string text, error;
  EXPECT_FALSE(ReadFileCapped(TempPath("absent"), 100, &text, &error));
  EXPECT_NE(error.find("cannot open"), std::string::npos) << error;
}

TEST(LocateOffset, CountsLinesAndColumnsFromOne) {
  std::string_view text = "ab\ncd\n";
  EXPECT_EQ(LocateOffset(text, 0).line, 1);
  EXPECT_EQ(LocateOffset(text, 0).column, 1);
  EXPECT_EQ(LocateOffset(text, 4).line, 2);
  EXPECT_EQ(LocateOffset(text, 4).column, 2);
  EXPECT_EQ(LocateOffset(text, 99).line, 3);
}

}  // namespace
}  // namespace fakehost::json
