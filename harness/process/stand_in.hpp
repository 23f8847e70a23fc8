// A process standing in for the plugin's host, for scenarios that end it.
//
// Flash: "A plugin should also exit when FLASH_PLUGIN_PARENT_PID dies". fakehost cannot die in
// the middle of a scenario; a stand-in can: the plugin is given its pid as its parent's, and a
// step kills it. The stand-in only pauses. After fork() in a threaded program the child may
// call async-signal-safe functions alone: it restores the default SIGINT/SIGTERM actions (not
// fakehost's interrupt handlers), asks to be killed with fakehost (PR_SET_PDEATHSIG, and a check
// for a parent gone before that), and closes every inherited descriptor so it holds no
// plugin's pipe.
#pragma once

#include <sys/types.h>

namespace fakehost::process {

class StandInParent {
 public:
  StandInParent() = default;
  StandInParent(const StandInParent&) = delete;
  StandInParent& operator=(const StandInParent&) = delete;
  ~StandInParent() { Kill(); }

  /// Forks the stand-in; false if fork() failed.
  bool Start();
  /// Kills and reaps it; nothing once it is gone.
  void Kill();
  /// Its pid, or -1 when there is none.
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
};

}  // namespace fakehost::process
