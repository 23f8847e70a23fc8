#include "harness/process/launch.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <utility>

#include <boost/process/v2/posix/default_launcher.hpp>
#include <boost/process/v2/process.hpp>

namespace fakehost::process::detail {
namespace {

namespace bp = boost::process::v2;

class Fd {
 public:
  Fd() = default;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { Reset(); }
  int get() const { return fd_; }
  int Release() { return std::exchange(fd_, -1); }
  void Reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  void Set(int fd) {
    Reset();
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

bool MakePipe(Fd* read_end, Fd* write_end, std::string* error) {
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) {
    *error = std::string("cannot create a pipe: ") + std::strerror(errno);
    return false;
  }
  read_end->Set(p[0]);
  write_end->Set(p[1]);
  return true;
}

bp::error_code LastError() { return bp::error_code(errno, bp::system_category()); }

// What the child does between fork and exec, as a Boost.Process v2 initializer. The hooks run
// in the forked copy of a multi-threaded program, so they make async-signal-safe calls only.
struct ChildSetup {
  int in;
  int out;
  int err;
  const char* cwd;
  int cgroup_procs;  // -1: no cgroup
  Limits limits;

  bp::error_code on_exec_setup(bp::posix::default_launcher& launcher, const bp::filesystem::path&,
                               const char* const*) {
    // First of all, so that nothing the plugin ever starts is born outside. A refusal is not
    // fatal: the parent sees it (Enclosure::Confirm) and follows the marker instead.
    if (cgroup_procs >= 0) {
      ssize_t ignored = ::write(cgroup_procs, "0", 1);
      (void)ignored;
    }
    // A session of its own, so no controlling terminal: the plugin cannot open /dev/tty, take
    // the terminal's foreground process group (Ctrl-C would no longer reach the harness) or
    // push input into the user's shell with TIOCSTI. setsid() also makes it the leader of a
    // new process group (pgid = pid), which the stop sequence signals as a whole.
    if (::setsid() < 0) return LastError();
    SetLimits(limits);
    // An ignored signal stays ignored across exec (the harness ignores SIGPIPE), and the mask
    // is inherited from whichever thread forked: give the plugin what a shell would.
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &dfl, nullptr);  // EINVAL for some
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    if (cwd != nullptr && ::chdir(cwd) != 0) return LastError();
    // Lift the pipe ends above 2 before dup2: if the harness runs with 0, 1 or 2 closed, a
    // pipe end can itself be 0, 1 or 2, and dup2 in order would overwrite it.
    int fds[3] = {in, out, err};
    for (int& fd : fds) {
      fd = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
      if (fd < 0) return LastError();
    }
    for (int target = 0; target < 3; ++target) {
      if (::dup2(fds[target], target) < 0) return LastError();  // dup2 clears FD_CLOEXEC
    }
    CloseAllBut(launcher.fd_whitelist);
    return {};
  }

  // Limits only ever lower what the harness itself was given (raising needs privileges).
  static void SetLimits(const Limits& limits) {
    Lower(RLIMIT_CORE, 0);
    if (limits.cpu_seconds > 0) {
      // The soft limit sends SIGXCPU; a plugin that ignores it gets SIGKILL 2 s of CPU later.
      rlimit cpu{limits.cpu_seconds, limits.cpu_seconds + 2};
      rlimit now{};
      if (::getrlimit(RLIMIT_CPU, &now) == 0 && now.rlim_max != RLIM_INFINITY) {
        cpu.rlim_max = std::min(cpu.rlim_max, now.rlim_max);
        cpu.rlim_cur = std::min(cpu.rlim_cur, cpu.rlim_max);
      }
      ::setrlimit(RLIMIT_CPU, &cpu);
    }
    if (limits.address_space_bytes > 0) Lower(RLIMIT_AS, limits.address_space_bytes);
  }
  static void Lower(int resource, rlim_t value) {
    rlimit now{};
    if (::getrlimit(resource, &now) != 0) return;
    if (now.rlim_max != RLIM_INFINITY && now.rlim_max < value) value = now.rlim_max;
    const rlimit next{value, value};
    ::setrlimit(resource, &next);
  }

  // Boost 1.81's close_all() never closes the gaps between whitelisted descriptors (fixed in
  // 1.85), so a descriptor another thread opened without O_CLOEXEC would leak into the plugin
  // and, if it is another plugin's stdin, delay that plugin's EOF. The whitelist here is
  // {0, 1, 2} plus the launcher's exec-error pipe.
  static void CloseAllBut(std::vector<int>& keep) {
    std::sort(keep.begin(), keep.end());  // in place: no allocation after fork
    unsigned next = 0;
    for (int fd : keep) {
      const auto ufd = static_cast<unsigned>(fd);
      if (ufd > next) ::close_range(next, ufd - 1, 0);
      if (ufd + 1 > next) next = ufd + 1;
    }
    ::close_range(next, ~0U, 0);
  }

  // Replaces the launcher's exit(EXIT_FAILURE) after a failed exec, which would run the
  // harness's atexit handlers and flush its stdio buffers a second time from the child. Boost
  // 1.81 detects this hook with five arguments but calls it with four: accept both.
  template <typename... Args>
  void on_exec_error(bp::posix::default_launcher&, Args&&...) {
    ::_exit(127);
  }
};

void KillAndReap(pid_t pid) {
  ::kill(-pid, SIGKILL);
  ::kill(pid, SIGKILL);
  while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
  }
}

// The child forked by Boost.Process's launcher, `setup` run between fork and exec; its pid, or -1
// with `*error` (a child that was forked is killed and reaped).
pid_t StartChild(const std::string& executable, const char** args, const char** envp,
                 ChildSetup& setup, std::string* error) {
  // The launcher runs on a private io_context that never runs: Boost.Process opens a pidfd of
  // its own and registers it with the executor's reactor, and the detach below closes it. On
  // the caller's context that registration could outlive the close (another thread's fork may
  // hold a copy) and deliver the plugin's exit to an unrelated descriptor (see CloseDescriptor).
  boost::asio::io_context launch_io;
  bp::posix::default_launcher launcher;
  launcher.env = envp;
  bp::error_code ec;
  pid_t pid = -1;
  const pid_t harness = ::getpid();
  try {
    // The error_code overload on an executor: the one on a context drops `ec` and throws.
    auto proc =
        launcher(launch_io.get_executor(), ec, bp::filesystem::path(executable), args, setup);
    if (!ec) {
      pid = proc.id();
      // Detach at once: ~basic_process would waitpid(pid, WNOHANG) and could reap the child
      // behind our back. We watch it through our own pidfd instead.
      proc.detach();
    }
  } catch (const std::exception& e) {
    // asio's notify_fork can throw in the forked child too; that copy must not go on running
    // the harness.
    if (::getpid() != harness) ::_exit(127);
    if (launcher.pid > 0) KillAndReap(launcher.pid);
    *error = "cannot start " + executable + ": " + e.what();
    return -1;
  }
  if (ec) {
    // The child reported its errno through the launcher's pipe and called _exit: reap it.
    if (launcher.pid > 0) KillAndReap(launcher.pid);
    *error = "cannot execute " + executable + ": " + std::strerror(ec.value());
    return -1;
  }
  return pid;
}

}  // namespace

// The spawn's steps (pipes, process group, limits, exec) in the order the kernel needs them.
bool Launch(const std::string& executable, const SpawnSpec& spec, const std::string& cwd,
            const Enclosure& enclosure, Launched* out, std::string* error) {
  Fd in_read, in_write, out_read, out_write, err_read, err_write;
  if (!MakePipe(&in_read, &in_write, error) || !MakePipe(&out_read, &out_write, error) ||
      !MakePipe(&err_read, &err_write, error)) {
    return false;
  }

  std::vector<const char*> args;
  for (const std::string& arg : spec.argv) args.push_back(arg.c_str());
  args.push_back(nullptr);
  std::vector<const char*> envp;
  for (const std::string& entry : spec.env) envp.push_back(entry.c_str());
  envp.push_back(enclosure.marker().c_str());
  envp.push_back(nullptr);

  ChildSetup setup{in_read.get(),        out_write.get(),
                   err_write.get(),      cwd.empty() ? nullptr : cwd.c_str(),
                   enclosure.procs_fd(), spec.limits};
  const pid_t pid = StartChild(executable, args.data(), envp.data(), setup, error);
  if (pid < 0) return false;

  // Debian 12's <sys/pidfd.h> lacks extern "C", so its pidfd_open does not link from C++.
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));  // implies O_CLOEXEC
  if (pidfd < 0) {
    const int saved = errno;
    KillAndReap(pid);
    *error = "cannot watch " + executable + " (pidfd_open): " + std::strerror(saved);
    return false;
  }
  out->pid = pid;
  out->pidfd = pidfd;
  out->stdin_fd = in_write.Release();
  out->stdout_fd = out_read.Release();
  out->stderr_fd = err_read.Release();
  return true;  // the child's ends close here, in ~Fd
}

}  // namespace fakehost::process::detail
