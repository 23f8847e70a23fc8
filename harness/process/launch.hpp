// The fork/exec step of Child::Spawn, internal to the process layer.
//
// This is the only translation unit that includes Boost.Process (with asio it costs ~25 s of
// compile time per file), so the rest of the layer sees plain descriptors.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "harness/process/child.hpp"
#include "harness/process/contain.hpp"

namespace fakehost::process::detail {

/// A launched child. Every descriptor is O_CLOEXEC and owned by the caller, who must close
/// them and reap `pid` (it is unreaped: still a process or a zombie).
struct Launched {
  pid_t pid = -1;      ///< Also the id of the child's own process group.
  int pidfd = -1;      ///< pidfd_open(pid): readable once the child has exited.
  int stdin_fd = -1;   ///< Write end of the child's stdin.
  int stdout_fd = -1;  ///< Read end of the child's stdout.
  int stderr_fd = -1;  ///< Read end of the child's stderr.
};

/// Forks and execs `executable` (an absolute path) with `spec.argv` (argv[0] passed as given),
/// the complete environment `spec.env` ("KEY=VALUE") plus the enclosure's marker, and the
/// working directory `cwd` (absolute). The child enters the enclosure's cgroup (if any) before
/// anything else, gets its own session (no controlling terminal) and process group, `spec.limits`
/// and no core dumps, three fresh pipes as 0, 1, 2 and no other descriptor, default signal
/// dispositions and an empty signal mask. On failure returns false with `*error` naming
/// `executable` and the reason; nothing is left behind (a child whose exec failed is reaped before
/// returning).
bool Launch(const std::string& executable, const SpawnSpec& spec, const std::string& cwd,
            const Enclosure& enclosure, Launched* out, std::string* error);

}  // namespace fakehost::process::detail
