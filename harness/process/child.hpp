// A plugin process: spawned in its own session and process group (so without a controlling
// terminal), spoken to over three pipes.
//
// Child is driven by one asio::io_context (single-threaded, owned by the caller, outliving the
// Child); all its methods are called from that context's thread. Everything it reports arrives
// through callbacks invoked from that context, never from inside the call that caused it; a
// callback may destroy the Child, and no callback fires after the Child is destroyed. Nothing
// blocks except the destructor, which kills the whole group and reaps it so that no process,
// zombie or descriptor outlives a Child. Exit is observed through the process itself (pidfd),
// never inferred from EOF on stdout: a grandchild can hold the pipes open long after the
// plugin died. Several Childs may live at once, on one io_context or on one per thread.
//
// The exited plugin stays a zombie until the destructor reaps it: its pid is the group's id,
// and keeping it unreaped keeps that id from being reused, so signalling the group can never
// reach a stranger. This relies on nothing else in the harness reaping children it did not
// start: never call wait() or waitpid(-1, ...). A process that leaves the group (setsid(),
// setpgid(), a double fork) is still followed: each Child encloses its plugin in a cgroup, or
// marks it with an environment variable, and the destructor kills every process so enclosed
// (see contain.hpp). Orphans reparented to the harness (a subreaper) are reaped by pid, never
// with waitpid(-1), so no other Child's status is ever taken.
//
// Resource limits (SpawnSpec::limits) are set between fork and exec: core dumps are always
// off; CPU time and address space when given. An exit caused by one says so in
// ExitStatus::limit, which Describe() appends.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "harness/process/shared_bytes.hpp"

namespace fakehost::process {

using Clock = std::chrono::steady_clock;

/// Resource limits for a plugin (and, each on its own account, every process it starts).
struct Limits {
  std::uint64_t cpu_seconds = 0;          ///< RLIMIT_CPU; 0: none. SIGXCPU, then SIGKILL 2 s on.
  std::uint64_t address_space_bytes = 0;  ///< RLIMIT_AS; 0: none.
};

struct SpawnSpec {
  std::vector<std::string> argv;  ///< argv[0] is the executable: a path (absolute or relative
                                  ///< to `cwd`) or a bare name resolved through PATH of `env`.
  std::string cwd;                ///< Working directory; empty means the harness's own.
  std::vector<std::string> env;   ///< The complete environment, "KEY=VALUE" each; the
                                  ///< Child adds FAKEHOST_SESSION=<id> (see contain.hpp).
  std::size_t stderr_cap = 256 * 1024;  ///< The last bytes of stderr kept; earlier ones counted.
  Limits limits;
};

struct ExitStatus {
  std::optional<int> code;    ///< Set when the process exited normally.
  std::optional<int> signal;  ///< Set when a signal ended it.
  Clock::time_point at;       ///< When the harness observed the exit.
  /// Set when a resource limit ended the process: "CPU time limit of 2 s reached".
  std::string limit;
  /// "exit code 0", "killed by SIGKILL", "no exit status"; then ": <limit>" when set.
  std::string Describe() const;
};

struct Callbacks {
  std::function<void(std::string_view)> on_stdout;  ///< Bytes as read, in order.
  std::function<void()> on_stdout_eof;
  std::function<void(std::string_view)> on_stderr;  ///< Bytes as read (the last ones also kept).
  std::function<void(const ExitStatus&)> on_exit;   ///< Once, when the process has exited.
};

enum class WriteOutcome { kWritten, kTimedOut, kClosed /* EPIPE or stdin already closed */ };

/// One step of a stop sequence. The sequence is data (a profile says it), not code.
struct StopStep {
  enum class Kind { kWrite, kCloseStdin, kWait, kSignal };
  Kind kind = Kind::kWait;
  std::string bytes;  ///< kWrite: the encoded frame to send.
  /// kWrite: the write cap (as Write); kWait: how long; a last step of another kind: how long
  /// to wait for the exit it causes (0: kStopGrace).
  std::chrono::milliseconds time{0};
  int signal = 0;     ///< kSignal: sent to the whole group.
  std::string label;  ///< What a report calls this step ("SIGTERM").
};

/// After a last step that is not a wait (typically SIGKILL, delivered asynchronously), Stop
/// waits this long for the exit that step causes before reporting `exited = false`, unless the
/// step gives its own time.
inline constexpr std::chrono::milliseconds kStopGrace{1000};

struct StopResult {
  /// Index into the sequence of the step during or after which the process was seen to exit:
  /// the last step executed that acts (write, close stdin, signal), so an exit during the wait
  /// after "close stdin" is graded at "close stdin"; a wait counts only when no action came
  /// before it. 0 when `exited_before`.
  std::size_t stage = 0;
  /// The process had exited before step 0 ran (before Stop, or before its first step).
  bool exited_before = false;
  std::string stage_label;               ///< steps[stage].label ("" when the sequence is empty).
  std::chrono::milliseconds elapsed{0};  ///< From the start of the sequence to the exit.
  ExitStatus status;
  bool exited = false;  ///< False only if even the last step did not end it (a harness fault).
};

class Child {
 public:
  /// Spawns `spec`. On failure (no such file, not executable, exec failed) returns nullptr and
  /// sets `*error` to a message naming the path and the reason. The process starts in its own
  /// session and process group (no controlling terminal) with only descriptors 0, 1, 2 open;
  /// reading starts at once.
  static std::unique_ptr<Child> Spawn(boost::asio::io_context& io, const SpawnSpec& spec,
                                      Callbacks callbacks, std::string* error);

  /// Kills the group with SIGKILL and reaps the plugin and every orphan of its group; returns
  /// once they are gone (promptly: nothing survives SIGKILL). Invokes no callback.
  virtual ~Child() = default;

  /// Queues bytes for stdin; writes complete in order. `done` reports the outcome: a write that
  /// has not completed within `cap` of this call is abandoned (kTimedOut) and stdin is then
  /// closed, since the stream position is lost; later queued writes get kClosed. `cap` <= 0
  /// means no deadline. Never blocks the io_context. The bytes are shared, not copied: their
  /// buffer lives until the write is done with it.
  virtual void Write(SharedBytes bytes, std::chrono::milliseconds cap,
                     std::function<void(WriteOutcome)> done) = 0;
  /// Closes stdin (the plugin sees EOF); queued writes complete with kClosed.
  /// Closes stdin once the writes already queued are out (each still bounded by its cap);
  /// later writes report kClosed.
  virtual void CloseStdin() = 0;
  virtual bool stdin_open() const = 0;

  /// Sends `sig` to the process group. False if the group is gone. (Members that exited are
  /// zombies until the destructor reaps them: signalling them is harmless.)
  virtual bool SignalGroup(int sig) = 0;

  /// Runs a stop sequence asynchronously; `done` fires once, when the process has exited or
  /// the sequence is exhausted (then after kStopGrace if the last step is not a wait). Waits
  /// end as soon as the exit is seen. Output callbacks keep firing meanwhile. One sequence at
  /// a time: a Stop while another runs completes at once with `exited = false`.
  virtual void Stop(std::vector<StopStep> steps, std::function<void(const StopResult&)> done) = 0;

  virtual pid_t pid() const = 0;
  virtual Clock::time_point started_at() const = 0;
  virtual const std::optional<ExitStatus>& exit_status() const = 0;  ///< Set once exited.
  /// The last `stderr_cap` bytes of stderr read so far (where a crash says why), and how many
  /// bytes came before them and were dropped. stderr_text() copies them out.
  virtual std::string stderr_text() const = 0;
  virtual std::uint64_t stderr_dropped() const = 0;
  /// Bytes written to stdout that no read has taken yet (what is still in the pipe). After the
  /// exit, 0 means the plugin's last output has been read: nothing more of it can come.
  virtual std::size_t stdout_unread() const { return 0; }
};

/// Process-wide set-up every program using Child must do once before spawning: ignore SIGPIPE,
/// set SIGCHLD to SIG_DFL, make this process a child subreaper so orphaned grandchildren
/// can be reaped instead of left as zombies, and make it non-dumpable (PR_SET_DUMPABLE 0) so
/// a plugin of the same user cannot reach its descriptors or memory through /proc or ptrace.
void InitProcessEnvironment();

/// What SweepOrphans found.
struct SweepResult {
  int killed = 0;  ///< Live processes reparented to the harness, killed.
  int reaped = 0;  ///< Zombies reaped (those killed included).
};

/// For the end of a run, once no Child is left (or with Childs alive: their plugins are left
/// alone): kills every process reparented to the harness and reaps every zombie it holds.
/// Waits at most `budget`.
SweepResult SweepOrphans(std::chrono::milliseconds budget = std::chrono::milliseconds(2000));

/// Asks every running stop sequence to skip ahead to SIGKILL (a second Ctrl-C: the user wants
/// out, but the plugins must still die). Async-signal-safe; sticky; callable many times.
void RequestHurry();
bool HurryRequested();

}  // namespace fakehost::process
