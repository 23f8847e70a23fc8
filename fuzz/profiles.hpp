// The two shipped protocol profiles, loaded once, for fuzz targets that check a plugin's own
// files against each protocol. FUZZ_SOURCE_DIR is the repository root (a compile definition).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "harness/protocol/profile.hpp"

namespace fakehost::fuzz {

inline const std::vector<std::unique_ptr<protocol::Profile>>& ShippedProfiles() {
  static const auto profiles = [] {
    std::vector<std::unique_ptr<protocol::Profile>> out;
    for (const char* name : {"rim-v1", "flash-v1"}) {
      std::string error;
      auto p = protocol::Profile::Load(
          std::string(FUZZ_SOURCE_DIR) + "/schema/" + name + "/profile.json", &error);
      if (!p) {
        std::fprintf(stderr, "fuzz: %s\n", error.c_str());
        std::abort();
      }
      out.push_back(std::move(p));
    }
    return out;
  }();
  return profiles;
}

}  // namespace fakehost::fuzz
