// Putting the reports of `fakehost run --shard K/N` back together into the report of one run.
#pragma once

#include <string>
#include <vector>

#include "harness/run/run_report.hpp"

namespace fakehost::run {

/// One report of a run's shards, and where it came from (for messages).
struct ShardReport {
  std::string source;
  RunReport report;
};

/// Merges `shards` into `*out`: the run the shards are parts of. They must be of one protocol,
/// plugin (id, version, directory, argv), suite list, --strict and fakehost version, and no
/// scenario may be in two of them (repeats of one within a report, from --repeat, are kept).
/// False with a message naming the reports that disagree otherwise.
///
/// The merged report equals the report of the unsharded run but for timings: scenarios in run
/// order (the manifest check first, then by id), the summary counted again by Summarise; its
/// start is the earliest shard's, its duration the longest shard's (shards run side by side),
/// its jobs the most any shard used.
bool MergeReports(const std::vector<ShardReport>& shards, RunReport* out, std::string* error);

}  // namespace fakehost::run
