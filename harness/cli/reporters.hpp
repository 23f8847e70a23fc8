// The files a run writes, shared by `fakehost run` and `fakehost report merge` so that a merged
// report of shards is written exactly as the unsharded run's (and judged so: run::Verdict).
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "harness/result/run_report.hpp"

namespace fakehost::report {
class Reporter;
}

namespace fakehost::cli {

/// `--report`'s help: FORMAT=PATH and every format of report::FileFormats, with what it writes.
std::string ReportHelp();

/// The file reporters of a run: OUT_DIR/report.json, each `--report FORMAT=PATH`, and the
/// transcripts when `transcripts_dir` is given. False, with the message on `err` naming the flag,
/// for a spec that is not FORMAT=PATH, an unknown format, or a destination that cannot be
/// written (report/destination.hpp): checked before anything runs.
bool MakeReporters(const std::string& out_dir, const std::vector<std::string>& specs,
                   const std::string& transcripts_dir,
                   std::vector<std::unique_ptr<report::Reporter>>* files, std::ostream& err);

/// Writes every file; false (each failure on `err`) if one could not be written.
bool WriteReports(const std::vector<std::unique_ptr<report::Reporter>>& files,
                  const result::RunReport& report, std::ostream& err);

}  // namespace fakehost::cli
