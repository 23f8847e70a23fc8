// `fakehost run --shard K/N`: one of N parts of a selection, for N machines (or CI jobs) that
// each run a part and a `fakehost report merge` that puts the reports back together.
//
// The split must not depend on the machine or on earlier runs, so every job computes the same
// partition from the same selection: it uses a cost each scenario declares (its waits, its
// bytes, its steps), never a measured time.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "harness/scenario/model.hpp"

namespace fakehost::run {

/// The most shards a run is cut into (`--shard K/N`, N at most this); a shard report claiming more
/// is refused before anything is sized by its count.
inline constexpr int kMaxShards = 1000;

/// What a scenario is expected to cost, in milliseconds, against a plugin that behaves, from what
/// it declares alone: a fixed cost for the spawn and the stop, the waits it cannot shorten
/// (sleeps, expect_none windows, not_before, pauses between chunks), the bytes it writes, a
/// round trip per step, a guess for what a trigger makes the plugin do, and, where the fake host
/// holds the plugin's calls, the deadlines the plugin's own timeout has to fit in.
double EstimatedCostMs(const scenario::Scenario& scenario);

/// Shard `index` (1-based) of `count` of `selected`: every scenario lands in exactly one shard.
/// The manifest check (kManifestScenarioId) goes to shard 1: it is played before anything is
/// spawned and costs nothing. The rest, longest first by EstimatedCostMs (ties by id), each go to
/// the shard with the least estimated time so far (ties: the lowest). Returned in the order of
/// `selected`; empty when there are fewer scenarios than shards.
std::vector<const scenario::Scenario*> Shard(const std::vector<const scenario::Scenario*>& selected,
                                             int index, int count);

/// Reads "K/N" (1 <= K <= N, decimal) into `index` and `count`; false with a message otherwise.
bool ParseShard(std::string_view text, int* index, int* count, std::string* error);

/// One input of a merge (`report merge`, `certify merge`): the file it came from and the shard
/// K/N it records (count 0: it records none).
struct ShardPart {
  std::string source;
  int index = 0, count = 0;
};

/// "" when `parts` are shards K/N of one N, each K once, and every K of 1..N is there unless
/// `allow_partial`; else what is wrong, naming the files. `missing` gets the absent Ks. A merge
/// must never pass a run it has not seen whole without saying so.
std::string CheckShardParts(const std::vector<ShardPart>& parts, bool allow_partial,
                            std::vector<int>* missing);

}  // namespace fakehost::run
