// A corpus: the plugin directories `fakehost certify` runs the suite against.
//
// Each argument is a plugin directory (it holds the file that marks one: the protocol's manifest,
// or, for a protocol without manifests, the fakehost.yaml whose command: starts the plugin), a
// directory of plugin directories (its immediate subdirectories that hold one), or a text file
// listing them one a
// line. In a list, blank lines and lines starting with '#' are skipped and relative paths are
// read from the list's own directory. Every path is made absolute and normalised; duplicates
// are dropped and the result is sorted, so that a shard is the same on every machine.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace fakehost::certify {

/// Reads the corpus. `marker_file` is the file that marks a plugin directory: the protocol's
/// manifest ("rim-plugin.json"), or "fakehost.yaml" where plugins have none. False when any
/// argument does not exist, a listed path does not exist (with file:line:col), or a directory
/// holds no plugin at all; every error is returned.
bool ReadCorpus(const std::vector<std::string>& args, const std::string& marker_file,
                std::vector<std::string>* dirs, std::vector<std::string>* errors);

/// The I/O-free core of a list file: its paths in order, resolved against `base_dir`.
std::vector<std::string> ParseCorpusList(std::string_view text, const std::string& base_dir);

/// "K/N" with 1 <= K <= N. False with `*error` otherwise.
bool ParseShard(std::string_view text, int* k, int* n, std::string* error);

/// Shard K of N (1-based) of sorted `dirs`: every N-th plugin starting with the K-th, so the
/// shards are disjoint, cover the corpus and differ in size by at most one.
std::vector<std::string> Shard(const std::vector<std::string>& dirs, int k, int n);

}  // namespace fakehost::certify
