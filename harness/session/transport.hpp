// The session's pipe to the plugin: a process and a framing codec, emitting typed events.
//
// Transport knows bytes, frames and the process's life, nothing of JSON or of the protocol's
// rules. What the plugin does reaches the session as Events, in order, from the io_context the
// session runs: decoded frames and framing faults (in stream order), then StdoutClosed, and,
// from the process, Exited and, once stdout holds nothing unread, Drained. The process comes from a
// ChildFactory, so a test can give the session a fake one
// (harness/session/test_support/fake_child.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "harness/process/child.hpp"
#include "harness/wire/framing.hpp"

namespace fakehost::session {

/// Makes the plugin's process: process::Child::Spawn, or a fake in tests. On failure returns
/// nullptr and sets `*error`. The Child must report through `callbacks` as Child's contract says
/// (from the io_context, never from inside the call that caused it).
using ChildFactory = std::function<std::unique_ptr<process::Child>(
    boost::asio::io_context& io, const process::SpawnSpec& spec, process::Callbacks callbacks,
    std::string* error)>;

/// The plugin closed its stdout; every frame and fault before the end came first.
struct StdoutClosed {};
/// The process exited (its status is the child's exit_status()).
struct Exited {};
/// The exit was seen long enough ago that whatever it wrote before dying has been read.
struct Drained {};

using Event = std::variant<wire::Frame, wire::Oversized, wire::BadHeader, wire::TruncatedAtEof,
                           StdoutClosed, Exited, Drained>;

class Transport {
 public:
  /// Called for every event; it may write to the plugin but must not destroy the Transport.
  using Sink = std::function<void(Event&)>;

  /// `io` must outlive the Transport. `factory` empty means process::Child::Spawn.
  Transport(boost::asio::io_context& io, const wire::Framing& framing, std::uint64_t max_payload,
            ChildFactory factory);
  ~Transport();
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  /// Starts the plugin; events go to `sink` from then on. False with a message if it cannot be
  /// started.
  bool Start(const process::SpawnSpec& spec, Sink sink, std::string* error);
  /// Kills and reaps the plugin now (no event follows); idempotent.
  void Close();

  /// The running (or exited) plugin, or nullptr before a successful Start and after Close.
  process::Child* child() const { return child_.get(); }

 private:
  /// Drained once the exit is seen and the pipe holds no unread byte (behind the reads queued).
  void PostDrainCheck();
  void OnStdout(std::string_view bytes);
  void OnStdoutEof();
  void OnExit();
  void Deliver();

  boost::asio::io_context& io_;
  std::unique_ptr<wire::Decoder> decoder_;
  ChildFactory factory_;
  Sink sink_;
  std::vector<wire::Event> decoded_;  // reused between reads
  std::unique_ptr<process::Child> child_;
  bool exited_ = false;
  bool drained_ = false;
};

}  // namespace fakehost::session
