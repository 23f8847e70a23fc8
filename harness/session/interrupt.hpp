// Interruption (SIGINT, SIGTERM) as an event every session can wait on.
//
// The first signal sets a flag and makes an eventfd readable for good; every session's event
// loop watches that descriptor, so a wait in progress ends at once and the run can still write
// whatever finished. A second signal ends the process the ordinary way. Plugins run in their
// own process groups, so a Ctrl-C in the terminal reaches only the harness.
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
