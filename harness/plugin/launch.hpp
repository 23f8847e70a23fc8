// What it takes to start a plugin the way its host would, judged before anything is spawned.
//
// The manifest check (manifest.hpp) says whether the host would load a plugin; these say
// whether the file it names can be executed at all. `fakehost run` refuses an unrunnable
// entrypoint once, as bad input (exit 2) with the reason, instead of failing every scenario
// with a spawn error.
#pragma once

#include <string>

namespace fakehost::plugin {

/// True when `path`, as written, stays inside the directory it is relative to: it is not
/// absolute and no ".." climbs above its start ("bin/../p" stays, "../p" and "a/../../p" do
/// not). Symlinks are not resolved here: see ResolvesInside.
bool PathStaysInside(const std::string& path);

/// True when `dir`/`path`, with every symlink resolved (the parts that exist), is still inside
/// `dir` resolved the same way: a plugin's "bin/run" that is a symlink to /bin/sh, or to
/// ../other/run, is not its own file, whatever the path says. `*resolved` gets the resolved
/// path (for the message). False too when either cannot be resolved (a symlink loop).
bool ResolvesInside(const std::string& dir, const std::string& path, std::string* resolved);

/// False, with `*error` ("<what> <path> is empty", "... has no #! line ..."), when the regular
/// executable file at `path` cannot be exec'd: it is empty, or it is neither a script starting
/// with "#!" nor an ELF binary (execve would fail with ENOEXEC: no shell runs it for the host).
/// Existence, type and permission are process::ResolveExecutable's; this reads two bytes.
bool CheckExecFormat(const std::string& path, const std::string& what, std::string* error);

}  // namespace fakehost::plugin
