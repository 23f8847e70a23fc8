// Reporters turn results into output. The console reporter streams (a line per scenario as it
// finishes, details at the end); file reporters are cumulative and write once the run is over.
// Several run at once; each sees only result structs.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "harness/run/run_report.hpp"

namespace fakehost::report {

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void RunStarting(const run::RunReport& report) { (void)report; }
  virtual void ScenarioEnded(const scenario::ScenarioResult& result) { (void)result; }
  /// Writes the report. False with a message if it could not be written.
  virtual bool RunEnded(const run::RunReport& report, std::string* error) = 0;
};

struct ConsoleOptions {
  bool color = false;
  std::size_t frames_shown = 6;  ///< frames quoted around a failure
};
std::unique_ptr<Reporter> MakeConsoleReporter(std::ostream& out, ConsoleOptions options);

/// The JSON report (schema/report.schema.json) written to `path`.
std::unique_ptr<Reporter> MakeJsonReporter(std::string path);
/// The JSON report as text (for tests and for writers that want it in memory).
std::string JsonReport(const run::RunReport& report);

/// Writes `content` to `path`, creating parent directories, via a temporary file and rename so
/// a reader never sees half a report.
bool WriteFileAtomically(const std::string& path, const std::string& content, std::string* error);

}  // namespace fakehost::report
