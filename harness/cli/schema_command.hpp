// `fakehost schema check FILE`: certifies a frame schema. Every example validates, every
// counterexample fails at its pointer, every entry carries its annotations (x-direction,
// x-frozen, x-closed-sets), and every frame the profile beside the schema and the suite beside
// it make the host send validates too.
//
// `fakehost schema diff OLD NEW`: the differences between two versions of a protocol's schema and
// profile, judged by the protocol's versioning rules (schema_diff_command.cpp).
#pragma once

#include <memory>
#include <ostream>
#include <string>

namespace fakehost::protocol {
class Profile;
}

namespace fakehost::cli {

/// Exit code: 0 all hold, 1 a problem, 2 the schema or profile cannot be loaded. `protocol`
/// (a name under DATA_DIR/schema/, or a profile path) replaces the profile beside the schema.
int SchemaCheckCommand(const std::string& data_dir, const std::string& file,
                       const std::string& protocol, std::ostream& out, std::ostream& err);

struct SchemaDiffOptions {
  std::string old_path, new_path;  ///< a schema file, a profile.json, or a schema directory
  std::string protocol;            ///< name or profile path, for a schema with no profile beside
  std::string format = "console";  ///< console, json or markdown
};

/// Exit code: 0 every change is allowed within the version (or NEW declares a new major
/// version), 1 a change breaks the version, 2 bad input.
int SchemaDiffCommand(const std::string& data_dir, const SchemaDiffOptions& options,
                      std::ostream& out, std::ostream& err);

/// `name_or_path` is a protocol name (DATA_DIR/schema/<name>/profile.json) or, when it has a
/// '/' or ends in .json, a profile file or the directory holding one. Null with a message on
/// `err` when it cannot be loaded.
std::unique_ptr<protocol::Profile> ResolveProfile(const std::string& name_or_path,
                                                  const std::string& data_dir, std::ostream& err);

}  // namespace fakehost::cli
