// A suite's version: a digest of its files, so that a report says which scenarios it ran and
// `fakehost --version` says which suites are installed. Any change to any file below the suite
// (a scenario, a fragment) changes it; nothing else does (not mtimes, not the order in which the
// file system lists a directory).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace fakehost::run {

/// One file of a suite: its path relative to the suite root ('/'-separated) and its bytes.
struct SuiteFile {
  std::string relative_path;
  std::string bytes;
};

/// FNV-1a-64 over the files sorted by relative path, each fed as path, NUL, byte count (8 bytes
/// little-endian), bytes; the length keeps "ab"+"c" apart from "a"+"bc". The first 12 of its 16
/// hex digits. The order of `files` does not matter.
std::string DigestSuiteFiles(std::vector<SuiteFile> files);

/// What `fakehost --version` prints for one suite.
struct SuiteVersion {
  std::string digest;  ///< DigestSuiteFiles over the suite's *.yaml files (fragments too)
  int scenarios = 0;   ///< scenario files (*.yaml outside fragments/)
};

/// Reads every *.yaml file below `suite_dir` (fragments included), each capped as a scenario is.
/// False, with `error` naming the directory or file, when the suite is not a directory or a
/// file cannot be read (not a regular file, or over the cap).
bool ReadSuiteVersion(const std::string& suite_dir, SuiteVersion* version, std::string* error);

}  // namespace fakehost::run
