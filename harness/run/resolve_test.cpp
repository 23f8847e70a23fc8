// Resolving a plugin directory: a Flash manifest without exec is a manifest-only plugin, which
// its host loads and never spawns. It resolves (not bad input) with nothing to spawn, and every
// scenario played against it is not applicable, with the reason, before anything is spawned.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/run/runner.hpp"

namespace fakehost::run {
namespace {

namespace fs = std::filesystem;

std::unique_ptr<protocol::Profile> Flash() {
  std::string error;
  auto profile =
      protocol::Profile::Load(FAKEHOST_SOURCE_DIR "/schema/flash-v1/profile.json", &error);
  EXPECT_TRUE(profile) << error;
  return profile;
}

// One step that would spawn the plugin if it were played.
scenario::Scenario Spawning() {
  scenario::Scenario s;
  s.id = "liveness/ping";
  s.level = result::Level::kMust;
  return s;
}

TEST(ResolvePlugin, AManifestOnlyFlashPluginResolvesWithNothingToSpawn) {
  auto profile = Flash();
  interpreter::PluginTarget target;
  std::string error;
  ASSERT_TRUE(ResolvePlugin(
      *profile, {FAKEHOST_SOURCE_DIR "/fixtures/flash-v1/manifest-only", {}, {}, {}, {}}, &target,
      &error))
      << error;
  EXPECT_EQ(target.never_spawned,
            "the host never spawns a manifest-only plugin (manifest.json has no exec)");
  EXPECT_TRUE(target.spawn.argv.empty());
  EXPECT_EQ(target.id, "dev.fakehost.window-keys");
}

TEST(ResolvePlugin, APluginWithExecIsSpawned) {
  auto profile = Flash();
  interpreter::PluginTarget target;
  std::string error;
  ASSERT_TRUE(ResolvePlugin(*profile,
                            {FAKEHOST_SOURCE_DIR "/fixtures/flash-v1/reference", {}, {}, {}, {}},
                            &target, &error))
      << error;
  EXPECT_EQ(target.never_spawned, "");
  ASSERT_EQ(target.spawn.argv.size(), 1u);
}

TEST(PlayScenario, NoScenarioAppliesToAPluginItsHostNeverSpawns) {
  auto profile = Flash();
  interpreter::PluginTarget target;
  target.never_spawned = "the host never spawns a manifest-only plugin (manifest.json has no exec)";
  // A spawn would fail (no argv) and make the scenario an error: the result says it never ran.
  result::ScenarioResult r = PlayScenario(Spawning(), *profile, nullptr, target, {});
  EXPECT_EQ(r.status, result::Status::kSkip);
  EXPECT_EQ(r.skip_reason, target.never_spawned);
  EXPECT_EQ(r.steps_run, 0u);
  EXPECT_TRUE(r.failures.empty());
}

}  // namespace
}  // namespace fakehost::run
