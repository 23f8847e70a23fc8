// Putting the reports of `fakehost run --shard K/N` back together into the report of one run.
#pragma once

#include <string>
#include <vector>

#include "harness/result/run_report.hpp"

namespace fakehost::run {

/// One report of a run's shards, and where it came from (for messages).
struct ShardReport {
  std::string source;
  result::RunReport report;
};

/// Merges `shards` into `*out`: the run the shards are parts of. They must be of one protocol,
/// plugin (id, version, directory, argv), suite list and suite digest, --strict and fakehost
/// version; each must say which shard K of N it is (`run --shard` records it), with one N, and
/// every shard 1..N must be there exactly once; no scenario may be in two of them (repeats of one
/// within a report, from --repeat, are kept). With `allow_partial`, missing shards are allowed
/// and listed in `out->missing_shards`. False with a message naming the reports at fault
/// otherwise: a merge never passes a run it has not seen whole without saying so.
///
/// The merged report equals the report of the unsharded run but for timings: scenarios in run
/// order (the manifest check first, then by id), the summary counted again by Summarise; its
/// start is the earliest shard's, its duration the longest shard's (shards run side by side),
/// its jobs the most any shard used.
bool MergeReports(const std::vector<ShardReport>& shards, bool allow_partial,
                  result::RunReport* out, std::string* error);

}  // namespace fakehost::run
