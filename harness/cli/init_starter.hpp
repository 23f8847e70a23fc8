// The starter files `fakehost init` writes beside a plugin, from its protocol's profile: a
// fakehost.yaml and an example scenario of the plugin's own.
//
// Commented-out YAML is written as `#` directly followed by the line (`#env:`, `#  slow:`), so
// deleting that one `#` makes it live; prose comments are `# ` followed by text.
#pragma once

#include <string>

#include "harness/cli/init_project.hpp"
#include "harness/protocol/profile.hpp"

namespace fakehost::cli {

/// fakehost.yaml: the protocol; for a plugin without a manifest its `command:` (and the `env:` it
/// needs) from `server`; commented out: env, config where the host passes one, the host's
/// stand-in answers, `tools:` where the triggers call tools, and every trigger the profile names
/// with its own example. `server` is null for a plugin with a manifest.
std::string FakehostYaml(const protocol::Profile& profile, const ServerProject* server);

/// An example scenario that `use:`s the handshake fragment and checks that the plugin stops when
/// asked, with a request of the plugin's own shown commented out.
std::string ExampleScenario(const protocol::Profile& profile, const std::string& fragment);

/// The standard suite's fragment that sends the profile's handshake request (what `use:` names),
/// or "" when there is none.
std::string HandshakeFragment(const std::string& data_dir, const protocol::Profile& profile);

}  // namespace fakehost::cli
