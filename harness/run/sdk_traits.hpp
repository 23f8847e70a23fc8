// Known SDK behaviours that fail a scenario by default (the file sdk-traits.json beside a
// profile: schema/mcp-stdio/sdk-traits.json says what each holds and how it was read).
//
// A plugin built on an SDK is found by its installed package: the first
// node_modules/<package>/package.json in the plugin's directory or the one it runs in, or a
// directory above. A failed scenario of a trait whose SDK is installed at a version in the
// trait's range gets the trait in its first failure's message: what the SDK does and what the
// author can do. The verdict stays as it is.
#pragma once

#include <string>
#include <vector>

#include "harness/result/result.hpp"

namespace fakehost::run {

struct SdkTrait {
  std::vector<std::string> scenarios;
  std::string sdk, package;  ///< the SDK's name, and its npm package
  std::string first, last;   ///< the versions read, inclusive
  std::string does, author_can;
};

/// An SDK found installed for a plugin.
struct InstalledSdk {
  std::string sdk, version, where;  ///< where: the package.json read
};

/// The traits in `<profile_dir>/sdk-traits.json`; none when there is no such file. False with
/// `*error` (naming the file) when it exists but is not as described.
bool LoadSdkTraits(const std::string& profile_dir, std::vector<SdkTrait>* out, std::string* error);

/// The SDKs of `traits` installed in or above each of `dirs` (first found per SDK).
std::vector<InstalledSdk> FindInstalledSdks(const std::vector<SdkTrait>& traits,
                                            const std::vector<std::string>& dirs);

/// Adds the matching trait to a failed or warned result's first failure.
void ShowSdkTrait(const std::vector<SdkTrait>& traits, const std::vector<InstalledSdk>& installed,
                  result::ScenarioResult* r);

/// "1.24.3" within ["1.17.0", "1.32.2"], compared number by number.
bool VersionWithin(const std::string& version, const std::string& first, const std::string& last);

}  // namespace fakehost::run
