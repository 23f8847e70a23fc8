#include "harness/run/shard.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <numeric>
#include <variant>

#include "harness/run/manifest_scenario.hpp"
#include "harness/scenario/step_kinds.hpp"

namespace fakehost::run {
namespace {

// The figures of the cost model (what each step kind imposes is its row's: step_kinds.cpp). They
// are rough figures from both suites against the reference plugins; only their ratios matter,
// and only for balance: a poor guess makes shards uneven, never wrong.
constexpr double kScenarioMs = 100;     // spawn, handshake, stop
constexpr double kStepMs = 5;           // one round trip
constexpr double kTriggerMs = 250;      // the plugin acting on a trigger (slow: at least 500 ms)
constexpr double kMsPerMiB = 40;        // writing (and the plugin reading) bulk bytes
constexpr double kItemsPerForEach = 3;  // manifest items are unknown until run time

}  // namespace

double EstimatedCostMs(const scenario::Scenario& scenario) {
  bool held =
      std::any_of(scenario.host_replies.begin(), scenario.host_replies.end(),
                  [](const auto& r) { return r.second.kind == scenario::HostReply::Kind::kHold; });
  const scenario::CostModel model{.step_ms = kStepMs,
                                  .trigger_ms = kTriggerMs,
                                  .ms_per_mib = kMsPerMiB,
                                  .items_per_each = kItemsPerForEach,
                                  .held = held};
  return kScenarioMs + scenario::StepsCostMs(scenario.steps, model);
}

std::vector<const scenario::Scenario*> Shard(const std::vector<const scenario::Scenario*>& selected,
                                             int index, int count) {
  std::vector<std::size_t> order(selected.size());
  std::iota(order.begin(), order.end(), 0);
  std::vector<double> cost(selected.size());
  for (std::size_t i = 0; i < selected.size(); ++i)
    cost[i] = selected[i]->id == kManifestScenarioId ? -1 : EstimatedCostMs(*selected[i]);
  // The manifest check (cost -1) sorts last and, with every shard's load tied at the start,
  // would land anywhere: it is placed first, in shard 1, at no cost.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (cost[a] < 0 || cost[b] < 0) return cost[a] < 0 && cost[b] >= 0;
    return cost[a] != cost[b] ? cost[a] > cost[b] : selected[a]->id < selected[b]->id;
  });
  std::vector<double> load(static_cast<std::size_t>(std::max(count, 1)), 0.0);
  std::vector<bool> mine(selected.size(), false);
  for (std::size_t i : order) {
    std::size_t shard =
        cost[i] < 0
            ? 0
            : static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    load[shard] += std::max(cost[i], 0.0);
    mine[i] = static_cast<int>(shard) + 1 == index;
  }
  std::vector<const scenario::Scenario*> out;
  for (std::size_t i = 0; i < selected.size(); ++i)
    if (mine[i]) out.push_back(selected[i]);
  return out;
}

bool ParseShard(std::string_view text, int* index, int* count, std::string* error) {
  auto number = [](std::string_view s, int* out) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
  };
  std::size_t slash = text.find('/');
  int k = 0, n = 0;
  if (slash == std::string_view::npos || !number(text.substr(0, slash), &k) ||
      !number(text.substr(slash + 1), &n)) {
    *error = "--shard takes K/N (shard K of N, e.g. 2/3), got '" + std::string(text) + "'";
    return false;
  }
  if (n < 1 || k < 1 || k > n || n > kMaxShards) {
    *error = "--shard " + std::string(text) + ": K must be between 1 and N, and N between 1 and " +
             std::to_string(kMaxShards);
    return false;
  }
  *index = k;
  *count = n;
  return true;
}

std::string CheckShardParts(const std::vector<ShardPart>& parts, bool allow_partial,
                            std::vector<int>* missing) {
  std::map<int, const ShardPart*> part_of;  // K -> the input that is shard K
  for (const ShardPart& p : parts) {
    if (p.count == 0)
      return p.source + " is not a shard: it records no --shard K/N (merge only the parts of one " +
             "sharded run)";
    // A count is a claim of the input: nothing is sized by it before it is known to be one
    // fakehost can have written.
    if (p.count < 0 || p.count > kMaxShards || p.index < 1 || p.index > p.count)
      return p.source + " claims to be shard " + std::to_string(p.index) + "/" +
             std::to_string(p.count) + ", which no run writes (--shard K/N takes N from 1 to " +
             std::to_string(kMaxShards) + ")";
    const ShardPart& first = parts.front();
    if (p.count != first.count)
      return p.source + " is shard " + std::to_string(p.index) + "/" + std::to_string(p.count) +
             ", but " + first.source + " is shard " + std::to_string(first.index) + "/" +
             std::to_string(first.count) + ": they are of different runs";
    auto [at, fresh] = part_of.emplace(p.index, &p);
    if (!fresh)
      return "shard " + std::to_string(p.index) + "/" + std::to_string(p.count) +
             " is given twice: " + at->second->source + " and " + p.source;
  }
  const int count = parts.empty() ? 0 : parts.front().count;
  for (int k = 1; k <= count; ++k)
    if (!part_of.count(k)) missing->push_back(k);
  if (missing->empty() || allow_partial) return "";
  std::string list;
  for (int k : *missing) list += (list.empty() ? "" : ", ") + std::to_string(k);
  return "shard" + std::string(missing->size() == 1 ? " " : "s ") + list + " of " +
         std::to_string(count) + (missing->size() == 1 ? " is" : " are") +
         " missing: a merge of part of a run would pass what it never saw (give every shard, or "
         "--allow-partial to merge what there is and mark the result partial)";
}

}  // namespace fakehost::run
