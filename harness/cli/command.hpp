// What every subcommand shares: where the data lives, and how a command file wires itself in.
//
// Each command lives in its own file, which adds its flags to the CLI::App it is given and
// registers the action to run when it was the one parsed. cli.cpp only parses and dispatches, so
// a new command is one file and one line there.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace fakehost::protocol {
class Profile;
}
namespace fakehost::schema {
class FrameSchema;
}

namespace fakehost::cli {

/// What a command's action may use.
struct Context {
  std::string data_dir;  ///< profiles under schema/, suites under scenarios/
  std::ostream& out;
  std::ostream& err;
};

/// A parsed (sub)command and what to do when it was given. `app` is the innermost App
/// (`schema check`, not `schema`).
struct Command {
  CLI::App* app;
  std::function<int(const Context&)> action;
};
using Commands = std::vector<Command>;

/// Where profiles, schemas and suites live: $FAKEHOST_HOME, else ../share/fakehost beside the
/// binary, else the source tree it was built from (data_dir.hpp).
std::string DataDir();

/// The protocols of DataDir() for a help text, from the data directory itself
/// (protocol/registry.hpp): "flash-v1 or rim-v1", or "flash-v1, rim-v1 or a profile.json path".
std::string ProtocolsHelp(bool or_a_path = false);

/// A protocol given as a path to its profile.json (it has a '/' or ends in .json), not a name.
bool IsProfilePath(const std::string& name);

/// The profile's standard suite: X/scenarios/<name> beside a profile at X/schema/<name>/, when
/// there is one (a copied data directory plays its own suite), else DATA_DIR/scenarios/<name>.
std::string StandardSuite(const std::string& data_dir, const protocol::Profile& profile);

/// The profile `<data_dir>/schema/<name>/profile.json` (or the profile at `name` when it is a
/// path), or null with a message on `err` (an
/// unknown protocol lists the known ones).
std::unique_ptr<protocol::Profile> LoadProfile(const std::string& data_dir, const std::string& name,
                                               std::ostream& err);

/// The profile's frame schema; null (with a message on `err`) when it cannot be loaded, and null
/// without one when the profile names none.
std::unique_ptr<schema::FrameSchema> LoadFrameSchema(const protocol::Profile& profile,
                                                     std::ostream& err);

/// The flags of `fakehost run`, and `list`/`lint`, wired onto `app`.
void AddRunCommand(CLI::App& app, Commands* commands);
void AddListCommands(CLI::App& app, Commands* commands);
void AddManifestCommands(CLI::App& app, Commands* commands);
void AddSchemaCommands(CLI::App& app, Commands* commands);
void AddInitCommand(CLI::App& app, Commands* commands);
void AddCertifyCommands(CLI::App& app, Commands* commands);  ///< certify, certify merge, validate
void AddReportCommands(CLI::App& app, Commands* commands);

/// Whether `path` is a certify matrix (certify.json) rather than a run's report.json.
bool IsCertifyMatrix(const std::string& path);
/// `certify merge`: shard matrices into one, written to `out_dir` and every `reports` format.
int CertifyMerge(const std::vector<std::string>& inputs, const std::vector<std::string>& reports,
                 const std::string& out_dir, bool allow_partial,
                 const Context& ctx);  ///< `report merge`
void AddFuzzCommand(CLI::App& app, Commands* commands);
void AddScenarioCommands(CLI::App& app, Commands* commands);

}  // namespace fakehost::cli
