// What the host sends: frames built from the profile, validated, recorded, registered with the
// correlator, encoded and written; raw bytes as they are; the fake host's replies.
//
// The sender writes through the connection's child and keeps what waits for the plugin's stdin
// bounded: a protocol's transport budget, else the host's own bound (kHostQueueBytes). While a
// raw write goes out in pieces, the frames the host sends meanwhile (the fake host's answers)
// are held and written after it, as a host writes one frame at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/json/rapidjson.hpp"
#include "harness/process/child.hpp"
#include "harness/session/conversation.hpp"
#include "harness/session/inbox.hpp"

namespace fakehost::session {

class Connection;

class Sender {
 public:
  /// Both must outlive the sender.
  Sender(Conversation& conversation, Connection& connection)
      : c_(conversation), connection_(connection) {}

  /// Session::Send.
  std::size_t Send(rapidjson::Document message, bool deliberately_invalid,
                   const std::string& answers = {});
  /// Session::SendRaw.
  std::size_t SendRaw(std::string bytes, std::string note, Clock::time_point until);
  /// Session::SendRawChunked.
  std::size_t SendRawChunked(std::string bytes, std::size_t chunk, Ms delay, std::string note,
                             Clock::time_point until);
  /// Session::SendRawRepeated.
  std::size_t SendRawRepeated(std::string chunk, std::uint64_t total, Ms delay, std::string note,
                              Clock::time_point until);
  /// Session::TrackRawRequest.
  void TrackRawRequest(std::size_t index, const rapidjson::Value* doc);
  /// Answers a plugin->host request with `body` (the reply's members: result or error).
  void Reply(const Inbound& request, const rapidjson::Value& body);
  /// The profile's after_handshake frames, once `reply` answered the handshake as they want.
  void AfterHandshake(const rapidjson::Value& reply);
  /// The process layer's stop plan for the profile's `steps`; records the notifications it
  /// sends. `graded`: a shutdown notification in it makes later plugin frames a finding.
  std::vector<process::StopStep> StopPlan(const std::vector<protocol::StopStepSpec>& steps,
                                          bool graded, Ms* total);

 private:
  /// A request owed no answer: echoes of its id allowed, and an error without an id when the id
  /// is none the protocol accepts.
  void NotOwed(const rapidjson::Value& id, std::size_t index);
  /// A request written raw as frame `index` (alone, or in a batch): owed its answer, true; or,
  /// when the protocol would not accept it, noted as owed none (NotOwed), false.
  bool TrackRequest(std::size_t index, const rapidjson::Value& doc, const protocol::Classified& c);
  /// Registers a request the host sent as frame `index` with the correlator (or as noise).
  void Owe(const rapidjson::Value& frame, const protocol::Classified& c, std::size_t index,
           bool deliberately_invalid);
  /// The host sent the profile's cancellation `notification` as frame `index`: the request it
  /// names is owed no answer any more.
  void Cancel(const rapidjson::Value& notification, std::size_t index);
  bool AcceptedAsRequest(const rapidjson::Value& frame) const;
  /// What sending frame `index` (a request or a notification) moves on: progress tokens, the
  /// shutdown, a cancellation.
  void AfterSent(const rapidjson::Value& frame, const protocol::Classified& c, std::size_t index);
  /// Writes a frame's bytes, or holds them while a raw write is under way (SendRawChunked), so
  /// that an answer the fake host gives meanwhile never lands inside the raw bytes: a host
  /// writes one frame at a time.
  void Write(process::SharedBytes bytes, std::size_t frame, Ms cap);
  /// `raw`: scenario bytes, not a frame: never refused for the budget (SendRawChunked waits).
  void WriteNow(process::SharedBytes bytes, std::size_t frame, Ms cap, bool raw = false);
  /// Whether frame `frame` of `size` bytes finds the transport budget full (then noted and
  /// raised); `cap` becomes the write's time cap.
  bool BudgetFull(std::size_t frame, std::uint64_t size, bool raw, Ms* cap);
  /// Whether frame `frame` of `size` bytes finds the host's own queue bound reached (then noted,
  /// and raised once).
  bool HostQueueFull(std::size_t frame, std::uint64_t size);
  /// A write of frame `frame` ended: its bytes leave the queue, and a timeout or a closed stdin
  /// is noted.
  void Written(process::WriteOutcome out, std::size_t frame, Ms cap, std::uint64_t size, bool raw);
  /// Writes `total` bytes of raw entry `frame` in pieces of `chunk`, each a view of `buffer` (at
  /// the piece's offset, modulo the buffer's size), then the frames held meanwhile.
  void WritePieces(std::shared_ptr<const std::string> buffer, std::uint64_t total,
                   std::size_t chunk, Ms delay, std::size_t frame, Clock::time_point until);

  Conversation& c_;
  Connection& connection_;
  bool writing_raw_ = false;  // SendRawChunked is writing: other writes wait in held_writes_
  struct HeldWrite {
    process::SharedBytes bytes;
    std::size_t frame;
    Ms cap;
  };
  std::vector<HeldWrite> held_writes_;
  // Queued for stdin and not yet taken by the plugin: frames (counted against the profile's
  // transport budget) and the bytes of frames and of raw writes.
  std::uint64_t queued_frames_ = 0;
  std::uint64_t queued_frame_bytes_ = 0;
  std::uint64_t queued_raw_bytes_ = 0;
  /// Since when host frames have waited for the plugin's stdin without a break (the queue was
  /// last empty then), and whether the host's own queue bound (kHostQueueBytes) was reported.
  Clock::time_point queue_busy_since_{};
  bool queue_full_raised_ = false;
};

}  // namespace fakehost::session
