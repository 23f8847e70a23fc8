// The session's connection to the plugin: its event loop, its transport, and how the process
// lives and ends.
//
// Connection owns a single-threaded io_context and the Transport (transport.hpp) whose events go
// to the session's frame pipeline. Every wait of the session runs this loop: RunUntil runs it
// until a condition holds, a deadline passes (a timer keeps the loop alive until then) or an
// interrupt arrives (its descriptor is watched, so a wait ends at once). It knows when no more
// frames can arrive (gone) and why, and runs a stop sequence's plan in the process layer.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include "harness/process/child.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/result/reason.hpp"
#include "harness/session/transport.hpp"

namespace fakehost::session {

class FramePipeline;

class Connection {
 public:
  using Clock = std::chrono::steady_clock;
  using Ms = std::chrono::milliseconds;

  /// `factory` empty means process::Child::Spawn.
  Connection(const protocol::Profile& profile, ChildFactory factory);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  /// Watches the interrupt and spawns the plugin, its events going to `sink`.
  bool Start(const process::SpawnSpec& spec, FramePipeline& sink, std::string* error);
  /// Kills and reaps the plugin now (no event follows); idempotent.
  void Close();

  enum class WaitEnd { kDone, kDeadline };
  /// Runs the event loop until `done()` is true (checked after every event) or `deadline`
  /// passes. Callers that wait for frames include gone() in `done`.
  WaitEnd RunUntil(const std::function<bool()>& done, Clock::time_point deadline);
  /// Lets time pass while still processing events.
  void RunFor(Ms duration);
  /// Runs the process layer's stop `plan`, `total` long at most (and a margin), and returns how
  /// the plugin ended.
  process::StopResult RunStop(std::vector<process::StopStep> plan, Ms total);

  /// The running (or exited) plugin, or nullptr before a successful Start and after Close.
  process::Child* child() const { return transport_.child(); }
  void CloseStdin();
  bool SignalGroup(int signal);

  const std::optional<process::ExitStatus>& exit_status() const;
  bool stdout_closed() const { return transport_.stdout_closed(); }
  bool connection_lost() const { return transport_.framing_lost(); }
  /// True once no more frames can arrive: the framing was lost, stdout reached EOF, or the
  /// plugin exited and its output had time to drain.
  bool gone() const {
    return transport_.framing_lost() || transport_.stdout_closed() || transport_.drained();
  }
  /// Why no more frames can arrive (kFramingLost, kPluginExited or kStdoutClosed), or nullopt
  /// while they still can.
  std::optional<result::Reason> GoneReason() const;
  /// A GoneReason in words, with the exit status: "the plugin exited (exit code 1)".
  std::string Describe(result::Reason gone) const;
  /// The last `max_bytes` of the plugin's stderr; `dropped` (when given) counts every byte
  /// before them, both those the child never kept and those cut here.
  std::string StderrTail(std::size_t max_bytes, std::uint64_t* dropped = nullptr) const;
  std::uint64_t stderr_dropped() const;

 private:
  void WatchInterrupt();

  boost::asio::io_context io_;
  std::shared_ptr<boost::asio::posix::basic_stream_descriptor<>> interrupt_watcher_;
  std::optional<process::ExitStatus> no_status_;
  Transport transport_;  // last: its callbacks run on io_
};

}  // namespace fakehost::session
