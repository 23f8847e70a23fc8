// The command line: `fakehost run | list | lint | init | manifest check | report merge |
// schema check | schema diff | certify [merge] | validate | fuzz | scenario from-transcript`,
// and `--version`. Each command is one file (command.hpp).
//
// Exit codes are a contract (docs/ARCHITECTURE.md): 0 no failure; 1 at least one failure (a
// should-level miss only under --strict); 2 bad input (flags, scenario, schema, plugin path),
// nothing run; 3 the harness itself failed (or was interrupted). Only main() turns them into
// an exit.
#pragma once

#include <ostream>

namespace fakehost::cli {

enum ExitCode { kOk = 0, kFailures = 1, kBadInput = 2, kHarnessError = 3 };

int Main(int argc, char** argv, std::ostream& out, std::ostream& err);

}  // namespace fakehost::cli
