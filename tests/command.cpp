#include "tests/command.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace fakehost::testing {

namespace {

// Whether a SIGINT is pending for process `pid` (sent, not yet delivered), from
// /proc/<pid>/status: kill() makes it pending for the whole process (ShdPnd).
bool SigintPending(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  const unsigned long long bit = 1ull << (SIGINT - 1);
  while (std::getline(status, line)) {
    if (line.rfind("ShdPnd:", 0) != 0 && line.rfind("SigPnd:", 0) != 0) continue;
    if (std::strtoull(line.c_str() + 7, nullptr, 16) & bit) return true;
  }
  return false;
}

// Forks the command in a process group of its own (a timeout kills all it started), with
// stdout and stderr into the given pipe ends and stdin from /dev/null. Returns fork()'s result.
pid_t Spawn(const std::vector<std::string>& argv, int out, int err) {
  const pid_t pid = fork();
  if (pid != 0) return pid;
  setpgid(0, 0);
  dup2(out, 1);
  dup2(err, 2);
  int devnull = open("/dev/null", O_RDONLY);
  dup2(devnull, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  execv(args[0], args.data());
  _exit(127);
}

// Reads what poll() found ready on each open pipe into its sink, closing a pipe at its end;
// returns how many it closed.
int ReadReady(pollfd (&fds)[2], std::string* const (&sinks)[2]) {
  int closed = 0;
  for (int i = 0; i < 2; ++i) {
    if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP))) continue;
    char buf[65536];
    ssize_t n = read(fds[i].fd, buf, sizeof buf);
    if (n > 0) {
      sinks[i]->append(buf, static_cast<std::size_t>(n));
    } else {
      close(fds[i].fd);
      fds[i].fd = -1;
      ++closed;
    }
  }
  return closed;
}

}  // namespace

CommandResult RunCommand(const std::vector<std::string>& argv, std::chrono::seconds deadline,
                         const Interrupts& interrupts) {
  CommandResult result;
  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) return result;
  auto start = std::chrono::steady_clock::now();
  const pid_t pid = Spawn(argv, out[1], err[1]);
  close(out[1]);
  close(err[1]);
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  std::string* const sinks[2] = {&result.out, &result.err};
  int open_fds = 2;
  auto until = start + deadline;
  int sent = 0;
  const int wanted = interrupts.ready ? interrupts.count : 0;
  // How often the readiness of the next interrupt is asked while nothing else happens.
  constexpr int kAskEveryMs = 5;
  while (open_fds > 0) {
    auto now = std::chrono::steady_clock::now();
    if (sent < wanted && (sent == 0 ? interrupts.ready() : !SigintPending(pid))) {
      kill(pid, SIGINT);
      if (sent++ == 0)
        result.interrupted_at_ms = std::chrono::duration<double, std::milli>(now - start).count();
      continue;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - now).count();
    if (left <= 0) {
      result.timed_out = true;
      kill(-pid, SIGKILL);
      break;
    }
    int wait_ms =
        sent < wanted ? std::min<int>(kAskEveryMs, static_cast<int>(left)) : static_cast<int>(left);
    if (poll(fds, 2, wait_ms) < 0) continue;
    open_fds -= ReadReady(fds, sinks);
  }
  for (auto& f : fds)
    if (f.fd >= 0) close(f.fd);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status) && !result.timed_out) result.exit_code = WEXITSTATUS(status);
  result.ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::string FakehostBin() { return FAKEHOST_BIN; }
std::string FixturesDir() { return FAKEHOST_FIXTURES; }
std::string SourceDir() { return FAKEHOST_SOURCE; }
std::string BuiltExamplesDir() { return FAKEHOST_EXAMPLES_BUILD; }

std::string MakeTempDir() {
  char templ[] = "/tmp/fakehost-test-XXXXXX";
  const char* dir = mkdtemp(templ);
  return dir ? dir : "/tmp";
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace fakehost::testing
