#include "harness/report/text.hpp"

#include <cstdio>

namespace fakehost::report {

std::string Duration(double ms) {
  char buf[32];
  if (ms < 1000)
    std::snprintf(buf, sizeof buf, "%.0f ms", ms);
  else
    std::snprintf(buf, sizeof buf, "%.2f s", ms / 1000);
  return buf;
}

}  // namespace fakehost::report
