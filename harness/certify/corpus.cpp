#include "harness/certify/corpus.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <set>

#include "harness/json/text_file.hpp"

namespace fakehost::certify {
namespace {

namespace fs = std::filesystem;

std::string Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return std::string(s);
}

std::string Absolute(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  return (ec ? fs::path(path) : p).lexically_normal().string();
}

// A directory argument: the plugin itself, or the plugins one level below it.
bool AddDirectory(const std::string& dir, const std::string& marker_file,
                  std::vector<std::string>* dirs, std::vector<std::string>* errors) {
  std::error_code ec;
  if (fs::exists(fs::path(dir) / marker_file, ec)) {
    dirs->push_back(Absolute(dir));
    return true;
  }
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.is_directory(ec) && fs::exists(entry.path() / marker_file, ec))
      found.push_back(Absolute(entry.path().string()));
  if (found.empty()) {
    errors->push_back(dir + ": neither a plugin directory (no " + marker_file +
                      ") nor a directory of plugin directories");
    return false;
  }
  dirs->insert(dirs->end(), found.begin(), found.end());
  return true;
}

}  // namespace

std::vector<std::string> ParseCorpusList(std::string_view text, const std::string& base_dir) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string line = Trim(text.substr(start, end - start));
    start = end + 1;
    if (line.empty() || line[0] == '#') continue;
    out.push_back(line[0] == '/' ? line : (fs::path(base_dir) / line).string());
  }
  return out;
}

bool ReadCorpus(const std::vector<std::string>& args, const std::string& marker_file,
                std::vector<std::string>* dirs, std::vector<std::string>* errors) {
  std::size_t errors_before = errors->size();
  std::vector<std::string> all;
  for (const std::string& arg : args) {
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      AddDirectory(arg, marker_file, &all, errors);
      continue;
    }
    if (!fs::is_regular_file(arg, ec)) {
      errors->push_back(arg + ": no such plugin directory or corpus list");
      continue;
    }
    std::string text, error;
    if (!json::ReadFileCapped(arg, json::kInputFileCap, &text, &error)) {
      errors->push_back(error);
      continue;
    }
    std::string base = fs::path(Absolute(arg)).parent_path().string();
    // Line numbers for messages: walk the text again alongside the parsed paths.
    int line_no = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      ++line_no;
      std::vector<std::string> one =
          ParseCorpusList(std::string_view(text).substr(start, end - start), base);
      start = end + 1;
      if (one.empty()) continue;
      if (!fs::is_directory(one[0], ec)) {
        errors->push_back(arg + ":" + std::to_string(line_no) + ":1: " + one[0] +
                          " is not a directory");
        continue;
      }
      all.push_back(Absolute(one[0]));
    }
  }
  std::set<std::string> unique(all.begin(), all.end());
  dirs->assign(unique.begin(), unique.end());
  if (dirs->empty() && errors->size() == errors_before)
    errors->push_back("the corpus names no plugin");
  return errors->size() == errors_before;
}

bool ParseShard(std::string_view text, int* k, int* n, std::string* error) {
  auto slash = text.find('/');
  auto number = [](std::string_view s, int* v) {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
    return ec == std::errc() && p == s.data() + s.size();
  };
  if (slash == std::string_view::npos || !number(text.substr(0, slash), k) ||
      !number(text.substr(slash + 1), n) || *n < 1 || *k < 1 || *k > *n) {
    *error = "--shard takes K/N with 1 <= K <= N, got '" + std::string(text) + "'";
    return false;
  }
  return true;
}

std::vector<std::string> Shard(const std::vector<std::string>& dirs, int k, int n) {
  std::vector<std::string> sorted = dirs;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::string> out;
  for (std::size_t i = static_cast<std::size_t>(k - 1); i < sorted.size();
       i += static_cast<std::size_t>(n))
    out.push_back(sorted[i]);
  return out;
}

}  // namespace fakehost::certify
