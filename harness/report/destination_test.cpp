// Where reports may go (issue 20): a stream is written in place and never replaced by a regular
// file, a regular file is replaced atomically, anything else is refused before a run starts; and
// every refusal is made at the check, as the write would meet it, not at the end of a run.
#include "harness/report/destination.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

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
  // What a non-blocking descriptor holds now; `*ended`: its writers are gone (a FIFO's end).
  static std::string Drain(int fd, bool* ended = nullptr) {
    std::string got;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) > 0) got.append(buf, static_cast<std::size_t>(n));
    if (ended) *ended = n == 0;
    return got;
  }
  // A FIFO in the test's directory with a reader already open on it (non-blocking).
  int FifoWithReader(const std::string& fifo) {
    if (::mkfifo(fifo.c_str(), 0600) != 0) return -1;
    return ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  }
  std::string dir_;
};

// Points fd 1 at `fd` for the scope, and back (assertions come after, or their output would go
// where fd 1 points).
class StdoutTo {
 public:
  explicit StdoutTo(int fd) : saved_(::dup(1)) {
    std::fflush(stdout);
    ::dup2(fd, 1);
  }
  ~StdoutTo() {
    std::fflush(stdout);
    ::dup2(saved_, 1);
    ::close(saved_);
  }

 private:
  int saved_;
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

TEST_F(Destination, DevFullAndOtherDevicesAreRefusedAtTheCheckAndStayDevices) {
  // Once, /dev/full passed the check and failed at the end of the run (exit 3).
  for (const std::string device : {"/dev/full", "/dev/zero"}) {
    std::string error;
    EXPECT_FALSE(CheckDestination(device, &error));
    EXPECT_EQ(error, "cannot write " + device +
                         ": it is a device, not a file, a terminal, the standard output or error, "
                         "or /dev/null");
    EXPECT_FALSE(WriteFileAtomically(device, "{}\n", &error));
    struct stat st {};
    ASSERT_EQ(::stat(device.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
  }
}

TEST_F(Destination, NothingIsCreatedUnderDev) {
  std::string error;
  EXPECT_FALSE(CheckDestination("/dev/fakehost-no-such-report.json", &error));
  EXPECT_FALSE(WriteFileAtomically("/dev/fakehost-no-such-report.json", "{}", &error));
  EXPECT_FALSE(fs::exists("/dev/fakehost-no-such-report.json"));
}

TEST_F(Destination, AFifoIsOpenedAtTheCheckAndWrittenInPlaceWhenSomeoneReadsIt) {
  const std::string fifo = dir_ + "/pipe";
  const int reader = FifoWithReader(fifo);
  ASSERT_GE(reader, 0);
  std::string error;
  ASSERT_TRUE(CheckDestination(fifo, &error)) << error;
  bool ended = true;
  EXPECT_EQ(Drain(reader, &ended), "");
  EXPECT_FALSE(ended) << "the check holds the FIFO open until the report is written";
  ASSERT_TRUE(WriteFileAtomically(fifo, "report\n", &error)) << error;
  EXPECT_EQ(Drain(reader, &ended), "report\n");
  EXPECT_TRUE(ended) << "the write closes it: the reader sees the end";
  ::close(reader);
  struct stat st {};
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST_F(Destination, TheReportGoesToTheFifoReaderThatWasThereAtTheCheck) {
  const std::string fifo = dir_ + "/pipe";
  const int first = FifoWithReader(fifo);
  ASSERT_GE(first, 0);
  std::string error;
  ASSERT_TRUE(CheckDestination(fifo, &error)) << error;
  // Meanwhile the name is given to another FIFO, with a reader of its own.
  ASSERT_EQ(::unlink(fifo.c_str()), 0);
  const int second = FifoWithReader(fifo);
  ASSERT_GE(second, 0);
  ASSERT_TRUE(WriteFileAtomically(fifo, "report\n", &error)) << error;
  EXPECT_EQ(Drain(first), "report\n");
  EXPECT_EQ(Drain(second), "");
  ::close(first);
  ::close(second);
}

TEST_F(Destination, TwoReportsToOneFifoAreBothWrittenBeforeItEnds) {
  const std::string fifo = dir_ + "/pipe";
  const int reader = FifoWithReader(fifo);
  ASSERT_GE(reader, 0);
  std::string error;
  ASSERT_TRUE(CheckDestination(fifo, &error)) << error;
  ASSERT_TRUE(CheckDestination(fifo, &error)) << error;
  ASSERT_TRUE(WriteFileAtomically(fifo, "one\n", &error)) << error;
  bool ended = true;
  EXPECT_EQ(Drain(reader, &ended), "one\n");
  EXPECT_FALSE(ended);
  ASSERT_TRUE(WriteFileAtomically(fifo, "two\n", &error)) << error;
  EXPECT_EQ(Drain(reader, &ended), "two\n");
  EXPECT_TRUE(ended);
  ::close(reader);
}

TEST_F(Destination, AFifoWhoseReaderLeftIsAWriteErrorNotADeathBySigpipe) {
  // This test binary does not ignore SIGPIPE, as `report merge` does not: the write must not
  // raise it.
  const std::string fifo = dir_ + "/pipe";
  const int reader = FifoWithReader(fifo);
  ASSERT_GE(reader, 0);
  std::string error;
  ASSERT_TRUE(CheckDestination(fifo, &error)) << error;
  ::close(reader);
  EXPECT_FALSE(WriteFileAtomically(fifo, "report\n", &error));
  EXPECT_EQ(error, "cannot write " + fifo + ": Broken pipe");
  sigset_t pending;
  ASSERT_EQ(::sigpending(&pending), 0);
  EXPECT_EQ(sigismember(&pending, SIGPIPE), 0);
}

TEST_F(Destination, AFifoNobodyReadsIsRefusedAtTheCheckNotAtTheEndNorAHang) {
  // Once it passed the check, and the run ended with "nobody reads this FIFO", exit 3.
  const std::string fifo = dir_ + "/pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string error;
  EXPECT_FALSE(CheckDestination(fifo, &error));
  EXPECT_EQ(error, "cannot write " + fifo + ": nobody reads the FIFO; start its reader first");
  EXPECT_FALSE(WriteFileAtomically(fifo, "report\n", &error));
  EXPECT_EQ(error, "cannot write " + fifo + ": nobody reads the FIFO; start its reader first");
  struct stat st {};
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST_F(Destination, TheStandardOutputIsWrittenInPlaceByAnyOfItsNames) {
  // A socket, which is refused under any other name: being stdout is what makes it writable.
  int pair[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
  std::vector<std::string> errors;
  {
    StdoutTo redirect(pair[0]);
    for (const std::string name : {"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"}) {
      std::string error;
      if (!CheckDestination(name, &error) || !WriteFileAtomically(name, name + "\n", &error))
        errors.push_back(error);
    }
  }
  ::close(pair[0]);
  EXPECT_TRUE(errors.empty()) << errors.front();
  ::fcntl(pair[1], F_SETFL, O_NONBLOCK);
  EXPECT_EQ(Drain(pair[1]), "/dev/stdout\n/dev/fd/1\n/proc/self/fd/1\n");
  ::close(pair[1]);
}

TEST_F(Destination, AFileThatIsTheStandardOutputIsWrittenIntoNotReplaced) {
  const std::string log = dir_ + "/console.log";
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  struct stat before {};
  ASSERT_EQ(::fstat(fd, &before), 0);
  std::string error;
  bool ok = false;
  {
    StdoutTo redirect(fd);
    ASSERT_EQ(::write(1, "console\n", 8), 8);
    ok = CheckDestination(log, &error) && WriteFileAtomically(log, "report\n", &error);
  }
  ::close(fd);
  EXPECT_TRUE(ok) << error;
  EXPECT_EQ(Read(log), "console\nreport\n");
  struct stat after {};
  ASSERT_EQ(::stat(log.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
}

TEST_F(Destination, ATerminalIsWrittenInPlaceButAPseudoTerminalMasterIsNot) {
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (master < 0) GTEST_SKIP() << "no pseudo-terminals here: " << std::strerror(errno);
  ASSERT_EQ(::grantpt(master), 0);
  ASSERT_EQ(::unlockpt(master), 0);
  const std::string terminal = ::ptsname(master);
  // Once opened, the terminal keeps its output for the master to read, whoever closed it.
  const int held = ::open(terminal.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC);
  ASSERT_GE(held, 0);
  std::string error;
  ASSERT_TRUE(CheckDestination(terminal, &error)) << error;
  ASSERT_TRUE(WriteFileAtomically(terminal, "report", &error)) << error;
  ::fcntl(master, F_SETFL, O_NONBLOCK);
  EXPECT_NE(Drain(master).find("report"), std::string::npos);
  EXPECT_FALSE(CheckDestination("/dev/ptmx", &error));
  EXPECT_EQ(
      error,
      "cannot write /dev/ptmx: it is a device, not a file, a terminal, the standard output or "
      "error, or /dev/null");
  ::close(held);
  ::close(master);
}

TEST_F(Destination, ADeviceIsJudgedByItsNumberNotItsName) {
  const std::string null = dir_ + "/null", full = dir_ + "/full", block = dir_ + "/block";
  if (::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0 ||
      ::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0 ||
      ::mknod(block.c_str(), S_IFBLK | 0600, makedev(7, 0)) != 0)
    GTEST_SKIP() << "cannot make device nodes here: " << std::strerror(errno);
  std::string error;
  EXPECT_TRUE(CheckDestination(null, &error)) << error;
  EXPECT_TRUE(WriteFileAtomically(null, "x", &error)) << error;
  EXPECT_FALSE(CheckDestination(full, &error));
  EXPECT_NE(error.find(": it is a device, not a file"), std::string::npos) << error;
  EXPECT_FALSE(CheckDestination(block, &error));
  EXPECT_EQ(error,
            "cannot write " + block + ": it is a block device, which fakehost does not replace");
  for (const std::string& node : {null, full, block}) {
    struct stat st {};
    ASSERT_EQ(::stat(node.c_str(), &st), 0);
    EXPECT_FALSE(S_ISREG(st.st_mode)) << node;
  }
}

TEST_F(Destination, NoRegularFileUnderProcIsWrittenNorAnyFileCreatedThroughALinkToDev) {
  std::string error;
  // As root, this was written in place: the thread's name.
  EXPECT_FALSE(CheckDestination("/proc/self/comm", &error));
  EXPECT_EQ(error,
            "cannot write /proc/self/comm: it is a regular file under /dev/ or /proc/, which "
            "fakehost neither replaces nor writes into");
  // A name of this test's own: on the old code, root created the file, and it is removed here.
  const std::string in_dev = "/dev/fakehost-destination-test-" + std::to_string(::getpid());
  ASSERT_FALSE(fs::exists(in_dev));
  fs::create_symlink(in_dev, dir_ + "/link.json");
  EXPECT_FALSE(CheckDestination(dir_ + "/link.json", &error));
  EXPECT_NE(error.find("fakehost creates no files there"), std::string::npos) << error;
  EXPECT_FALSE(WriteFileAtomically(dir_ + "/link.json", "{}", &error));
  EXPECT_FALSE(fs::exists(in_dev));
  fs::remove(in_dev);
}

// Whether root can create `path`: a probe of the test's own, removed again.
bool RootCanCreate(const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  ::close(fd);
  ::unlink(path.c_str());
  return true;
}

TEST_F(Destination, ADirectoryThatTakesNoNewFileIsRefusedAtTheCheck) {
  // The check creates what the write would create, so it holds for root too, to whom access(2)
  // said yes on /sys: the run went on and the write failed at its end (exit 3).
  std::vector<std::string> refused;  // files the check must refuse, each in such a directory
  std::vector<std::string> refused_dirs;
  if (::geteuid() != 0) {
    ASSERT_EQ(::mkdir((dir_ + "/ro").c_str(), 0555), 0);
    refused = {dir_ + "/ro/r.json", dir_ + "/ro/new/r.json"};
    refused_dirs = {dir_ + "/ro", dir_ + "/ro/new"};
  } else {
    if (fs::is_directory("/sys") && !RootCanCreate("/sys/fakehost-destination-test.json")) {
      refused.push_back("/sys/fakehost-destination-test.json");
      refused.push_back("/sys/fakehost-destination-test/r.json");
      refused_dirs.push_back("/sys/fakehost-destination-test");
    }
    // /proc, reached through a link: under its own name the kernel-path rule refuses it first.
    fs::create_symlink("/proc/self", dir_ + "/proc");
    if (!RootCanCreate(dir_ + "/proc/fakehost-destination-test.json")) {
      refused.push_back(dir_ + "/proc/r.json");
      refused_dirs.push_back(dir_ + "/proc");
    }
    if (refused.empty()) GTEST_SKIP() << "root can create files in /sys and /proc here";
  }
  for (const std::string& path : refused) {
    std::string error;
    EXPECT_FALSE(CheckDestination(path, &error)) << path;
    EXPECT_NE(error.find("cannot write " + path + ": cannot create a "), std::string::npos)
        << error;
    EXPECT_FALSE(fs::exists(path)) << path;
  }
  for (const std::string& dir : refused_dirs) {
    std::string error;
    EXPECT_FALSE(CheckDestinationDir(dir, &error)) << dir;
    EXPECT_NE(error.find("cannot write " + dir + ": cannot create a "), std::string::npos) << error;
  }
}

TEST_F(Destination, TheCheckLeavesNothingBehind) {
  std::string error;
  ASSERT_TRUE(CheckDestination(dir_ + "/r.json", &error)) << error;
  ASSERT_TRUE(CheckDestination(dir_ + "/a/b/r.json", &error)) << error;
  ASSERT_TRUE(CheckDestinationDir(dir_ + "/transcripts", &error)) << error;
  ASSERT_TRUE(CheckDestinationDir(dir_, &error)) << error;
  EXPECT_TRUE(fs::is_empty(dir_));
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
  EXPECT_FALSE(fs::exists(dir_ + "/a"));  // by the write, not the check
  ASSERT_TRUE(WriteFileAtomically(path, "x", &error)) << error;
  EXPECT_EQ(Read(path), "x");
}

}  // namespace
}  // namespace fakehost::report
