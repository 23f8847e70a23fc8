#include "harness/run/suite_version.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace fakehost::run {
namespace {
namespace fs = std::filesystem;

TEST(DigestSuiteFiles, IsTwelveHexDigits) {
  std::string d = DigestSuiteFiles({{"a.yaml", "x"}});
  ASSERT_EQ(d.size(), 12u);
  EXPECT_EQ(d.find_first_not_of("0123456789abcdef"), std::string::npos) << d;
}

TEST(DigestSuiteFiles, ChangesWhenOneByteOfOneFileChanges) {
  std::vector<SuiteFile> files = {{"handshake/a.yaml", "title: a\n"}, {"b.yaml", "title: b\n"}};
  std::string before = DigestSuiteFiles(files);
  files[0].bytes[7] = 'c';
  EXPECT_NE(DigestSuiteFiles(files), before);
}

TEST(DigestSuiteFiles, DoesNotDependOnTheOrderOfItsInput) {
  std::vector<SuiteFile> files = {{"z.yaml", "1"}, {"a/b.yaml", "2"}, {"fragments/f.yaml", "3"}};
  std::string forward = DigestSuiteFiles(files);
  std::swap(files[0], files[2]);
  EXPECT_EQ(DigestSuiteFiles(files), forward);
}

TEST(DigestSuiteFiles, KeepsPathAndBytesApart) {
  // The same concatenation of paths and bytes, cut differently.
  EXPECT_NE(DigestSuiteFiles({{"ab", "c"}}), DigestSuiteFiles({{"a", "bc"}}));
  EXPECT_NE(DigestSuiteFiles({{"a", "x"}, {"b", ""}}), DigestSuiteFiles({{"a", ""}, {"b", "x"}}));
}

TEST(DigestSuiteFiles, ChangesWhenAFileIsRenamed) {
  EXPECT_NE(DigestSuiteFiles({{"a.yaml", "x"}}), DigestSuiteFiles({{"b.yaml", "x"}}));
}

class SuiteOnDisk : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("fakehost-suite-version-" + std::to_string(getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  void Write(const fs::path& dir, const std::string& relative, const std::string& text) {
    fs::create_directories((dir / relative).parent_path());
    std::ofstream(dir / relative, std::ios::binary) << text;
  }
  std::string Digest(const fs::path& dir) {
    SuiteVersion v;
    std::string error;
    EXPECT_TRUE(ReadSuiteVersion(dir.string(), &v, &error)) << error;
    return v.digest;
  }
  fs::path root_;
};

TEST_F(SuiteOnDisk, CountsScenariosButNotFragmentsAndDigestsBoth) {
  fs::path suite = root_ / "s";
  Write(suite, "handshake/a.yaml", "a");
  Write(suite, "b.yaml", "b");
  Write(suite, "fragments/f.yaml", "f");
  SuiteVersion v;
  std::string error;
  ASSERT_TRUE(ReadSuiteVersion(suite.string(), &v, &error)) << error;
  EXPECT_EQ(v.scenarios, 2);
  std::string before = v.digest;
  Write(suite, "fragments/f.yaml", "g");
  EXPECT_NE(Digest(suite), before);
}

TEST_F(SuiteOnDisk, IsTheSameForTheSameFilesWrittenInAnotherOrder) {
  Write(root_ / "one", "a/x.yaml", "1");
  Write(root_ / "one", "b.yaml", "2");
  Write(root_ / "one", "a/empty.yaml", "");
  Write(root_ / "two", "a/empty.yaml", "");
  Write(root_ / "two", "b.yaml", "2");
  Write(root_ / "two", "a/x.yaml", "1");
  EXPECT_EQ(Digest(root_ / "one"), Digest(root_ / "two"));
  EXPECT_EQ(Digest(root_ / "one"), Digest((root_ / "one").string() + "/"));
  EXPECT_EQ(Digest(root_ / "one"),
            DigestSuiteFiles({{"a/x.yaml", "1"}, {"b.yaml", "2"}, {"a/empty.yaml", ""}}));
}

TEST_F(SuiteOnDisk, ChangesWhenOneByteOfOneScenarioChanges) {
  Write(root_, "handshake/a.yaml", "title: a\n");
  Write(root_, "b.yaml", "title: b\n");
  std::string before = Digest(root_);
  Write(root_, "handshake/a.yaml", "title: b\n");
  EXPECT_NE(Digest(root_), before);
}

// The digest covers the files the suite loads (*.yaml), each under the scenario cap: a README or
// a 3 GiB file of anything else beside them is not read; a *.yaml over the cap is an error.
TEST_F(SuiteOnDisk, ReadsOnlyTheYamlFilesTheSuiteLoadsUnderTheirCap) {
  Write(root_, "a.yaml", "title: a\n");
  std::string before = Digest(root_);
  Write(root_, "README.md", "notes");
  Write(root_, "big.bin", "");
  ASSERT_EQ(::truncate((root_ / "big.bin").c_str(), 3LL << 30), 0);
  EXPECT_EQ(Digest(root_), before);
  Write(root_, "huge.yaml", "");
  ASSERT_EQ(::truncate((root_ / "huge.yaml").c_str(), 3LL << 30), 0);
  SuiteVersion v;
  std::string error;
  EXPECT_FALSE(ReadSuiteVersion(root_.string(), &v, &error));
  EXPECT_NE(error.find("huge.yaml: 3221225472 bytes"), std::string::npos) << error;
}

TEST_F(SuiteOnDisk, IsAnErrorWhenTheSuiteIsNotADirectory) {
  SuiteVersion v;
  std::string error;
  EXPECT_FALSE(ReadSuiteVersion((root_ / "missing").string(), &v, &error));
  EXPECT_NE(error.find("missing"), std::string::npos) << error;
}

}  // namespace
}  // namespace fakehost::run
