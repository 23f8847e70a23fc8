#include "harness/report/text.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

namespace fakehost::report {

std::string Duration(double ms) {
  char buf[32];
  if (ms < 1000)
    std::snprintf(buf, sizeof buf, "%.0f ms", ms);
  else
    std::snprintf(buf, sizeof buf, "%.2f s", ms / 1000);
  return buf;
}

std::string JudgedUnder(const std::vector<result::ScenarioResult>& results) {
  std::map<std::string, std::size_t> counts;
  for (const auto& r : results) {
    if (result::WasJudged(r.status) && !r.revision.empty()) ++counts[r.revision];
  }
  std::vector<std::pair<std::string, std::size_t>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out;
  for (const auto& [revision, count] : sorted)
    out += (out.empty() ? "revision " : ", revision ") + revision + " (" + std::to_string(count) +
           (count == 1 ? " scenario)" : " scenarios)");
  return out;
}

}  // namespace fakehost::report
