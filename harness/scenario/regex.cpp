#include "harness/scenario/regex.hpp"

#include <map>
#include <optional>
#include <stdexcept>

#include <boost/regex.hpp>

namespace fakehost::scenario {
namespace {

// Patterns come from scenario files, so the cache stays small; the cap only guards against
// substituted patterns that differ per item.
constexpr std::size_t kMaxCached = 512;

const boost::regex* Compiled(std::string_view pattern) {
  thread_local std::map<std::string, std::optional<boost::regex>, std::less<>> cache;
  auto it = cache.find(pattern);
  if (it == cache.end()) {
    if (cache.size() >= kMaxCached) cache.clear();
    std::optional<boost::regex> re;
    try {
      re.emplace(pattern.begin(), pattern.end(), boost::regex::ECMAScript);
    } catch (const std::exception&) {
      // Kept as "invalid" so the next lookup does not compile it again.
    }
    it = cache.emplace(std::string(pattern), std::move(re)).first;
  }
  return it->second ? &*it->second : nullptr;
}

}  // namespace

RegexResult RegexSearch(std::string_view pattern, std::string_view subject) {
  const boost::regex* re = Compiled(pattern);
  if (re == nullptr) return RegexResult::kError;
  // Reused so that a search allocates nothing once the vector has grown.
  thread_local boost::match_results<std::string_view::const_iterator> match;
  try {
    return boost::regex_search(subject.begin(), subject.end(), match, *re) ? RegexResult::kMatch
                                                                           : RegexResult::kNoMatch;
  } catch (const std::exception&) {
    return RegexResult::kError;
  }
}

bool CheckRegex(std::string_view pattern, std::string* error) {
  try {
    boost::regex re(pattern.begin(), pattern.end(), boost::regex::ECMAScript);
    return true;
  } catch (const std::exception& e) {
    *error = e.what();
    return false;
  }
}

}  // namespace fakehost::scenario
