// The exit codes of every command: a contract (docs/ARCHITECTURE.md, "Exit codes"). A run decides
// its own (run::Execute, run::Verdict); commands return them and only main() exits.
//
// 0 no failure; 1 at least one failure (a should-level miss only under --strict); 2 bad input
// (flags, scenario, schema, plugin path), nothing run; 3 the harness itself failed (or was
// interrupted).
#pragma once

namespace fakehost::run {

enum ExitCode { kOk = 0, kFailures = 1, kBadInput = 2, kHarnessError = 3 };

}  // namespace fakehost::run
