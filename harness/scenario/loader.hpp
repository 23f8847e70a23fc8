// Loading scenario files (docs/ARCHITECTURE.md "Scenario files") into the model.
//
// Everything the format does not define is an error with file:line:col, never ignored: unknown
// keys and step kinds, unknown matcher operators, duplicate keys, bad durations and levels. All
// problems of a file are reported, not just the first. `use:` steps are expanded here, so a
// loaded Scenario holds no Use step; a problem inside a fragment is reported at the fragment's
// file:line:col and says where it was used from.
//
// What the model does not say on its own: a step without `level:` gets the scenario's level;
// a step expanded from `use:` with `level:`/`note:` siblings gets that level (and that note if it
// has none); `pad_to` without `pad_at` pads "/params/data"; matchers have passed CheckPattern and
// every JSON value's ${...} syntax has been checked, so only unknown variables remain for run
// time.
//
// Bounds (each a LoadError): a file is at most json::kInputFileCap (1 MiB) of YAML, read without
// anchors or aliases (yaml_json.hpp); every duration follows duration.hpp (at most 1 h); the
// bytes one send_raw sends (text or hex times repeat), a send's pad_to and a send_raw's chunk are
// at most kMaxSendRawBytes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "harness/scenario/load_error.hpp"
#include "harness/scenario/model.hpp"

namespace fakehost::scenario {

/// 64 MiB. The largest legitimate payload is a few times the 10 MiB Flash line cap (a test that
/// the plugin survives an oversized line), written in chunks; 64 MiB leaves room for that while a
/// typo cannot make fakehost build gigabytes.
inline constexpr std::uint64_t kMaxSendRawBytes = 64ULL * 1024 * 1024;

/// A file's errors beyond this many are summed up in one last error ("and N more...").
inline constexpr std::size_t kMaxLoadErrorsPerFile = 100;

struct LoadContext {
  /// Where `use: NAME` looks for NAME.yaml, first directory first (e.g. the suite's fragments/
  /// folder, then the profile's).
  std::vector<std::string> fragment_dirs;
  /// Fragments given as text (NAME -> YAML), consulted before the directories; reported as
  /// "NAME.yaml". For tests and for fragments built into a profile.
  std::map<std::string, std::string> fragments;
};

/// Parses `yaml` as the scenario `id` written in `file` (used in messages only). Reads nothing
/// from disk except fragment files. On failure `*out` is unspecified and `errors` says why.
bool LoadScenarioText(std::string_view yaml, const std::string& file, const std::string& id,
                      const LoadContext& context, Scenario* out, std::vector<LoadError>* errors);

/// Reads and loads the file at `path`; a file that cannot be read is a LoadError too.
bool LoadScenarioFile(const std::string& path, const std::string& id, const LoadContext& context,
                      Scenario* out, std::vector<LoadError>* errors);

/// Every *.yaml file below `suite_root`, recursively, sorted, skipping directories named
/// "fragments". Empty if the root does not exist.
std::vector<std::string> FindScenarioFiles(const std::string& suite_root);

/// The scenario id of `path`: its path below `suite_root` without ".yaml", with '/'
/// separators ("handshake/refuses-unoffered-version").
std::string ScenarioIdFor(const std::string& suite_root, const std::string& path);

}  // namespace fakehost::scenario
