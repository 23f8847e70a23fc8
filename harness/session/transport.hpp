// The session's pipe to the plugin: a process and a framing codec, emitting typed events.
//
// Transport knows bytes, frames and the process's life, nothing of JSON or of the protocol's
// rules. What the plugin does reaches the session's frame pipeline (frames.hpp) as Events, in
// order, from the io_context the session runs, by one concrete call (FramePipeline::OnEvent):
// decoded frames and framing faults (in stream order), then StdoutClosed, and, from the
// process, Exited and, once stdout holds nothing unread, Drained. It keeps what those say of the
// connection (stdout closed, drained, the framing lost). The process comes from a ChildFactory,
// so a test can give the session a fake one (harness/session/test_support/fake_child.hpp).
#pragma once

#include <cstdint>
#include <functional>  // ChildFactory
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "harness/process/child.hpp"
#include "harness/wire/framing.hpp"

namespace fakehost::session {

class FramePipeline;

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
  /// `io` must outlive the Transport. `factory` empty means process::Child::Spawn.
  Transport(boost::asio::io_context& io, const wire::Framing& framing, std::uint64_t max_payload,
            ChildFactory factory);
  ~Transport();
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  /// Starts the plugin; events go to `sink` from then on (it may write to the plugin but must
  /// not destroy the Transport, and must outlive it or its Close). False with a message if it
  /// cannot be started.
  bool Start(const process::SpawnSpec& spec, FramePipeline& sink, std::string* error);
  /// Kills and reaps the plugin now (no event follows); idempotent.
  void Close();

  /// The running (or exited) plugin, or nullptr before a successful Start and after Close.
  process::Child* child() const { return child_.get(); }
  /// The plugin closed its stdout (StdoutClosed was delivered).
  bool stdout_closed() const { return stdout_closed_; }
  /// The plugin exited and whatever it wrote before has been read (Drained was delivered).
  bool drained() const { return drained_; }
  /// A framing fault the framing cannot resync after (wire::Resync::kStreamLost) was delivered:
  /// nothing after it can be read.
  bool framing_lost() const { return framing_lost_; }

 private:
  /// Drained once the exit is seen and the pipe holds no unread byte (behind the reads queued).
  void PostDrainCheck();
  void OnStdout(std::string_view bytes);
  void OnStdoutEof();
  void OnExit();
  void Deliver();
  /// Hands `event` to the sink, noting first what it says of the connection.
  void Emit(Event& event);

  boost::asio::io_context& io_;
  std::unique_ptr<wire::Decoder> decoder_;
  wire::Resync resync_;
  ChildFactory factory_;
  FramePipeline* sink_ = nullptr;
  std::vector<wire::Event> decoded_;  // reused between reads
  std::unique_ptr<process::Child> child_;
  bool exited_ = false;
  bool drained_ = false;
  bool stdout_closed_ = false;
  bool framing_lost_ = false;
};

}  // namespace fakehost::session
