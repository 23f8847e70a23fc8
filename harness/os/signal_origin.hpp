// Who sent a signal, for the interrupt handlers: a Ctrl-C or a `kill` from the user (or from
// whatever started fakehost) ends a run; the same signal from a plugin must not.
//
// Judged inside a signal handler, so only async-signal-safe calls are made (getpid, getppid,
// open, read, close on /proc/<pid>/stat). A signal is the user's when
//  - the kernel sent it (si_code > 0: the terminal's Ctrl-C is SI_KERNEL), which no process
//    can forge for another one (rt_sigqueueinfo refuses si_code >= 0 across processes);
//  - its sender is outside fakehost's pid namespace (si_pid 0: `docker stop`, the host);
//  - fakehost sent it to itself;
//  - its sender is an ancestor of fakehost (its parent, the shell or CI step above it, a
//    `timeout`, a service manager). No plugin process can be one: every process a plugin
//    starts is fakehost's descendant.
// Anything else (a plugin, its children, or a stranger that is neither) is the plugin's. A
// sender that exited before the walk is no ancestor either: nothing is trusted by default.
#pragma once

#include <signal.h>

namespace fakehost::os {

enum class SignalOrigin {
  kKernel,    ///< si_code > 0 (a terminal's Ctrl-C)
  kOutside,   ///< si_pid 0: a sender in another pid namespace
  kSelf,      ///< fakehost itself
  kAncestor,  ///< a process above fakehost in the process tree
  kOther,     ///< anyone else: a plugin, its descendants, a stranger
};

/// Judges `info` (from an SA_SIGINFO handler; nullptr counts as the kernel's). Async-signal-safe.
SignalOrigin JudgeSignalOrigin(const siginfo_t* info);

/// True for every origin but kOther.
inline bool IsUsersSignal(SignalOrigin origin) { return origin != SignalOrigin::kOther; }

/// The parent of `pid` from /proc/<pid>/stat; -1 if it cannot be read (gone). Async-signal-safe.
long ParentOf(long pid);

}  // namespace fakehost::os
