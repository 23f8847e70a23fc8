#include <cstdlib>
#include <iostream>

#include "harness/report/reporter.hpp"

namespace fakehost::report {

std::unique_ptr<Reporter> MakeFileReporter(const std::string& format, const std::string& path,
                                           std::string* error) {
  if (format == "json") return MakeJsonReporter(path);
  if (format == "junit") return MakeJUnitReporter(path);
  if (format == "html") return MakeHtmlReporter(path);
  if (format == "markdown" || format == "md") {
    // GitHub Actions sets GITHUB_ACTIONS=true in every step; the annotations go to the job log.
    const char* gha = std::getenv("GITHUB_ACTIONS");
    return MakeMarkdownReporter(path, gha && *gha ? &std::cout : nullptr);
  }
  *error = "unknown report format '" + format + "' (known: json, junit, markdown, html)";
  return nullptr;
}

}  // namespace fakehost::report
