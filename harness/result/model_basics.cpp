#include "harness/result/model_basics.hpp"

namespace fakehost::result {

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

}  // namespace fakehost::result
