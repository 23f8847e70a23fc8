// The flags `run` and `certify` share, declared once: which protocol, which scenarios, how many
// at a time, under which limits and revision, and where the reports go. Each command names what
// differs in its words (PlayFlagWords); the names, members and checks are one table
// (play_flags.cpp).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace fakehost::cli {

struct PlayFlags {
  std::string protocol;              ///< --protocol NAME|PATH
  std::vector<std::string> only;     ///< --only GLOB (repeatable)
  std::vector<std::string> skip;     ///< --skip GLOB (repeatable)
  int jobs = 0;                      ///< --jobs N (0: the machine's)
  std::vector<std::string> reports;  ///< --report FORMAT[=PATH] (repeatable)
  std::string out_dir;               ///< --out DIR
  std::string shard;                 ///< --shard K/N
  std::string timeout;               ///< --timeout DURATION: the hard limit per scenario
  bool strict = false;               ///< --strict: should-level misses fail
  std::string revision;              ///< --revision R
};

/// What a command says of the shared flags: the words that differ between run and certify.
struct PlayFlagWords {
  std::string protocol_default;  ///< "detected from --plugin"
  std::string jobs_over;         ///< JobsHelp's "scenarios"
  std::string report_help;       ///< ReportHelp() or MatrixReportHelp()
  std::string out_file;          ///< what --out holds: "report.json"
  std::string out_default;       ///< the default --out
  std::string shard_help;        ///< what one shard is
  std::string revision_help;     ///< what --revision R does
};

/// Declares every PlayFlags member on `app`, bound to `flags`, and sets its default out_dir.
void AddPlayFlags(CLI::App* app, PlayFlags* flags, const PlayFlagWords& words);

}  // namespace fakehost::cli
