// The command line: `fakehost run | list | lint | init | manifest check | report merge |
// schema check | schema diff | certify [merge] | validate | fuzz | scenario from-transcript`,
// and `--version`. Each command is one file (command.hpp).
//
// Exit codes are a contract (docs/ARCHITECTURE.md): run::ExitCode (harness/run/exit_code.hpp),
// the codes of every command. Only main() turns them into an exit.
#pragma once

#include <ostream>

#include "harness/run/exit_code.hpp"

namespace fakehost::cli {

using run::ExitCode;
using enum run::ExitCode;

int Main(int argc, char** argv, std::ostream& out, std::ostream& err);

}  // namespace fakehost::cli
