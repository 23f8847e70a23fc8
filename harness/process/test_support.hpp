// Helpers for the process layer's tests: spawn the fixture program, record what a Child
// reports, run the io_context until a condition holds or a deadline passes, and inspect
// /proc. Every spawning test also starts a Watchdog, so even a hang outside the io_context
// (in a destructor, say) ends the test binary instead of the CI job.
#pragma once

#include <dirent.h>
#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "harness/process/child.hpp"

namespace fakehost::process::testing {

inline const std::string kFixture = PROCESS_FIXTURE;
inline const std::string kFixtureDir = PROCESS_FIXTURE_DIR;

/// Aborts the whole test binary if still armed after `limit`.
class Watchdog {
 public:
  explicit Watchdog(std::chrono::milliseconds limit)
      : thread_([this, limit] {
          std::unique_lock<std::mutex> lock(mutex_);
          if (!cv_.wait_for(lock, limit, [this] { return done_; })) {
            std::fprintf(stderr, "watchdog: test exceeded %lld ms\n",
                         static_cast<long long>(limit.count()));
            std::abort();
          }
        }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

/// Collects everything a Child reports.
struct Recorder {
  std::string out;
  bool eof = false;
  std::uint64_t err_bytes = 0;
  std::optional<ExitStatus> exit;
  int exits = 0;
  std::optional<Clock::time_point> eof_at;
  std::optional<Clock::time_point> first_err_at;  ///< when the first stderr byte arrived

  Callbacks Make() {
    Callbacks callbacks;
    callbacks.on_stdout = [this](std::string_view bytes) { out.append(bytes); };
    callbacks.on_stdout_eof = [this] {
      eof = true;
      eof_at = Clock::now();
    };
    callbacks.on_stderr = [this](std::string_view bytes) {
      if (!first_err_at) first_err_at = Clock::now();
      err_bytes += bytes.size();
    };
    callbacks.on_exit = [this](const ExitStatus& status) {
      exit = status;
      ++exits;
    };
    return callbacks;
  }
};

/// The fixture in `mode`, with a minimal environment.
inline SpawnSpec FixtureSpec(std::vector<std::string> args) {
  SpawnSpec spec;
  spec.argv.push_back(kFixture);
  for (std::string& arg : args) spec.argv.push_back(std::move(arg));
  spec.env = {"PATH=/usr/bin:/bin"};
  return spec;
}

inline std::unique_ptr<Child> SpawnOrDie(boost::asio::io_context& io, const SpawnSpec& spec,
                                         Recorder* recorder) {
  InitProcessEnvironment();
  std::string error;
  auto child = Child::Spawn(io, spec, recorder->Make(), &error);
  if (!child) {
    std::fprintf(stderr, "spawn failed: %s\n", error.c_str());
    std::abort();
  }
  return child;
}

/// Runs `io` until `done()` holds or `limit` passes; returns done().
inline bool RunUntil(boost::asio::io_context& io, const std::function<bool()>& done,
                     std::chrono::milliseconds limit) {
  const auto end = Clock::now() + limit;
  while (!done()) {
    if (Clock::now() >= end) return false;
    if (io.stopped()) io.restart();
    if (io.run_one_until(end) == 0 && io.stopped()) return done();  // no work left
  }
  return true;
}

/// Runs `io` for `span` (for checks that something does not happen).
inline void RunFor(boost::asio::io_context& io, std::chrono::milliseconds span) {
  if (io.stopped()) io.restart();
  io.run_for(span);
}

/// Pids of every process (zombies included) whose process group is `pgid`, from /proc.
inline std::vector<pid_t> ProcessesInGroup(pid_t pgid) {
  std::vector<pid_t> found;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return found;
  while (const dirent* entry = ::readdir(proc)) {
    const pid_t pid = static_cast<pid_t>(std::atoi(entry->d_name));
    if (pid <= 0) continue;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto paren = text.rfind(')');  // the command name may hold spaces and parentheses
    if (paren == std::string::npos) continue;
    std::istringstream fields(text.substr(paren + 1));
    char state = 0;
    long ppid = 0;
    long group = 0;
    if (fields >> state >> ppid >> group && group == pgid) found.push_back(pid);
  }
  ::closedir(proc);
  return found;
}

/// True if this process has no child at all, alive or zombie.
inline bool HasNoChildren() { return ::waitpid(-1, nullptr, WNOHANG) == -1 && errno == ECHILD; }

}  // namespace fakehost::process::testing
