// Helpers for the manifest checker's tests: the protocols' real profiles, one-line manifests.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "harness/plugin/manifest.hpp"
#include "harness/protocol/profile.hpp"

namespace fakehost::plugin::testing {

inline std::unique_ptr<protocol::Profile> LoadRealProfile(const std::string& name) {
  std::string error;
  auto p = protocol::Profile::Load(
      std::string(FAKEHOST_SOURCE) + "/schema/" + name + "/profile.json", &error);
  EXPECT_NE(p, nullptr) << error;
  return p;
}

inline std::string Describe(const ManifestCheck& c) {
  std::string out = c.error;
  for (const auto& p : c.problems)
    out += "\n  " + p.rule + " " + std::to_string(p.line) + ":" + std::to_string(p.column) + " " +
           p.message;
  return out;
}

/// Exactly one problem: `rule`, `message`, on line 1 at the first byte of `needle` in `text`
/// (or at line:column `line`/`column` when needle is empty).
inline ::testing::AssertionResult Refuses(const protocol::Profile& profile, const std::string& text,
                                          const std::string& rule, const std::string& message,
                                          const std::string& needle,
                                          const std::string& dir = "/nonexistent-plugin-dir") {
  ManifestCheck c = CheckManifestText(profile, text, "test", dir);
  if (!c.readable) return ::testing::AssertionFailure() << "unreadable: " << c.error;
  if (c.loads || c.problems.size() != 1)
    return ::testing::AssertionFailure() << "expected one problem, got" << Describe(c);
  const ManifestProblem& p = c.problems[0];
  const int column = static_cast<int>(text.find(needle)) + 1;
  if (p.rule != rule || p.message != message || p.line != 1 || p.column != column)
    return ::testing::AssertionFailure()
           << "expected " << rule << " 1:" << column << " " << message << ", got" << Describe(c);
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult Loads(const protocol::Profile& profile, const std::string& text,
                                        const std::string& dir = "/nonexistent-plugin-dir") {
  ManifestCheck c = CheckManifestText(profile, text, "test", dir);
  if (c.readable && c.loads) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "refused:" << Describe(c);
}

}  // namespace fakehost::plugin::testing
