#include "harness/run/merge.hpp"

#include <algorithm>
#include <map>

#include "harness/run/manifest_scenario.hpp"
#include "harness/run/shard.hpp"

namespace fakehost::run {
namespace {

std::string Joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : " ") + item;
  return "[" + out + "]";
}

// A run's suites: `suites` when the report lists them, else its one `suite` (older reports).
std::vector<std::string> SuitesOf(const result::RunReport& r) {
  if (!r.suites.empty()) return r.suites;
  return r.suite.empty() ? std::vector<std::string>{} : std::vector<std::string>{r.suite};
}

// "" when `b` may be merged with `a`, else what differs.
std::string Difference(const result::RunReport& a, const result::RunReport& b) {
  auto differs = [](const char* what, const std::string& x, const std::string& y) {
    return std::string(what) + " " + x + " vs " + y;
  };
  if (a.protocol != b.protocol) return differs("protocol", a.protocol, b.protocol);
  if (a.plugin.id != b.plugin.id) return differs("plugin id", a.plugin.id, b.plugin.id);
  if (a.plugin.version != b.plugin.version)
    return differs("plugin version", a.plugin.version, b.plugin.version);
  if (a.plugin.dir != b.plugin.dir) return differs("plugin directory", a.plugin.dir, b.plugin.dir);
  if (a.plugin.argv != b.plugin.argv)
    return differs("plugin argv", Joined(a.plugin.argv), Joined(b.plugin.argv));
  if (SuitesOf(a) != SuitesOf(b))
    return differs("suites", Joined(SuitesOf(a)), Joined(SuitesOf(b)));
  if (a.strict != b.strict)
    return differs("--strict", a.strict ? "on" : "off", b.strict ? "on" : "off");
  if (a.suite_version != b.suite_version)
    return differs("suite digest", a.suite_version.empty() ? "(none)" : a.suite_version,
                   b.suite_version.empty() ? "(none)" : b.suite_version);
  if (a.tool_version != b.tool_version)
    return differs("fakehost version", a.tool_version, b.tool_version);
  if (a.shard.count != b.shard.count)
    return differs("shard count", std::to_string(a.shard.count), std::to_string(b.shard.count));
  return "";
}

}  // namespace

bool MergeReports(const std::vector<ShardReport>& shards, bool allow_partial,
                  result::RunReport* out, std::string* error) {
  if (shards.empty()) {
    *error = "no report to merge";
    return false;
  }
  const result::RunReport& first = shards.front().report;
  result::RunReport merged = first;
  merged.scenarios.clear();
  merged.summary = result::Summary{};
  std::map<std::string, std::size_t> shard_of;  // scenario id -> the report that holds it
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const result::RunReport& r = shards[i].report;
    std::string difference = Difference(first, r);
    if (!difference.empty()) {
      *error = shards[i].source + " is not a shard of the run " + shards.front().source +
               " is part of: " + difference;
      return false;
    }
    for (const auto& s : r.scenarios) {
      auto [at, fresh] = shard_of.emplace(s.id, i);
      if (!fresh && at->second != i) {
        *error = "the scenario " + s.id + " is in both " + shards[at->second].source + " and " +
                 shards[i].source + " (merge each shard of a run once)";
        return false;
      }
      merged.scenarios.push_back(s);
    }
    merged.started_at = std::min(merged.started_at, r.started_at);
    merged.jobs = std::max(merged.jobs, r.jobs);
    merged.summary.duration_ms = std::max(merged.summary.duration_ms, r.summary.duration_ms);
  }
  std::vector<ShardPart> parts;
  for (const auto& s : shards)
    parts.push_back({s.source, s.report.shard.index, s.report.shard.count});
  std::vector<int> missing;
  *error = CheckShardParts(parts, allow_partial, &missing);
  if (!error->empty()) return false;
  merged.shard = result::ShardInfo{};
  merged.missing_shards = std::move(missing);
  // The run's order: the manifest check heads it, then ids in order; repeats of one id (from
  // --repeat) stay together in the order they were played.
  std::stable_sort(merged.scenarios.begin(), merged.scenarios.end(),
                   [](const result::ScenarioResult& a, const result::ScenarioResult& b) {
                     bool a_manifest = a.id == kManifestScenarioId;
                     bool b_manifest = b.id == kManifestScenarioId;
                     if (a_manifest != b_manifest) return a_manifest;
                     return a.id < b.id;
                   });
  result::Summarise(&merged);
  *out = std::move(merged);
  return true;
}

}  // namespace fakehost::run
