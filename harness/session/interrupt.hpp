// Interruption (SIGINT, SIGTERM) as an event every session can wait on.
//
// The first signal sets a flag and makes an eventfd readable for good; every session's event
// loop watches that descriptor, so a wait in progress ends at once and the run can still write
// whatever finished. A second (and any later) signal no longer ends the process: dying there
// wrote no report and left plugins running. It asks the process layer to hurry instead
// (process::RequestHurry): every stop sequence skips ahead to SIGKILL, so teardown is as short
// as it can be while still killing the plugins, and the reports are still written. A user who
// wants the harness gone regardless has SIGQUIT or SIGKILL. Plugins run in their own process
// groups, so a Ctrl-C in the terminal reaches only the harness.
#pragma once

#include <atomic>

namespace fakehost::session {

/// Installs the handlers (once per process; later calls do nothing).
void InstallInterruptHandlers();
/// Set once an interrupting signal arrived.
const std::atomic<bool>& InterruptFlag();
/// A descriptor that becomes readable when the flag is set; -1 before installation.
int InterruptFd();

}  // namespace fakehost::session
