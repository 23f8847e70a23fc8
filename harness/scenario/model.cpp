#include "harness/scenario/model.hpp"

#include "harness/scenario/load_error.hpp"

namespace fakehost::scenario {

std::string LoadError::ToString() const { return loc.ToString() + ": " + message; }

}  // namespace fakehost::scenario
