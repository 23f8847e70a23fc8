#include "harness/session/transcript.hpp"

namespace fakehost::session {

const char* DirectionArrow(Direction d) {
  return d == Direction::kHostToPlugin ? "host → plugin" : "plugin → host";
}

}  // namespace fakehost::session
