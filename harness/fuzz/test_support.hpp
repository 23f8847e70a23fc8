// The real profiles, schemas and handshake fragments of the source tree, for the fuzz layer's
// unit tests (no process is spawned).
#pragma once

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "harness/fuzz/generator.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/schema/schema.hpp"

namespace fakehost::fuzz::testing {

struct Protocol {
  std::unique_ptr<protocol::Profile> profile;
  std::unique_ptr<schema::FrameSchema> schema;
  Catalog catalog;
};

inline Protocol LoadProtocol(const std::string& name) {
  Protocol p;
  std::string root = FAKEHOST_SOURCE_DIR;
  std::string error;
  p.profile = protocol::Profile::Load(root + "/schema/" + name + "/profile.json", &error);
  EXPECT_TRUE(p.profile) << error;
  if (!p.profile) return p;
  p.schema = schema::FrameSchema::Load(p.profile->schema_path(), &error);
  EXPECT_TRUE(p.schema) << error;
  Json handshake =
      FindHandshakeFragment({root + "/scenarios/" + name + "/fragments"}, *p.profile, &error);
  EXPECT_TRUE(handshake) << error;
  EXPECT_TRUE(
      BuildCatalog(*p.profile, *p.schema, handshake, {"slow", "host_call"}, &p.catalog, &error))
      << error;
  return p;
}

}  // namespace fakehost::fuzz::testing
