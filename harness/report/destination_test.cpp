// Where reports may go (issue 20): a stream is written in place and never replaced by a regular
// file, a regular file is replaced atomically, anything else is refused before a run starts.
#include "harness/report/destination.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace fakehost::report {
namespace {

namespace fs = std::filesystem;

class Destination : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/fakehost-destination-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  static std::string Read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  std::string dir_;
};

TEST_F(Destination, AnEmptyPathIsRefused) {
  std::string error;
  EXPECT_FALSE(CheckDestination("", &error));
  EXPECT_EQ(error, "an empty path");
  EXPECT_FALSE(CheckDestinationDir("", &error));
  EXPECT_FALSE(WriteFileAtomically("", "x", &error));
}

TEST_F(Destination, DevNullIsWrittenInPlaceAndStaysACharacterDevice) {
  std::string error;
  ASSERT_TRUE(CheckDestination("/dev/null", &error)) << error;
  ASSERT_TRUE(WriteFileAtomically("/dev/null", "{}\n", &error)) << error;
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_EQ(Read("/dev/null"), "");
}

TEST_F(Destination, DevFullIsAWriteErrorNotAReplacedFile) {
  std::string error;
  EXPECT_FALSE(WriteFileAtomically("/dev/full", "{}\n", &error));
  EXPECT_NE(error.find("cannot write /dev/full: No space left on device"), std::string::npos)
      << error;
  struct stat st {};
  ASSERT_EQ(::stat("/dev/full", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST_F(Destination, NothingIsCreatedUnderDev) {
  std::string error;
  EXPECT_FALSE(CheckDestination("/dev/fakehost-no-such-report.json", &error));
  EXPECT_FALSE(WriteFileAtomically("/dev/fakehost-no-such-report.json", "{}", &error));
  EXPECT_FALSE(fs::exists("/dev/fakehost-no-such-report.json"));
}

TEST_F(Destination, AFifoIsWrittenInPlaceWhenSomeoneReadsIt) {
  const std::string fifo = dir_ + "/pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string error;
  ASSERT_TRUE(CheckDestination(fifo, &error)) << error;
  std::string got;
  std::thread reader([&] { got = Read(fifo); });
  // The reader may not have opened it yet: a FIFO nobody reads is an error, not a wait.
  bool written = false;
  for (int i = 0; i < 2000 && !written; ++i) {
    written = WriteFileAtomically(fifo, "report\n", &error);
    if (!written) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  reader.join();
  EXPECT_TRUE(written) << error;
  EXPECT_EQ(got, "report\n");
  struct stat st {};
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST_F(Destination, AFifoNobodyReadsIsAnErrorNotAHang) {
  const std::string fifo = dir_ + "/pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string error;
  EXPECT_FALSE(WriteFileAtomically(fifo, "report\n", &error));
  EXPECT_EQ(error, "cannot write " + fifo + ": nobody reads this FIFO");
  struct stat st {};
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST_F(Destination, ADirectoryOrASocketIsRefusedBeforeAnythingRuns) {
  std::string error;
  EXPECT_FALSE(CheckDestination(dir_, &error));
  EXPECT_EQ(error, "cannot write " + dir_ + ": it is a directory");
  const std::string sock = dir_ + "/sock";
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sock.c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  EXPECT_FALSE(CheckDestination(sock, &error));
  EXPECT_EQ(error, "cannot write " + sock + ": it is a socket, which fakehost does not replace");
  EXPECT_FALSE(WriteFileAtomically(sock, "x", &error));
  struct stat st {};
  ASSERT_EQ(::stat(sock.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  ::close(fd);
}

TEST_F(Destination, AFileUnderAFileIsRefused) {
  std::ofstream(dir_ + "/plain") << "x";
  std::string error;
  EXPECT_FALSE(CheckDestination(dir_ + "/plain/report.json", &error));
  EXPECT_EQ(error,
            "cannot write " + dir_ + "/plain/report.json: " + dir_ + "/plain is not a directory");
  EXPECT_FALSE(CheckDestinationDir(dir_ + "/plain", &error));
}

TEST_F(Destination, ARegularFileIsReplacedWholeAndKeepsItsMode) {
  const std::string path = dir_ + "/r.json";
  std::ofstream(path) << "old content, longer than the new one";
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  std::string error;
  ASSERT_TRUE(WriteFileAtomically(path, "new", &error)) << error;
  EXPECT_EQ(Read(path), "new");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  for (const auto& e : fs::directory_iterator(dir_))  // no temporary file left behind
    EXPECT_EQ(e.path().filename(), "r.json");
}

TEST_F(Destination, ASymlinkStaysALinkAndItsTargetIsReplaced) {
  const std::string target = dir_ + "/target.json", link = dir_ + "/link.json";
  std::ofstream(target) << "old";
  fs::create_symlink("target.json", link);
  std::string error;
  ASSERT_TRUE(WriteFileAtomically(link, "new", &error)) << error;
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(Read(target), "new");
  // A link to a file not written yet is followed too: the file is created, the link kept.
  fs::create_symlink("later.json", dir_ + "/dangling.json");
  ASSERT_TRUE(WriteFileAtomically(dir_ + "/dangling.json", "x", &error)) << error;
  EXPECT_TRUE(fs::is_symlink(dir_ + "/dangling.json"));
  EXPECT_EQ(Read(dir_ + "/later.json"), "x");
}

TEST_F(Destination, MissingDirectoriesAreCreated) {
  const std::string path = dir_ + "/a/b/report.json";
  std::string error;
  ASSERT_TRUE(CheckDestination(path, &error)) << error;
  ASSERT_TRUE(CheckDestinationDir(dir_ + "/a/b", &error)) << error;
  ASSERT_TRUE(WriteFileAtomically(path, "x", &error)) << error;
  EXPECT_EQ(Read(path), "x");
}

}  // namespace
}  // namespace fakehost::report
