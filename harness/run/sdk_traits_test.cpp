#include "harness/run/sdk_traits.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace fakehost::run {
namespace {

namespace fs = std::filesystem;

TEST(SdkTraits, VersionsCompareNumberByNumber) {
  EXPECT_TRUE(VersionWithin("1.24.3", "1.17.0", "1.32.2"));
  EXPECT_TRUE(VersionWithin("1.17.0", "1.17.0", "1.32.2"));
  EXPECT_TRUE(VersionWithin("1.32.2", "1.17.0", "1.32.2"));
  EXPECT_FALSE(VersionWithin("1.9.0", "1.17.0", "1.32.2"));  // not as text: 9 < 17
  EXPECT_FALSE(VersionWithin("1.33.0", "1.17.0", "1.32.2"));
  EXPECT_TRUE(VersionWithin("1.20.0-beta.1", "1.17.0", "1.32.2"));
  EXPECT_FALSE(VersionWithin("", "1.17.0", "1.32.2"));
  EXPECT_FALSE(VersionWithin("x", "1.17.0", "1.32.2"));
}

// Every trait of the shipped file names a scenario of the suite.
TEST(SdkTraits, TheShippedTraitsNameScenariosOfTheSuite) {
  std::vector<SdkTrait> traits;
  std::string error;
  ASSERT_TRUE(LoadSdkTraits(FAKEHOST_SOURCE_DIR "/schema/mcp-stdio", &traits, &error)) << error;
  ASSERT_FALSE(traits.empty());
  for (const SdkTrait& t : traits)
    for (const std::string& id : t.scenarios)
      EXPECT_TRUE(fs::exists(FAKEHOST_SOURCE_DIR "/scenarios/mcp-stdio/" + id + ".yaml")) << id;
  // A profile without the file has no traits.
  traits.clear();
  EXPECT_TRUE(LoadSdkTraits(FAKEHOST_SOURCE_DIR "/schema/rim-v1", &traits, &error));
  EXPECT_TRUE(traits.empty());
}

TEST(SdkTraits, AFailureOfAnInstalledSdkInRangeShowsTheTraitAndNothingElseDoes) {
  fs::path root = fs::temp_directory_path() / ("sdk-traits-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "node_modules/@x/sdk");
  fs::create_directories(root / "server/src");
  std::ofstream(root / "node_modules/@x/sdk/package.json")
      << R"({"name": "@x/sdk", "version": "1.5.0"})";
  SdkTrait t{{"tools/a"}, "x", "@x/sdk", "1.0.0", "1.9.9", "it does a thing", "override it"};
  std::vector<InstalledSdk> found = FindInstalledSdks({t}, {(root / "server/src").string()});
  ASSERT_EQ(found.size(), 1u);  // found two directories up
  EXPECT_EQ(found[0].version, "1.5.0");

  result::ScenarioResult r;
  r.id = "tools/a";
  r.status = result::Status::kWarn;
  r.failures.push_back({});
  r.failures[0].message = "m";
  ShowSdkTrait({t}, found, &r);
  EXPECT_EQ(r.failures[0].message,
            "m [known trait of x 1.5.0, which this server uses: it does a thing. What you can do: "
            "override it]");
  result::ScenarioResult other = r;
  other.id = "tools/b";
  other.failures[0].message = "m";
  ShowSdkTrait({t}, found, &other);
  EXPECT_EQ(other.failures[0].message, "m");
  SdkTrait old = t;
  old.last = "1.4.0";  // a version nobody read shows nothing
  other.id = "tools/a";
  ShowSdkTrait({old}, found, &other);
  EXPECT_EQ(other.failures[0].message, "m");
  other.status = result::Status::kPass;
  ShowSdkTrait({t}, found, &other);
  EXPECT_EQ(other.failures[0].message, "m");
  fs::remove_all(root);
}

}  // namespace
}  // namespace fakehost::run
