#include "harness/certify/corpus.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

namespace fakehost::certify {
namespace {

namespace fs = std::filesystem;

// A scratch directory with plugin directories (a manifest file each), removed at the end.
class CorpusDir : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ =
        fs::temp_directory_path() /
        ("fakehost-corpus-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string Plugin(const std::string& rel) {
    fs::create_directories(root_ / rel);
    std::ofstream(root_ / rel / "rim-plugin.json") << "{}";
    return (root_ / rel).string();
  }
  std::string Write(const std::string& rel, const std::string& text) {
    std::ofstream(root_ / rel) << text;
    return (root_ / rel).string();
  }
  fs::path root_;
};

TEST(CorpusList, SkipsBlankLinesAndCommentsAndReadsPathsFromTheListsDirectory) {
  auto paths = ParseCorpusList("# plugins\n\n  a/b  \n/abs/c\r\n#x\nd", "/base");
  ASSERT_EQ(paths.size(), 3u);
  EXPECT_EQ(paths[0], "/base/a/b");
  EXPECT_EQ(paths[1], "/abs/c");
  EXPECT_EQ(paths[2], "/base/d");
}

TEST_F(CorpusDir, ReadsPluginsListsAndDirectoriesOfPluginsSortedWithoutDuplicates) {
  std::string b = Plugin("all/b");
  std::string a = Plugin("all/a");
  std::string c = Plugin("c");
  std::string list = Write("list.txt", "c\nall/a\n");
  std::vector<std::string> dirs, errors;
  ASSERT_TRUE(ReadCorpus({(root_ / "all").string(), list, c}, "rim-plugin.json", &dirs, &errors))
      << errors.front();
  EXPECT_EQ(dirs, (std::vector<std::string>{a, b, c}));
}

TEST_F(CorpusDir, AListedPathThatIsNotADirectoryIsNamedByItsLine) {
  Plugin("a");
  std::string list = Write("list.txt", "a\n\nmissing\n");
  std::vector<std::string> dirs, errors;
  EXPECT_FALSE(ReadCorpus({list}, "rim-plugin.json", &dirs, &errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rfind(list + ":3:1: ", 0), 0u) << errors[0];
}

TEST_F(CorpusDir, ADirectoryWithoutAnyPluginIsBadInput) {
  fs::create_directories(root_ / "empty" / "sub");
  std::vector<std::string> dirs, errors;
  EXPECT_FALSE(ReadCorpus({(root_ / "empty").string()}, "rim-plugin.json", &dirs, &errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("no rim-plugin.json"), std::string::npos) << errors[0];
  errors.clear();
  EXPECT_FALSE(ReadCorpus({(root_ / "nope").string()}, "rim-plugin.json", &dirs, &errors));
}

TEST(Shard, ShardsAreDisjointCoverTheCorpusAndDifferByAtMostOne) {
  std::vector<std::string> dirs;
  for (int i = 0; i < 10; ++i) dirs.push_back("/p/" + std::to_string(9 - i));
  std::set<std::string> seen;
  std::size_t smallest = 99, largest = 0;
  for (int k = 1; k <= 3; ++k) {
    auto part = Shard(dirs, k, 3);
    smallest = std::min(smallest, part.size());
    largest = std::max(largest, part.size());
    for (const auto& d : part) EXPECT_TRUE(seen.insert(d).second) << d << " in two shards";
  }
  EXPECT_EQ(seen.size(), dirs.size());
  EXPECT_LE(largest - smallest, 1u);
  EXPECT_EQ(Shard(dirs, 1, 3).front(), "/p/0");  // sorted first, whatever the input order
}

TEST(Shard, ParsesKOfNAndRefusesAnythingElse) {
  int k = 0, n = 0;
  std::string error;
  EXPECT_TRUE(ParseShard("2/3", &k, &n, &error));
  EXPECT_EQ(k, 2);
  EXPECT_EQ(n, 3);
  for (const char* bad : {"0/3", "4/3", "1/0", "x", "1/", "/2", "1/2/3", "-1/2"})
    EXPECT_FALSE(ParseShard(bad, &k, &n, &error)) << bad;
}

}  // namespace
}  // namespace fakehost::certify
