// The plugin under test as its real host sees it: its directory, its manifest, its protocol.
//
// CheckManifest() reads a plugin directory's manifest and says whether the protocol's real host
// would load it, listing every problem at once in the loader's own style
// ("manifest.json sources[0] unknown field title"), each with line:column in the file. It
// backs `fakehost manifest check` and the must-level scenario manifest/loads-in-host that
// heads every `fakehost run` report: a refused manifest is the plugin's failure (exit 1), never
// a harness error.
//
// One mechanism serves both protocols (a second protocol is data, not code):
//  - the shape (types, required keys, unknown keys at every level, enums, patterns, closed
//    sets) is a draft-07 JSON Schema, schema/<protocol>/manifest.schema.json, validated with
//    the schema layer's valijson wrapper. Its "$defs" entry "manifest" is the whole file; every
//    constraint that names a rule lives in a $defs entry of its own carrying "x-rule" (the rule
//    id) and "x-message", referenced from the shape through allOf. When valijson reports a
//    value, each rule entry referenced there is re-checked on that value alone, so a problem
//    names exactly the rule it breaks (valijson's own paths and oneOf floods never reach the
//    user). Missing keys, unknown keys and wrong types are structural rules shared by all
//    protocols ("missing-field", "unknown-field", "type"), as are "json-syntax",
//    "duplicate-key" and "not-an-object".
//  - what a schema cannot say (one key present iff another, a value referring to a declared
//    name, unique ids, all-equal flags, plugin-scoped names, the entrypoint on disk) is a short
//    list of generic cross-field rules named as data in the profile's "manifest"."rules"
//    (see cross_rules.hpp), implemented once here.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "harness/json/rapidjson.hpp"
#include "harness/protocol/profile.hpp"

namespace fakehost::plugin {

/// One reason the real host would refuse the manifest.
struct ManifestProblem {
  std::string rule;     ///< "unknown-field", "plugin-id", ... (KnownRules() lists them)
  std::string message;  ///< in the loader's style: "manifest.json sources[0] unknown field title"
  std::string pointer;  ///< RFC 6901 pointer into the manifest ("" = the whole file)
  int line = 0, column = 0;  ///< 1-based, in the manifest file; 0 when not located
};

struct ManifestCheck {
  bool readable = false;  ///< false: no manifest, or it cannot be read (see `error`)
  bool loads = false;     ///< readable and no problems
  std::vector<ManifestProblem> problems;
  std::shared_ptr<rapidjson::Document> manifest;  ///< the parsed manifest; null if unparsable
  std::string file;                               ///< the manifest's path
  std::string error;  ///< !readable: why; also set (readable false) when the profile's manifest
                      ///< schema or rules are themselves broken (a harness input error)
};

/// Checks `plugin_dir`'s manifest (the profile's manifest file) as the real host's loader would.
/// A profile without a manifest: not readable, with `error` saying so.
ManifestCheck CheckManifest(const protocol::Profile& profile, const std::string& plugin_dir);

/// The same on a manifest held in memory (`file` names it in messages; entrypoint rules look
/// in `plugin_dir`). The I/O-free core of CheckManifest, for tests.
ManifestCheck CheckManifestText(const protocol::Profile& profile, std::string_view text,
                                const std::string& file, const std::string& plugin_dir);

/// A rule the checker can report, and where it comes from.
struct RuleInfo {
  std::string id;
  std::string source;  ///< the sentence or section it enforces
};
/// Every rule CheckManifest can report for this profile: the structural ones, every x-rule of
/// the manifest schema and every profile rule; none for a profile without a manifest. False with
/// `*error` if the schema or rules are broken.
bool KnownRules(const protocol::Profile& profile, std::vector<RuleInfo>* out, std::string* error);

/// A protocol and the manifest file that marks its plugins.
struct KnownProtocol {
  std::string name;           ///< "rim-v1"
  std::string manifest_file;  ///< "rim-plugin.json"; "" when its plugins have no manifest
};
/// The protocol whose manifest file `plugin_dir` holds (protocols without a manifest are not
/// looked for). "" with `*error` when it holds none or more than one of them.
std::string DetectProtocol(const std::string& plugin_dir, const std::vector<KnownProtocol>& known,
                           std::string* error);

}  // namespace fakehost::plugin
