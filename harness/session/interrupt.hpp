// Interruption (SIGINT, SIGTERM) as an event every session can wait on.
//
// The first signal sets a flag and makes an eventfd readable for good; every session's event
// loop watches that descriptor, so a wait in progress ends at once and the run can still write
// whatever finished. A second (and any later) signal no longer ends the process: dying there
// wrote no report and left plugins running. It asks the process layer to hurry instead
// (process::RequestHurry): every stop sequence skips ahead to SIGKILL, so teardown is as short
// as it can be while still killing the plugins, and the reports are still written. A user who
// wants the harness gone regardless has SIGQUIT or SIGKILL. Plugins run in sessions of their
// own, without a controlling terminal, so a Ctrl-C in the terminal reaches only the harness and
// no plugin can take the terminal from it.
//
// Only the user's signals count (os::JudgeSignalOrigin: the terminal, the kernel, fakehost's
// parent or a process above it). A plugin can still kill(getppid(), SIGINT): that signal, or one
// from any process that is not above fakehost, is counted and otherwise ignored, and the run
// says so at the end (IgnoredSignalsNote).
#pragma once

#include <atomic>
#include <string>

namespace fakehost::session {

/// Installs the handlers (once per process; later calls do nothing).
void InstallInterruptHandlers();
/// Set once an interrupting signal arrived.
const std::atomic<bool>& InterruptFlag();
/// A descriptor that becomes readable when the flag is set; -1 before installation.
int InterruptFd();
/// "" if every interrupting signal was the user's; else one line (no "fakehost: " prefix)
/// saying how many were ignored and who sent the last.
std::string IgnoredSignalsNote();

}  // namespace fakehost::session
