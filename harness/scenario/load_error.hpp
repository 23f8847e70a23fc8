// A problem found while loading a scenario file: bad input to the harness, reported with the
// place it was written so an author can jump to it ("file:line:col: message").
#pragma once

#include <string>

#include "harness/scenario/model.hpp"

namespace fakehost::scenario {

struct LoadError {
  result::SourceLoc loc;  ///< line 0: the file as a whole (e.g. it cannot be read)
  std::string message;
  std::string ToString() const;  ///< "file:line:col: message" (or "file: message")
};

}  // namespace fakehost::scenario
