// The two pieces of the scenario model that results and reports carry: how much a requirement
// weighs (must, should, may) and where a thing was written. Apart from model.hpp so that the
// result types (result.hpp) and the reporters need neither the model nor its loader.
#pragma once

#include <string>

namespace fakehost::result {

/// Where a thing was written: 1-based line and column.
struct SourceLoc {
  std::string file;
  int line = 0;
  int column = 0;
  std::string ToString() const;  ///< "file:line:col"
};

enum class Level { kMust, kShould, kMay };
const char* LevelName(Level level);  ///< "must", "should", "may"

}  // namespace fakehost::result
