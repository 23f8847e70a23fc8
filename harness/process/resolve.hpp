// Finding the program a SpawnSpec names, and checking it can be run, before anything is forked.
//
// A failed exec inside the forked child can only report an errno; checking here first lets the
// harness say which path it tried and why it cannot run ("not executable: ./p (permission bits
// 0644)"), which is what a plugin author needs to fix a manifest. The exec can still fail
// afterwards (a bad binary format, a file replaced in between); Spawn reports that separately.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace fakehost::process {

/// Where the child will run: `cwd` as given (empty: the harness's own), made absolute.
/// False, with `*error` naming the directory, if it is missing or not a directory.
bool ResolveWorkingDirectory(const std::string& cwd, std::string* absolute, std::string* error);

/// The absolute path to exec for `argv0`. A name containing '/' is a path, relative to
/// `cwd_absolute` when relative; a bare name is searched in the PATH of `env` ("KEY=VALUE"
/// entries), or in the harness's PATH when `env` has none; empty or relative PATH entries
/// count from `cwd_absolute`, as they would for the child itself. False, with `*error` naming
/// the path and the reason, if it does not exist, is a directory, or is not executable.
bool ResolveExecutable(std::string_view argv0, const std::string& cwd_absolute,
                       const std::vector<std::string>& env, std::string* path, std::string* error);

}  // namespace fakehost::process
