// Enclosures (cgroup or environment marker) and the orphan sweep; see contain.hpp for why.
#include "harness/process/contain.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <set>
#include <thread>

namespace fakehost::process::detail {
namespace {

using Clock = std::chrono::steady_clock;

std::shared_mutex g_spawn_mutex;  // shared: a fork-to-register window; exclusive: a sweep
std::mutex g_registry_mutex;
std::multiset<pid_t> g_plugins;  // a multiset: a reaped pid may be reused and registered anew

// Reads a small /proc or cgroup file whole; "" if it cannot be read.
std::string ReadSmallFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  std::string text;
  char buf[4096];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > (1u << 20)) break;  // an environment or a pid list never needs more
  }
  ::close(fd);
  return text;
}

struct ProcStat {
  pid_t pid = 0;
  char state = 0;
  pid_t ppid = 0;
};

// The state and parent of process `pid` from /proc/<pid>/stat; false if it is gone.
bool ReadStat(long pid, ProcStat* stat) {
  const std::string text = ReadSmallFile("/proc/" + std::to_string(pid) + "/stat");
  const auto paren = text.rfind(')');  // the command name may hold spaces and parentheses
  if (paren == std::string::npos || paren + 4 >= text.size()) return false;
  stat->pid = static_cast<pid_t>(pid);
  stat->state = text[paren + 2];
  stat->ppid = static_cast<pid_t>(std::strtol(text.c_str() + paren + 4, nullptr, 10));
  return true;
}

// Calls `fn` for every process in /proc with its state and parent.
template <typename Fn>
void ForEachProcess(Fn fn) {
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return;
  while (const dirent* entry = ::readdir(proc)) {
    char* end = nullptr;
    const long pid = std::strtol(entry->d_name, &end, 10);
    if (pid <= 0 || *end != '\0') continue;
    ProcStat stat;
    if (ReadStat(pid, &stat)) fn(stat);
  }
  ::closedir(proc);
}

// This process's children (zombies included), from each of its threads'
// /proc/self/task/<tid>/children: a few small files, where a scan of /proc reads one per
// process on the machine (on a busy CI runner, hundreds, for every scenario). False when the
// kernel has no such files (CONFIG_PROC_CHILDREN), and the caller scans /proc instead.
bool OwnChildren(std::vector<long>* out) {
  DIR* tasks = ::opendir("/proc/self/task");
  if (tasks == nullptr) return false;
  bool read = false;
  while (const dirent* entry = ::readdir(tasks)) {
    if (entry->d_name[0] == '.') continue;
    const std::string path = std::string("/proc/self/task/") + entry->d_name + "/children";
    if (::access(path.c_str(), R_OK) != 0) continue;  // a thread that just ended, or no files
    read = true;
    const std::string list = ReadSmallFile(path);
    const char* p = list.c_str();
    while (*p != '\0') {
      char* end = nullptr;
      const long pid = std::strtol(p, &end, 10);
      if (end == p) break;
      if (pid > 0) out->push_back(pid);
      p = end;
      while (*p == ' ' || *p == '\n') ++p;
    }
  }
  ::closedir(tasks);
  return read;
}

bool IsRegistered(pid_t pid) {
  std::lock_guard<std::mutex> lock(g_registry_mutex);
  return g_plugins.count(pid) > 0;
}

// The harness's own cgroup v2 directory, or "" when there is none we can use.
std::string OwnCgroupDir() {
  std::string mount;
  const std::string mountinfo = ReadSmallFile("/proc/self/mountinfo");
  std::size_t at = 0;
  while (at < mountinfo.size()) {
    std::size_t eol = mountinfo.find('\n', at);
    if (eol == std::string::npos) eol = mountinfo.size();
    const std::string line = mountinfo.substr(at, eol - at);
    at = eol + 1;
    const auto dash = line.find(" - cgroup2 ");
    if (dash == std::string::npos) continue;
    // Field 5 is the mount point: skip four space-separated fields.
    std::size_t pos = 0;
    for (int field = 0; field < 4 && pos != std::string::npos; ++field) {
      pos = line.find(' ', pos);
      if (pos != std::string::npos) ++pos;
    }
    if (pos == std::string::npos) continue;
    mount = line.substr(pos, line.find(' ', pos) - pos);
    break;
  }
  if (mount.empty()) return {};
  const std::string self = ReadSmallFile("/proc/self/cgroup");
  const auto line = self.find("0::");
  if (line == std::string::npos) return {};
  std::string path = self.substr(line + 3, self.find('\n', line) - line - 3);
  if (path == "/") path.clear();
  return mount + path;
}

std::atomic<unsigned> g_enclosures{0};

// Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. With the
// pid it names a process for good (a pid alone is reused); "" if there is no such process.
std::string StartTimeOf(pid_t pid) {
  const std::string text = ReadSmallFile("/proc/" + std::to_string(pid) + "/stat");
  auto at = text.rfind(')');
  if (at == std::string::npos) return {};
  for (int field = 2; field < 22 && at != std::string::npos; ++field) at = text.find(' ', at + 1);
  if (at == std::string::npos) return {};
  const auto end = text.find(' ', at + 1);
  return text.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
}

bool AllDigits(const std::string& s) {
  return !s.empty() && s.size() <= 20 && s.find_first_not_of("0123456789") == std::string::npos;
}

// Reads "<pid>-<start>.<n>", or an older fakehost's "<pid>.<n>" (then `*start` is ""), the part
// of a cgroup's name after "fakehost-"; false if the name is not one fakehost gives.
bool ParseCgroupName(const std::string& name, pid_t* pid, std::string* start) {
  const auto dot = name.rfind('.');
  if (dot == std::string::npos || !AllDigits(name.substr(dot + 1))) return false;
  const std::string owner = name.substr(0, dot);
  const auto dash = owner.find('-');
  const std::string pid_text = owner.substr(0, dash);
  *start = dash == std::string::npos ? "" : owner.substr(dash + 1);
  if (!AllDigits(pid_text) || pid_text.size() > 9 ||
      (dash != std::string::npos && !AllDigits(*start)))
    return false;
  *pid = static_cast<pid_t>(std::stol(pid_text));
  return *pid > 0;
}

void SleepBriefly() { std::this_thread::sleep_for(std::chrono::milliseconds(1)); }

}  // namespace

SpawnWindow::SpawnWindow() : lock_(g_spawn_mutex) {}

void SpawnWindow::Register(pid_t plugin) {
  std::lock_guard<std::mutex> lock(g_registry_mutex);
  g_plugins.insert(plugin);
}

void Unregister(pid_t plugin) {
  std::lock_guard<std::mutex> lock(g_registry_mutex);
  auto it = g_plugins.find(plugin);
  if (it != g_plugins.end()) g_plugins.erase(it);
}

std::vector<pid_t> ChildrenOf(pid_t parent, bool zombies) {
  std::vector<pid_t> found;
  auto take = [&](const ProcStat& s) {
    if (s.ppid == parent && (s.state == 'Z') == zombies) found.push_back(s.pid);
  };
  std::vector<long> own;
  if (parent == ::getpid() && OwnChildren(&own)) {
    for (long pid : own)
      if (ProcStat s; ReadStat(pid, &s)) take(s);
    return found;
  }
  ForEachProcess(take);
  return found;
}

int ReapOrphanZombies() {
  std::unique_lock<std::shared_mutex> lock(g_spawn_mutex);
  int reaped = 0;
  for (pid_t pid : ChildrenOf(::getpid(), /*zombies=*/true)) {
    if (IsRegistered(pid)) continue;  // a plugin: its Child reads the status and reaps it
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG) == 0 && info.si_pid)
      ++reaped;
  }
  return reaped;
}

SweepCount KillAndReapOrphans(std::chrono::milliseconds budget) {
  SweepCount count;
  std::set<pid_t> signalled;
  const auto deadline = Clock::now() + budget;
  int quiet = 0;
  while (true) {
    std::vector<pid_t> alive;
    for (pid_t pid : ChildrenOf(::getpid(), /*zombies=*/false))
      if (!IsRegistered(pid)) alive.push_back(pid);
    for (pid_t pid : alive)
      if (::kill(pid, SIGKILL) == 0) signalled.insert(pid);
    const int reaped = ReapOrphanZombies();
    count.reaped += reaped;
    // Twice quiet: a process killed a moment ago may not have been reparented to us yet.
    quiet = alive.empty() && reaped == 0 ? quiet + 1 : 0;
    if (quiet == 2 || Clock::now() >= deadline) break;
    SleepBriefly();
  }
  count.killed = static_cast<int>(signalled.size());
  return count;
}

int SweepDeadRunCgroups(const std::string& parent) {
  DIR* dir = ::opendir(parent.c_str());
  if (dir == nullptr) return 0;
  int removed = 0;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    pid_t pid = 0;
    std::string start;
    if (name.rfind("fakehost-", 0) != 0 || !ParseCgroupName(name.substr(9), &pid, &start)) continue;
    const std::string now = StartTimeOf(pid);
    if (start.empty() ? !now.empty() : now == start) continue;  // its run is alive
    // rmdir removes only an empty cgroup: one whose plugins still live is left alone.
    if (::rmdir((parent + "/" + name).c_str()) == 0) ++removed;
  }
  ::closedir(dir);
  return removed;
}

std::string CgroupParentDir() { return OwnCgroupDir(); }

Enclosure::Enclosure() {
  const unsigned n = ++g_enclosures;
  const std::string id = std::to_string(::getpid()) + "." + std::to_string(n);
  marker_ = "FAKEHOST_SESSION=" + id;
  const char* mode = std::getenv("FAKEHOST_CONTAINMENT");
  if (mode != nullptr && std::strcmp(mode, "marker") == 0) return;
  const std::string parent = OwnCgroupDir();
  if (parent.empty()) return;
  // Once per run, before its first cgroup: the empty cgroups of runs that died (SIGKILL, a
  // crash) before removing theirs.
  static std::once_flag swept;
  std::call_once(swept, [&] { SweepDeadRunCgroups(parent); });
  static const std::string self_start = StartTimeOf(::getpid());
  const std::string dir = parent + "/fakehost-" + std::to_string(::getpid()) + "-" + self_start +
                          "." + std::to_string(n);
  if (::mkdir(dir.c_str(), 0755) != 0) return;
  procs_fd_ = ::open((dir + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
  if (procs_fd_ < 0) {
    ::rmdir(dir.c_str());
    return;
  }
  cgroup_dir_ = dir;
}

Enclosure::~Enclosure() { RemoveCgroup(); }

void Enclosure::Confirm(pid_t plugin) {
  if (procs_fd_ < 0) return;
  const std::string rel = ReadSmallFile("/proc/" + std::to_string(plugin) + "/cgroup");
  const std::string name = cgroup_dir_.substr(cgroup_dir_.rfind('/'));
  // "0::/.../fakehost-<id>\n"; a plugin that already exited shows nothing useful, and then
  // nothing of it is left to follow anyway.
  if (rel.find(name + "\n") != std::string::npos || rel.empty()) return;
  RemoveCgroup();
}

void Enclosure::RemoveCgroup() {
  if (procs_fd_ >= 0) ::close(procs_fd_);
  procs_fd_ = -1;
  if (cgroup_dir_.empty()) return;
  // The last member may still be between leaving the cgroup and exiting: retry briefly.
  for (int attempt = 0; attempt < 200 && ::rmdir(cgroup_dir_.c_str()) != 0 && errno == EBUSY;
       ++attempt) {
    SleepBriefly();
  }
  cgroup_dir_.clear();
}

std::vector<pid_t> Enclosure::Members() const {
  std::vector<pid_t> members;
  const pid_t self = ::getpid();
  if (!cgroup_dir_.empty()) {
    const std::string list = ReadSmallFile(cgroup_dir_ + "/cgroup.procs");
    const char* p = list.c_str();
    while (*p != '\0') {
      char* end = nullptr;
      const long pid = std::strtol(p, &end, 10);
      if (end == p) break;
      if (pid > 0 && pid != self) members.push_back(static_cast<pid_t>(pid));
      p = end;
      while (*p == '\n') ++p;
    }
    return members;
  }
  const std::string needle = std::string(1, '\0') + marker_ + std::string(1, '\0');
  ForEachProcess([&](const ProcStat& s) {
    if (s.pid == self || s.state == 'Z') return;
    const std::string env = std::string(1, '\0') +
                            ReadSmallFile("/proc/" + std::to_string(s.pid) + "/environ") +
                            std::string(1, '\0');
    if (env.find(needle) != std::string::npos) members.push_back(s.pid);
  });
  return members;
}

int Enclosure::KillAll(std::chrono::milliseconds budget) {
  std::set<pid_t> signalled;
  if (!cgroup_dir_.empty()) {
    const int kill_fd = ::open((cgroup_dir_ + "/cgroup.kill").c_str(), O_WRONLY | O_CLOEXEC);
    if (kill_fd >= 0) {
      ssize_t ignored = ::write(kill_fd, "1", 1);
      (void)ignored;
      ::close(kill_fd);
    }
  }
  const auto deadline = Clock::now() + budget;
  int quiet = 0;
  while (true) {
    const std::vector<pid_t> members = Members();
    for (pid_t pid : members)
      if (::kill(pid, SIGKILL) == 0) signalled.insert(pid);
    const int reaped = ReapOrphanZombies();
    quiet = members.empty() && reaped == 0 ? quiet + 1 : 0;  // twice, as in the sweep above
    if (quiet == 2 || Clock::now() >= deadline) break;
    SleepBriefly();
  }
  return static_cast<int>(signalled.size());
}

}  // namespace fakehost::process::detail
