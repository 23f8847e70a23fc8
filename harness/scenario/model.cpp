#include "harness/scenario/model.hpp"

#include "harness/scenario/load_error.hpp"

namespace fakehost::scenario {

std::string SourceLoc::ToString() const {
  if (line <= 0) return file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

const char* LevelName(Level level) {
  switch (level) {
    case Level::kMust:
      return "must";
    case Level::kShould:
      return "should";
    case Level::kMay:
      return "may";
  }
  return "must";
}

std::string LoadError::ToString() const { return loc.ToString() + ": " + message; }

}  // namespace fakehost::scenario
