#include "harness/cli/reporters.hpp"

#include "harness/report/reporter.hpp"

namespace fakehost::cli {

std::string ReportHelp() {
  std::string help = "FORMAT=PATH, repeatable:";
  for (const report::FileFormat& f : report::FileFormats())
    help += std::string(&f == &report::FileFormats().front() ? " " : ", ") + std::string(f.name) +
            " (" + std::string(f.writes) + ")";
  return help;
}

bool MakeReporters(const std::string& out_dir, const std::vector<std::string>& specs,
                   const std::string& transcripts_dir,
                   std::vector<std::unique_ptr<report::Reporter>>* files, std::ostream& err) {
  std::string error;
  if (!report::CheckDestinationDir(out_dir, &error) ||
      !report::CheckDestination(out_dir + "/report.json", &error)) {
    err << "fakehost: --out " << out_dir << ": " << error << "\n";
    return false;
  }
  files->push_back(report::MakeJsonReporter(out_dir + "/report.json"));
  for (const auto& spec : specs) {
    auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
      err << "fakehost: --report takes FORMAT=PATH, got '" << spec << "'\n";
      return false;
    }
    auto reporter = report::MakeFileReporter(spec.substr(0, eq), spec.substr(eq + 1), &error);
    if (!reporter || !report::CheckDestination(spec.substr(eq + 1), &error)) {
      err << "fakehost: --report " << spec << ": " << error << "\n";
      return false;
    }
    files->push_back(std::move(reporter));
  }
  if (!transcripts_dir.empty()) {
    if (!report::CheckDestinationDir(transcripts_dir, &error)) {
      err << "fakehost: --transcripts " << transcripts_dir << ": " << error << "\n";
      return false;
    }
    files->push_back(report::MakeTranscriptsReporter(transcripts_dir));
  }
  return true;
}

bool WriteReports(const std::vector<std::unique_ptr<report::Reporter>>& files,
                  const result::RunReport& report, std::ostream& err) {
  bool written = true;
  for (const auto& r : files) {
    std::string error;
    if (!r->RunEnded(report, &error)) {
      err << "fakehost: " << error << "\n";
      written = false;
    }
  }
  return written;
}

}  // namespace fakehost::cli
