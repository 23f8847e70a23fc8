// Keeping every process a plugin starts within reach, so that none outlives its Child, and
// reaping what is reparented to the harness. Internal to the process layer.
//
// A plugin's process group is not enough: a descendant that calls setsid() or setpgid(), or
// double-forks into a new group, leaves it. So each Child gets an Enclosure, which follows
// every descendant however it regroups:
//  - A cgroup (v2) when the machine allows one: a fresh directory fakehost-<pid>-<start>.<n>
//    under the harness's own cgroup (<pid> and <start>, its start time in clock ticks, name the
//    run for good: a run killed before removing its cgroups leaves them empty, and the next run
//    removes those whose run is gone), which the child enters (writing "0" to its
//    cgroup.procs) between fork and exec, so
//    every later descendant is born inside. cgroup.kill (Linux 5.14) kills them all at once;
//    without it each listed member is sent SIGKILL until the list is empty. Nothing a plugin
//    can do (short of privileges) takes a process out of it.
//  - Otherwise (no cgroup2 mount, no write access, a delegated hierarchy that refuses the
//    move) an environment marker, FAKEHOST_SESSION=<harness pid>.<n>, which every descendant
//    inherits and /proc/<pid>/environ shows; a scan of /proc finds and kills them. A process
//    that execs with a scrubbed environment escapes this one, which is why the cgroup comes
//    first; the end-of-run sweep (SweepOrphans) still kills whatever was reparented to us.
// The marker is set in both cases (it costs one variable): it lets anyone, tests included,
// find a session's processes. FAKEHOST_CONTAINMENT=marker in the harness's environment skips
// the cgroup, so the fallback can be tested on a machine that has one.
//
// Reaping. The harness is a child subreaper, so orphans of every session become its children.
// Another session's plugin is a child too, and its exit status belongs to its own Child (read
// with WNOWAIT through a pidfd), so no blanket waitpid(-1) is allowed anywhere. Instead each
// plugin pid is registered from before its fork (SpawnWindow) until its Child has reaped it,
// and ReapOrphanZombies() reaps, by pid, zombie children that are not registered: nobody
// else waits for those. The fork-to-register window is covered by a shared lock, which the
// sweep takes exclusively.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

namespace fakehost::process::detail {

/// Held from before the fork of a plugin until its pid is registered: no orphan sweep runs
/// meanwhile, so a plugin that exits at once is never mistaken for an orphan.
class SpawnWindow {
 public:
  SpawnWindow();
  void Register(pid_t plugin);

 private:
  std::shared_lock<std::shared_mutex> lock_;
};

/// Ends a plugin's registration (after its Child reaped it, or gave up on it).
void Unregister(pid_t plugin);

/// Reaps every zombie child of the harness that is not a registered plugin. Never blocks.
/// Returns how many it reaped.
int ReapOrphanZombies();

/// Kills every child of the harness that is not a registered plugin, and reaps them and every
/// zombie, until none is left or `budget` has passed. Returns {killed, reaped}.
struct SweepCount {
  int killed = 0;
  int reaped = 0;
};
SweepCount KillAndReapOrphans(std::chrono::milliseconds budget);

/// Live processes (not zombies) whose parent is `parent`, from /proc.
std::vector<pid_t> ChildrenOf(pid_t parent, bool zombies);

/// Removes the empty fakehost-<pid>-<start>.<n> cgroups under `parent` whose run is gone (no
/// process <pid> started at <start>). Returns how many it removed. An Enclosure does this once
/// per process, before creating its first cgroup.
int SweepDeadRunCgroups(const std::string& parent);
/// The directory an Enclosure creates its cgroups in; "" without a usable cgroup v2.
std::string CgroupParentDir();

class Enclosure {
 public:
  Enclosure();   ///< Picks the marker and creates a cgroup when it can; never fails.
  ~Enclosure();  ///< Removes the cgroup (once empty).
  Enclosure(const Enclosure&) = delete;
  Enclosure& operator=(const Enclosure&) = delete;

  /// "FAKEHOST_SESSION=<harness pid>.<n>", for the plugin's environment.
  const std::string& marker() const { return marker_; }
  /// The cgroup's cgroup.procs, open for writing (the child writes "0" before exec); -1 if
  /// there is no cgroup.
  int procs_fd() const { return procs_fd_; }
  /// After the launch: keeps the cgroup only if `plugin` really is in it (a refused move
  /// leaves it where it was), else falls back to the marker.
  void Confirm(pid_t plugin);
  bool uses_cgroup() const { return procs_fd_ >= 0; }

  /// SIGKILLs every member and reaps the zombies reparented to the harness, until no member
  /// is alive or `budget` has passed. Returns how many processes it signalled.
  int KillAll(std::chrono::milliseconds budget);

 private:
  std::vector<pid_t> Members() const;
  void RemoveCgroup();

  std::string marker_;
  std::string cgroup_dir_;  // empty without a cgroup
  int procs_fd_ = -1;
};

}  // namespace fakehost::process::detail
