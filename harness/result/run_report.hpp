// The outcome of one `fakehost run`: what was run against what, and every scenario's result.
// Plain data: the reporters' only input.
#pragma once

#include <string>
#include <vector>

#include "harness/result/result.hpp"

namespace fakehost::result {

struct Summary {
  /// skipped: not applicable to this plugin; untested: applicable, but a trigger is missing.
  /// xfailed: failed as --expected-failures expects (not a failure of the run); stale: passed
  /// though listed there (a failure of the run).
  int total = 0, passed = 0, failed = 0, warned = 0, skipped = 0, errored = 0, not_run = 0,
      untested = 0, xfailed = 0, stale = 0;
  double duration_ms = 0;
};

/// Which part of a sharded run (`run --shard K/N`) a report is; count 0 when the run was whole.
struct ShardInfo {
  int index = 0, count = 0;
};

struct PluginInfo {
  std::string id, version, dir;
  std::vector<std::string> argv;
  /// Why its host never spawns this plugin (a Flash manifest-only plugin), so that its manifest
  /// check is all there is to check; "" when it is spawned.
  std::string never_spawned;
  /// What the run's revision probe found ("server/discover listed 2026-07-28, 2025-11-25");
  /// "" when the profile has no probe.
  std::string probe;
  /// What the triggers the plugin's fakehost.yaml does not give were made from (run/derive.hpp):
  /// "triggers made from the server's lists: tool_call = tools/call get_time; ..."; "" when
  /// none were looked for.
  std::string derived = {};
};

struct RunReport {
  std::string tool_name = "fakehost";
  std::string tool_version;
  std::string protocol;             ///< profile name, "rim-v1"
  std::string protocol_title;       ///< "RIM plugin protocol v1"
  std::string suite;                ///< suite directory (the first, when there are several)
  std::vector<std::string> suites;  ///< every suite directory, in --suite order
  std::string suite_version;        ///< the digest of `suite` (suite_version.hpp); "" unknown
  std::string started_at;           ///< ISO 8601 UTC
  bool strict = false;
  int jobs = 1;
  PluginInfo plugin;
  ShardInfo shard;                  ///< the part of a sharded run this report is
  std::vector<int> missing_shards;  ///< a merge with --allow-partial: the shards it lacked
  std::vector<result::ScenarioResult> scenarios;  ///< in scenario id order
  Summary summary;
};

/// Counts statuses into report.summary (duration is set by the runner).
void Summarise(RunReport* report);

}  // namespace fakehost::result
