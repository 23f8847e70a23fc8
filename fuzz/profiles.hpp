// Every shipped protocol's profile (protocol/registry.hpp), loaded once, for fuzz targets that
// check a plugin's own files against each protocol. FUZZ_SOURCE_DIR is the repository root (a
// compile definition).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "harness/protocol/profile.hpp"
#include "harness/protocol/registry.hpp"
#include "harness/schema/schema.hpp"

namespace fakehost::fuzz {

inline const std::vector<std::unique_ptr<protocol::Profile>>& ShippedProfiles() {
  static const auto profiles = [] {
    std::vector<std::unique_ptr<protocol::Profile>> out;
    for (const std::string& name : protocol::ProtocolNames(FUZZ_SOURCE_DIR)) {
      std::string error;
      auto p = protocol::Profile::Load(protocol::ProfilePath(FUZZ_SOURCE_DIR, name), &error);
      if (!p) {
        std::fprintf(stderr, "fuzz: %s\n", error.c_str());
        std::abort();
      }
      out.push_back(std::move(p));
    }
    if (out.empty()) {
      std::fprintf(stderr, "fuzz: no schema/<protocol>/profile.json in %s\n", FUZZ_SOURCE_DIR);
      std::abort();
    }
    return out;
  }();
  return profiles;
}

/// The frame schema of each of ShippedProfiles(), in the same order.
inline const std::vector<std::unique_ptr<schema::FrameSchema>>& ShippedFrameSchemas() {
  static const auto schemas = [] {
    std::vector<std::unique_ptr<schema::FrameSchema>> out;
    for (const auto& profile : ShippedProfiles()) {
      std::string error;
      auto s = schema::FrameSchema::Load(profile->schema_path(), &error);
      if (!s) {
        std::fprintf(stderr, "fuzz: %s\n", error.c_str());
        std::abort();
      }
      out.push_back(std::move(s));
    }
    return out;
  }();
  return schemas;
}

}  // namespace fakehost::fuzz
