// `fakehost manifest check DIR [--protocol P]`, and choosing a protocol from a plugin directory.
//
// Kept out of cli.cpp so that the front end stays one screenful of flag wiring per command.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "harness/plugin/manifest.hpp"

namespace fakehost::cli {

/// Every protocol with a profile under `<data_dir>/schema/`, with its manifest file name.
std::vector<plugin::KnownProtocol> KnownProtocols(const std::string& data_dir);

/// "unknown protocol 'rim-v2' (known: flash-v1, rim-v1)", for a protocol with no profile.
std::string UnknownProtocol(const std::string& data_dir, const std::string& name);

/// The protocol whose manifest `plugin_dir` holds, else the `protocol:` of its fakehost.yaml (a
/// plugin without a manifest). "" with `*error` when neither tells.
std::string DetectPluginProtocol(const std::string& plugin_dir,
                                 const std::vector<plugin::KnownProtocol>& known,
                                 std::string* error);

/// Leaves a given --protocol alone; otherwise sets it to the protocol whose manifest
/// `plugin_dir` holds, else to the `protocol:` of its fakehost.yaml (a plugin without a
/// manifest), or, with no directory, of `config` (a --config file, or ./fakehost.yaml read for a
/// command after --). False, with a message on `err`, when that cannot be told.
bool PickProtocol(const std::string& data_dir, std::string* protocol, const std::string& plugin_dir,
                  std::ostream& err, const std::string& config = {});

/// Prints every problem as "<file>:<line>:<col>: <message>  [<rule>]" and a verdict line.
/// Returns 0 when the host would load the plugin, 1 when it would refuse it, 2 when there is
/// no manifest, it cannot be read, or the protocol is unknown or cannot be detected.
int ManifestCheckCommand(const std::string& data_dir, const std::string& dir, std::string protocol,
                         std::ostream& out, std::ostream& err);

}  // namespace fakehost::cli
