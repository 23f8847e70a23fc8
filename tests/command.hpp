// Runs a command to completion for end-to-end tests: captures stdout and stderr, enforces a
// deadline (a harness that hangs is a failed test, not a hung CI job), reports the exit code.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace fakehost::testing {

struct CommandResult {
  int exit_code = -1;  ///< -1 when killed by a signal or timed out
  bool timed_out = false;
  std::string out, err;
  double ms = 0;
};

/// `interrupt_after` > 0: send SIGINT to the command that long after it started (as Ctrl-C),
/// `interrupts` times in all, `interrupt_after` apart.
CommandResult RunCommand(const std::vector<std::string>& argv, std::chrono::seconds deadline,
                         std::chrono::milliseconds interrupt_after = {}, int interrupts = 1);

/// The fakehost binary, the fixture root and the repo root, from the build.
std::string FakehostBin();
std::string FixturesDir();
std::string SourceDir();
/// Where the example plugins built from source are laid out (build/examples/<protocol>/<name>).
std::string BuiltExamplesDir();

/// A fresh temporary directory, removed by the caller (or left for inspection on failure).
std::string MakeTempDir();
std::string ReadFile(const std::string& path);

}  // namespace fakehost::testing
