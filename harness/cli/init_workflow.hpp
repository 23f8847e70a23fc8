// The GitHub workflow `fakehost init` writes: on every push and pull request it installs fakehost
// (the static binary, from npm or PyPI, or from the release files at a URL), sets up the
// plugin's runtime and dependencies where init knows them (a Node or Python MCP server), copies
// the composite action that came with fakehost into the workspace (GitHub runs a local action
// only from there) and runs it on the standard suite and the plugin's own scenarios, with the
// known failures of its baseline file when it has one; then uploads the reports.
//
// Where fakehost comes from is one value, the CMake cache variable FAKEHOST_DIST (`init --dist`
// overrides it): `registry` (npm's and PyPI's package `fakehost`), or a URL or absolute
// directory holding the release's files under their own names (fakehost-VERSION.tgz and the
// wheel), where `{version}` stands for fakehost's version.
#pragma once

#include <string>
#include <string_view>

#include "harness/cli/init_project.hpp"

namespace fakehost::cli {

/// The default of FAKEHOST_DIST: the package registries.
inline constexpr const char* kRegistryDist = "registry";

/// What the workflow is for.
struct WorkflowSpec {
  std::string protocol;  ///< the profile's name
  std::string plugin;    ///< the plugin directory from the repository root ("." or "plugins/x")
  /// The server's runtime and dependencies (a protocol without a manifest); null for a plugin
  /// with a manifest, whose runtime init does not know.
  const ServerProject* server = nullptr;
  std::string dist = kRegistryDist;  ///< FAKEHOST_DIST
  std::string version;               ///< fakehost's version
};

/// The workflow's text. The paths in it are checked first (UnwritablePath, UnwritableDist).
std::string GithubWorkflow(const WorkflowSpec& spec);

/// Where the plugin's own scenarios and its baseline live, below its directory.
inline constexpr const char* kOwnScenarios = "fakehost/scenarios";
inline constexpr const char* kBaseline = "fakehost/expected-failures.yaml";

/// Why `path` (the plugin directory) cannot go into the workflow, or "": a control character (a
/// line break would start a line of the workflow, and no log shows the others), bytes that are
/// not UTF-8 (YAML is text), or "${{", which GitHub evaluates in a step's inputs (a directory
/// named for a secret would pass the secret's value).
std::string UnwritablePath(std::string_view path);

/// Why `dist` cannot be written into the workflow's install step, or "": it is written inside a
/// double-quoted shell word, so whitespace, quotes, '$', '`' and '\\' are refused.
std::string UnwritableDist(std::string_view dist);

/// `s` as a YAML double-quoted scalar: reads back as itself whatever it holds (": ", "#",
/// quotes, a leading "-" or "*"), once control characters are refused.
std::string DoubleQuoted(std::string_view s);

}  // namespace fakehost::cli
