#include "harness/run/suite_version.hpp"
#include "harness/json/text_file.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "harness/scenario/loader.hpp"

namespace fakehost::run {
namespace fs = std::filesystem;
namespace {

constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
constexpr std::uint64_t kFnvPrime = 0x100000001b3ULL;

void Feed(std::uint64_t* h, std::string_view bytes) {
  for (unsigned char c : bytes) {
    *h ^= c;
    *h *= kFnvPrime;
  }
}

}  // namespace

std::string DigestSuiteFiles(std::vector<SuiteFile> files) {
  std::sort(files.begin(), files.end(), [](const SuiteFile& a, const SuiteFile& b) {
    return a.relative_path < b.relative_path;
  });
  std::uint64_t h = kFnvOffset;
  for (const SuiteFile& f : files) {
    Feed(&h, f.relative_path);
    Feed(&h, std::string_view("\0", 1));
    char size[8];
    std::uint64_t n = f.bytes.size();
    for (char& b : size) {
      b = static_cast<char>(n & 0xff);
      n >>= 8;
    }
    Feed(&h, std::string_view(size, sizeof size));
    Feed(&h, f.bytes);
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return std::string(hex, 12);
}

bool ReadSuiteVersion(const std::string& suite_dir, SuiteVersion* version, std::string* error) {
  std::error_code ec;
  if (!fs::is_directory(suite_dir, ec)) {
    *error = "suite " + suite_dir + " is not a directory";
    return false;
  }
  // The files the suite loads, and only those: its scenarios and its fragments (*.yaml), each
  // read as a scenario is, under the same cap (a 3 GiB file beside them is not read at all).
  std::vector<SuiteFile> files;
  fs::recursive_directory_iterator it(suite_dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".yaml") continue;
    std::error_code type_ec;
    if (it->is_directory(type_ec)) continue;
    std::string bytes;
    if (!json::ReadFileCapped(it->path().string(), json::kInputFileCap, &bytes, error))
      return false;
    files.push_back({it->path().lexically_relative(suite_dir).generic_string(), std::move(bytes)});
  }
  if (ec) {
    *error = "cannot list " + suite_dir + ": " + ec.message();
    return false;
  }
  version->digest = DigestSuiteFiles(std::move(files));
  version->scenarios = static_cast<int>(scenario::FindScenarioFiles(suite_dir).size());
  return true;
}

}  // namespace fakehost::run
