// Runs a command to completion for end-to-end tests: captures stdout and stderr, enforces a
// deadline (a harness that hangs is a failed test, not a hung CI job), reports the exit code.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace fakehost::testing {

struct CommandResult {
  int exit_code = -1;  ///< -1 when killed by a signal or timed out
  bool timed_out = false;
  std::string out, err;
  double ms = 0;
  double interrupted_at_ms = -1;  ///< when the first SIGINT went, since the start (-1: none)
};

/// SIGINTs for the command, as Ctrl-C sends them, each when the command is ready for it rather
/// than after a guessed time.
struct Interrupts {
  /// The first goes once this holds (asked while the command runs, every few milliseconds): a
  /// sign that the command has its handlers, such as a plugin it spawned running (fakehost
  /// installs its handlers before it spawns anything).
  std::function<bool()> ready;
  /// SIGINTs in all. Each after the first goes once the one before it has been taken (it is no
  /// longer pending for the process), so that no two merge into one.
  int count = 1;
};

/// `interrupts.ready` set: interrupts the command as it says.
CommandResult RunCommand(const std::vector<std::string>& argv, std::chrono::seconds deadline,
                         const Interrupts& interrupts = {});

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
