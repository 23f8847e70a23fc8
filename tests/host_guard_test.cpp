// What a hostile plugin cannot reach of the harness that runs it: the terminal (its own
// session, so no controlling terminal), the harness's interrupt (only the user's signals count)
// and the harness's descriptors through /proc (the harness is not dumpable). Each run ends with
// exit 0, 1, 2 or 3 as the user caused it, its report written and nothing left running.
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "harness/json/json.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string Hostile(const std::string& name) { return FixturesDir() + "/rim-v1/hostile/" + name; }

// A marker in the plugin's environment (--env): every process it starts that keeps its
// environment can be found in /proc after the run.
std::string RunMarker() {
  return "FAKEHOST_TEST_RUN=" + std::to_string(::getpid()) + "." +
         std::to_string(Clock::now().time_since_epoch().count());
}

// Live processes carrying `marker`, killed once counted so that later tests start clean.
int KillMarked(const std::string& marker) {
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // reparenting is not instant
  int found = 0;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string pid = entry.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string env = '\0' + ReadFile(entry.path().string() + "/environ") + '\0';
    if (env.find('\0' + marker + '\0') == std::string::npos) continue;
    if (ReadFile(entry.path().string() + "/stat").find(") Z ") != std::string::npos) continue;
    ++found;
    ::kill(std::stoi(pid), SIGKILL);
  }
  while (::waitpid(-1, nullptr, WNOHANG) > 0) {
  }
  return found;
}

std::string Status(int status) {
  if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "status " + std::to_string(status);
}

struct PtyRun {
  int status = -1;
  bool timed_out = false;
  bool interrupted = false;  ///< Ctrl-C was typed
  std::string screen;        ///< what the terminal showed
  std::string typed;         ///< input left queued in the terminal after the harness exited
};

// Runs `argv` as the session leader of a fresh pseudo-terminal, the way a shell runs a
// foreground command, and types Ctrl-C once `ready` exists.
PtyRun RunInTerminal(const std::vector<std::string>& argv, const std::string& ready,
                     std::chrono::seconds deadline) {
  PtyRun r;
  int master = -1, slave = -1;
  if (::openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) return r;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setsid();
    ::ioctl(slave, TIOCSCTTY, 0);
    for (int fd = 0; fd < 3; ++fd) ::dup2(slave, fd);
    ::close(master);
    ::close(slave);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  const auto until = Clock::now() + deadline;
  while (true) {
    if (::waitpid(pid, &r.status, WNOHANG) == pid) break;
    if (Clock::now() >= until) {
      r.timed_out = true;
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &r.status, 0);
      break;
    }
    if (!r.interrupted && fs::exists(ready)) {
      const char ctrl_c = '\x03';  // the terminal turns it into SIGINT for its foreground group
      r.interrupted = ::write(master, &ctrl_c, 1) == 1;
    }
    pollfd p{master, POLLIN, 0};
    if (::poll(&p, 1, 20) > 0 && (p.revents & POLLIN)) {
      char buf[4096];
      const ssize_t n = ::read(master, buf, sizeof buf);
      if (n > 0) r.screen.append(buf, static_cast<std::size_t>(n));
    }
  }
  // What is still queued for the terminal's next reader (the user's shell): canonical mode
  // hands out complete lines, so a typed-in command line shows here whole.
  ::fcntl(slave, F_SETFL, ::fcntl(slave, F_GETFL) | O_NONBLOCK);
  char buf[4096];
  for (ssize_t n; (n = ::read(slave, buf, sizeof buf)) > 0;)
    r.typed.append(buf, static_cast<std::size_t>(n));
  ::close(slave);
  ::close(master);
  return r;
}

TEST(HostGuard, APluginCannotTakeTheTerminalAndCtrlCStillEndsTheRunWithItsReports) {
  ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  const std::string out = MakeTempDir();
  const std::string attempts = out + "/attempts.txt";
  const std::string marker = RunMarker();
  PtyRun r = RunInTerminal(
      {FakehostBin(), "run", "--protocol", "rim-v1", "--plugin", Hostile("takes-the-terminal"),
       "--out", out + "/reports", "--report", "junit=" + out + "/junit.xml", "--no-color", "--env",
       "HOSTILE_REPORT=" + attempts, "--env", marker, "--only",
       "handshake/accepts-offered-version"},
      attempts, std::chrono::seconds(60));
  const std::string tried = ReadFile(attempts);
  rapidjson::Document report;
  const bool has_report = json::Parse(ReadFile(out + "/reports/report.json"), &report).ok;
  const std::string junit = ReadFile(out + "/junit.xml");
  fs::remove_all(out);
  const int left = KillMarked(marker);
  ASSERT_FALSE(r.timed_out) << r.screen;
  EXPECT_TRUE(r.interrupted) << "the plugin never said it had tried\n" << r.screen;
  // Run in a session of its own, the plugin has no controlling terminal to open.
  EXPECT_EQ(tried.rfind("open /dev/tty: ", 0), 0u) << tried;
  EXPECT_EQ(tried.find(": ok"), std::string::npos) << tried;
  EXPECT_EQ(r.typed, "") << "input pushed into the terminal for the user's shell";
  EXPECT_EQ(r.screen.find("FAKEHOST-TIOCSTI-MARKER"), std::string::npos) << r.screen;
  // Ctrl-C reached the harness: an interrupted run ends with 3 and writes every report.
  EXPECT_EQ(Status(r.status), "exit 3") << r.screen;
  ASSERT_TRUE(has_report) << r.screen;
  EXPECT_EQ(json::Find(*json::Find(report, "summary"), "not_run")->GetInt(), 1) << r.screen;
  EXPECT_NE(junit.find("interrupted"), std::string::npos);
  EXPECT_EQ(left, 0) << "processes left running";
}

TEST(HostGuard, APluginsSignalsToTheHarnessAreIgnoredAndNoted) {
  const std::string out = MakeTempDir();
  CommandResult r = RunCommand(
      {FakehostBin(), "run", "--protocol", "rim-v1", "--plugin", Hostile("interrupts-its-host"),
       "--out", out, "--no-color", "--only", "handshake/accepts-offered-version"},
      std::chrono::seconds(60));
  rapidjson::Document report;
  const bool has_report = json::Parse(ReadFile(out + "/report.json"), &report).ok;
  fs::remove_all(out);
  ASSERT_FALSE(r.timed_out) << r.out << r.err;
  // Not "interrupted" (3): the scenario ran and failed for the plugin's early exit.
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  // Both were pending at once: which the kernel delivered last is its choice.
  EXPECT_NE(r.err.find("fakehost: ignored 2 interrupting signals (the last SIG"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("can interrupt a run, and a plugin is none of them"), std::string::npos)
      << r.err;
  ASSERT_TRUE(has_report) << r.out << r.err;
  const auto& summary = *json::Find(report, "summary");
  EXPECT_EQ(json::Find(summary, "failed")->GetInt(), 1);
  EXPECT_EQ(json::Find(summary, "not_run")->GetInt(), 0);
  // The plugin exited 3 after its signals, and the report records that exit.
  const rapidjson::Value* exit = json::Find(report["scenarios"][0], "exit");
  ASSERT_TRUE(exit && exit->IsObject()) << r.out;
  EXPECT_EQ(json::Find(*exit, "code")->GetInt(), 3) << r.out;
}

// What RunAs's child exits with when `uid` cannot reach the program (a parent directory closed
// to others: a checkout under `mktemp -d`, 0700, run as root).
constexpr int kUnreachable = 125;

// Runs `argv` with stdout and stderr to files in `dir`, as `uid` when that is not ours (we are
// root then), and returns its wait status; -1 past `deadline`.
int RunAs(uid_t uid, const std::vector<std::string>& argv, const std::string& dir,
          std::chrono::seconds deadline) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (uid != ::geteuid() &&
        (::setgroups(0, nullptr) != 0 || ::setgid(uid) != 0 || ::setuid(uid) != 0))
      ::_exit(126);
    if (::access(argv[0].c_str(), X_OK) != 0) ::_exit(kUnreachable);
    // Opened as `uid`, so the files are its own (a plugin may reopen what its user owns), and
    // appending, so that a line the plugin writes through /proc is not overwritten.
    const int flags = O_WRONLY | O_CREAT | O_APPEND;
    const int out = ::open((dir + "/stdout").c_str(), flags, 0644);
    const int err = ::open((dir + "/stderr").c_str(), flags, 0644);
    if (out < 0 || err < 0) ::_exit(126);
    ::dup2(out, 1);
    ::dup2(err, 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  int status = -1;
  const auto until = Clock::now() + deadline;
  while (::waitpid(pid, &status, WNOHANG) != pid) {
    if (Clock::now() >= until) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return status;
}

// The check that stops it is ptrace's access check, which root passes (CAP_SYS_PTRACE) whatever
// the target's dumpable flag: as root the test runs the harness as `nobody`, a user like any.
TEST(HostGuard, APluginOfTheSameUserCannotOpenTheHarnesssDescriptorsThroughProc) {
  const uid_t user = ::geteuid() == 0 ? 65534 : ::geteuid();
  const std::string dir = MakeTempDir();
  ASSERT_EQ(::chown(dir.c_str(), user, user), 0);
  const std::string attempts = dir + "/attempts.txt";
  const int status =
      RunAs(user,
            {FakehostBin(), "run", "--protocol", "rim-v1", "--plugin",
             Hostile("writes-to-host-stdout"), "--out", dir + "/reports", "--no-color", "--env",
             "HOSTILE_REPORT=" + attempts, "--only", "handshake/accepts-offered-version"},
            dir, std::chrono::seconds(60));
  const std::string tried = ReadFile(attempts);
  const std::string out = ReadFile(dir + "/stdout") + ReadFile(dir + "/stderr");
  const bool has_report = fs::exists(dir + "/reports/report.json");
  fs::remove_all(dir);
  ASSERT_NE(status, -1) << "timed out\n" << out;
  if (WIFEXITED(status) && WEXITSTATUS(status) == kUnreachable)
    GTEST_SKIP() << "user " << user << " cannot reach " << FakehostBin()
                 << ": a parent directory is closed to others (as mktemp -d's is); run the tests "
                    "as another user than root, or from a checkout others can traverse";
  RecordProperty("attempts", tried);
  EXPECT_EQ(Status(status), "exit 1") << out;
  EXPECT_TRUE(has_report) << out;
  EXPECT_NE(tried.find("/fd/1: Permission denied"), std::string::npos) << tried;
  EXPECT_EQ(out.find("FAKEHOST-PROC-FD-MARKER"), std::string::npos) << out;
  // The plugin itself is dumpable again (exec resets it): the harness can read its /proc.
  EXPECT_NE(tried.find("dumpable: 1"), std::string::npos) << tried;
}

}  // namespace
}  // namespace fakehost::testing
