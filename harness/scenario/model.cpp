#include "harness/scenario/model.hpp"

#include <algorithm>
#include <cctype>

#include "harness/scenario/load_error.hpp"

namespace fakehost::scenario {

std::string LoadError::ToString() const { return loc.ToString() + ": " + message; }

std::vector<result::Level> KeywordLevels(std::string_view sentence) {
  // "MUST NOT", "SHOULD NOT" and "NOT RECOMMENDED" weigh as their first or last word does, so
  // single words are enough; only upper case counts, as RFC 2119 (with RFC 8174) reads them.
  static const std::pair<std::string_view, result::Level> kWords[] = {
      {"MUST", result::Level::kMust},          {"SHALL", result::Level::kMust},
      {"REQUIRED", result::Level::kMust},      {"SHOULD", result::Level::kShould},
      {"RECOMMENDED", result::Level::kShould}, {"MAY", result::Level::kMay},
      {"OPTIONAL", result::Level::kMay}};
  std::vector<result::Level> levels;
  std::size_t i = 0;
  while (i < sentence.size()) {
    auto letter = [&](std::size_t at) {
      return std::isalnum(static_cast<unsigned char>(sentence[at])) != 0;
    };
    if (!letter(i)) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < sentence.size() && letter(end)) ++end;
    std::string_view word = sentence.substr(i, end - i);
    for (const auto& [keyword, level] : kWords)
      if (word == keyword && std::find(levels.begin(), levels.end(), level) == levels.end())
        levels.push_back(level);
    i = end;
  }
  std::sort(levels.begin(), levels.end());
  return levels;
}

const Cite* Scenario::CiteFor(std::string_view revision) const {
  for (const Cite& cite : cites)
    if (std::find(cite.revisions.begin(), cite.revisions.end(), revision) != cite.revisions.end())
      return &cite;
  return nullptr;
}

result::ScenarioResult ResultFor(const Scenario& scenario, result::Status status) {
  result::ScenarioResult r;
  r.id = scenario.id;
  r.title = scenario.title;
  r.spec = scenario.spec;
  r.requirement = scenario.requirement;
  r.level = scenario.level;
  r.tags = scenario.tags;
  r.loc = scenario.loc;
  r.steps_total = scenario.steps.size();
  r.status = status;
  return r;
}

}  // namespace fakehost::scenario
