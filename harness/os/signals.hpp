// The one table of POSIX signal names, shared by every place that reads or prints a signal: the
// profile's stop sequences, a scenario's `signal` and `expect_exit` steps, and how a plugin's end
// is described. A name read in one place is always printed the same way in another.
#pragma once

#include <string>
#include <string_view>

namespace fakehost::os {

/// The number of "TERM", "SIGTERM" or "15" (1 to 64); 0 if it names no signal.
int SignalNumber(std::string_view name);

/// "SIGTERM" for 15, "SIGWINCH" for 28; "signal 34" for a number without a name.
std::string SignalName(int signal);

}  // namespace fakehost::os
