#include <cstdlib>
#include <iostream>

#include "harness/report/reporter.hpp"

namespace fakehost::report {
namespace {

// GitHub Actions sets GITHUB_ACTIONS=true in every step; the annotations go to the job log.
std::unique_ptr<Reporter> MakeMarkdownForCi(std::string path) {
  const char* gha = std::getenv("GITHUB_ACTIONS");
  return MakeMarkdownReporter(std::move(path), gha && *gha ? &std::cout : nullptr);
}

}  // namespace

const std::vector<FileFormat>& FileFormats() {
  static const std::vector<FileFormat> formats = {
      {"json", "", "the JSON report", MakeJsonReporter},
      {"junit", "", "JUnit XML", MakeJUnitReporter},
      {"markdown", "md", "a summary for a CI job", MakeMarkdownForCi},
      {"html", "", "one self-contained page", MakeHtmlReporter},
  };
  return formats;
}

std::string FileFormatNames() {
  std::string names;
  for (const FileFormat& f : FileFormats())
    names += (names.empty() ? "" : ", ") + std::string(f.name);
  return names;
}

std::unique_ptr<Reporter> MakeFileReporter(const std::string& format, const std::string& path,
                                           std::string* error) {
  for (const FileFormat& f : FileFormats())
    if (format == f.name || (!f.alias.empty() && format == f.alias)) return f.make(path);
  *error = "unknown report format '" + format + "' (known: " + FileFormatNames() + ")";
  return nullptr;
}

}  // namespace fakehost::report
