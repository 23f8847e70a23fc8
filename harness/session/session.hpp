// One live connection to a plugin: a thin facade over the three parts that run it.
//
//   FramePipeline (frames.hpp)     every plugin frame: parse, classify (RIM §4), correlate
//                                  (correlator.hpp: which host request a reply answers), validate
//                                  against the protocol's schema (validate.hpp), record in the
//                                  transcript, run the always-on rules (rules.hpp: not JSON,
//                                  duplicate keys, bad envelopes, wrong or twice-answered reply
//                                  ids, frames before the handshake answer or after shutdown),
//                                  answer a plugin->host request as the fake host unless held,
//                                  and deliver the message into the inbox (inbox.hpp).
//   Sender (sender.hpp)            frames the host sends: built, validated, recorded, registered
//                                  with the correlator, written within the stdin queue's budget.
//   Connection (connection.hpp)    the io_context, the Transport (transport.hpp: the plugin's
//                                  process, from Options::spawn, and the framing codec, which
//                                  hands each event to the pipeline by one concrete call), the
//                                  process's life and its stop.
// All three share one Conversation (conversation.hpp): the transcript, the findings, the
// correlator, the fake host and how far the conversation has come.
//
// The interpreter drives it synchronously, and its steps pull: Next() hands a waiting step the
// next message it has not read, running the event loop until one arrives, the plugin is gone,
// the run is interrupted or a deadline passes; Take() removes the one it wants. RunUntil() runs
// the loop until a condition holds. Waits are driven by events, never polls.
//
// Memory is bounded whatever the plugin sends (Options): the checks run on every frame, but what
// is kept of frames is capped. The transcript keeps payload text up to a per-session budget,
// then summaries (direction, kind, size, verdict), then, past an entry cap, only a tally; the
// inbox keeps the decoded documents a step may still take, up to a count and a byte budget, and
// releases the oldest past them (what a waiting step has not read yet, only past
// Inbox::kUnreadHeld times them); findings are listed up to a number per check, then counted
// (record.hpp).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/json/rapidjson.hpp"
#include "harness/process/child.hpp"
#include "harness/protocol/host.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/result/transcript.hpp"
#include "harness/session/connection.hpp"
#include "harness/session/conversation.hpp"
#include "harness/session/correlator.hpp"
#include "harness/session/frames.hpp"
#include "harness/session/inbox.hpp"
#include "harness/session/record.hpp"
#include "harness/session/sender.hpp"

namespace fakehost::schema {
class FrameSchema;
}

namespace fakehost::session {

class Session {
 public:
  using Options = SessionOptions;

  /// `schema` may be null (no validation). Both must outlive the session.
  Session(const protocol::Profile& profile, const schema::FrameSchema* schema, Options options);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  /// Spawns the plugin. False with a message if it cannot be started.
  bool Start(const process::SpawnSpec& spec, std::string* error);

  // --- host -> plugin -------------------------------------------------------------------------
  /// Sends a message: the profile's envelope members are added, the frame is encoded, recorded,
  /// validated (unless `deliberately_invalid`) and, if it is a request, registered as pending.
  /// Returns the transcript index.
  /// `answers`: for a response, the method of the request it answers (schema routing).
  std::size_t Send(rapidjson::Document message, bool deliberately_invalid,
                   const std::string& answers = {});
  /// Writes bytes as they are (already framed or not), recorded as one "raw" entry.
  std::size_t SendRaw(std::string bytes, std::string note,
                      Clock::time_point until = Clock::time_point::max());
  /// Like SendRaw, but written `chunk` bytes at a time with `delay` between writes (events are
  /// processed meanwhile); recorded as one entry.
  /// Under a transport budget a chunk is queued only when it fits beside what is already
  /// queued (the plugin reads at its own pace); that wait ends at `until` at the latest.
  std::size_t SendRawChunked(std::string bytes, std::size_t chunk, Ms delay, std::string note,
                             Clock::time_point until = Clock::time_point::max());
  /// Like SendRawChunked, for `total` bytes that are `chunk` over and over (the last piece may be
  /// a prefix of it): every piece is a view of that one buffer, so a 40 MiB line of spaces
  /// written in 64 KiB pieces holds 64 KiB, however far behind the plugin reads.
  std::size_t SendRawRepeated(std::string chunk, std::uint64_t total, Ms delay, std::string note,
                              Clock::time_point until = Clock::time_point::max());
  /// A raw write: `doc` is the one well-framed message it carried (its payload parsed), or
  /// nullptr for bytes that are no such message. A request is registered, so its answer is
  /// matched (and a missing answer noticed) like that of a request sent with Send; with the
  /// profile's error_without_id, a write with no id to read (not JSON, not a message) may be
  /// answered by an error without one.
  void TrackRawRequest(std::size_t index, const rapidjson::Value* doc);
  /// Answers a plugin->host request with `body` (the reply's members: result or error).
  void Reply(const Inbound& request, const rapidjson::Value& body);
  /// The next id the profile assigns to a host request of `method`.
  rapidjson::Value NextId(const std::string& method);
  void CloseStdin();
  bool SignalGroup(int signal);

  // --- waiting --------------------------------------------------------------------------------
  using WaitEnd = Connection::WaitEnd;
  /// Runs the event loop until `done()` is true (checked after every event) or `deadline`
  /// passes. Callers that wait for frames include gone() in `done`.
  WaitEnd RunUntil(const std::function<bool()>& done, Clock::time_point deadline);
  /// The oldest message no step has taken at or after `cursor`, which moves past it; runs the
  /// event loop until there is one. Nullopt once the plugin is gone (and nothing is left to
  /// read), the run is interrupted or `until` passes. The message stays in the inbox until a
  /// step takes it.
  std::optional<Inbound> Next(Cursor& cursor, Clock::time_point until);
  /// Takes frame `frame`'s message out of the inbox, for good: no later step reads it.
  bool Take(std::size_t frame) { return inbox_.Take(frame); }
  /// The oldest message `wanted` accepts, taken (Next, then Take); nullopt as Next.
  std::optional<Inbound> WaitFor(bool (*wanted)(const Inbound&), Clock::time_point until);
  /// Set once the run is interrupted (Options::interrupted).
  bool interrupted() const {
    return conversation_.options.interrupted && conversation_.options.interrupted->load();
  }
  /// Lets time pass while still processing events.
  void RunFor(Ms duration);
  /// Runs a stop sequence (the profile's steps) and returns how the plugin ended.
  /// `graded`: frames after its shutdown notification count against the plugin (a `shutdown`
  /// step); an ungraded teardown does not judge them.
  process::StopResult Stop(const std::vector<protocol::StopStepSpec>& steps, bool graded = true);

  // --- state ----------------------------------------------------------------------------------
  /// Plugin messages no step took yet; a step reads them with Next and takes them with Take.
  Inbox& inbox() { return inbox_; }
  /// Entry i is frame number i, for every frame that has an entry (see Options).
  const std::vector<result::TranscriptEntry>& transcript() const {
    return conversation_.transcript.entries();
  }
  /// Frame number `frame`'s entry, or nullptr when it was tallied without one.
  const result::TranscriptEntry* Entry(std::size_t frame) const {
    return conversation_.transcript.Entry(frame);
  }
  const std::vector<result::Finding>& findings() const { return conversation_.findings.findings(); }
  /// Decoded frames released from the inbox before any step took them.
  std::uint64_t inbox_released() const { return inbox_.released(); }
  /// Host requests by IdKey, in the order sent; one id may carry several.
  const std::multimap<std::string, PendingRequest>& requests() const {
    return conversation_.correlator.requests();
  }
  /// The host request sent as frame number `frame`; nullptr if none.
  const PendingRequest* RequestByFrame(std::size_t frame) const;
  /// The host request under `id` that frame `frame` carried (a write may carry several); nullptr
  /// if none.
  const PendingRequest* RequestFor(std::size_t frame, const rapidjson::Value& id) const {
    return conversation_.correlator.ByFrame(frame, id);
  }
  /// The handshake request has its answer (frames before it are judged by the handshake rules).
  bool handshake_answered() const { return conversation_.handshake_answered; }
  /// Before Start: the host sends nothing after the handshake answer on its own (the profile's
  /// after_handshake frames); the scenario does.
  void HoldAfterHandshake() { conversation_.hold_after_handshake = true; }
  /// Before Start: the revision in play has no handshake, so nothing the plugin sends is ever
  /// "before the handshake" and nothing is sent after one.
  void WithoutHandshake() {
    conversation_.handshake_answered = true;
    conversation_.without_handshake = true;
  }
  /// The revision in play, whose text words the always-on checks' findings (the profile's
  /// by_revision); empty until a revision is known, which words them by the profile's offer.
  void JudgeUnder(std::string revision) { conversation_.revision = std::move(revision); }
  /// Before Start: frames are validated against `schema` (the revision in play's) instead.
  void UseSchema(const schema::FrameSchema* schema) { conversation_.schema = schema; }
  /// The frame that answered the handshake request (a result or an error), or nullptr before it.
  const rapidjson::Value* handshake_answer() const { return conversation_.handshake_answer.get(); }
  /// Before Start, under a revision without a handshake: the plugin announced what it has in
  /// `answer` (the run's probe answer), which the session keeps alive.
  void AnnouncedIn(std::shared_ptr<const rapidjson::Document> answer) {
    conversation_.announced_in = std::move(answer);
  }
  /// What the plugin announced, at the profile's handshake.announcements in its handshake
  /// answer (or the answer AnnouncedIn gave); nullptr while unknown.
  const rapidjson::Value* Announced() const;
  bool exited() const { return exit_status().has_value(); }
  const std::optional<process::ExitStatus>& exit_status() const;
  bool stdout_closed() const { return connection_.stdout_closed(); }
  bool connection_lost() const { return connection_.connection_lost(); }
  /// True once no more frames can arrive: the framing was lost, stdout reached EOF, or the
  /// plugin exited and its output had time to drain.
  bool gone() const;
  /// Why no more frames can arrive (kFramingLost, kPluginExited or kStdoutClosed), or nullopt
  /// while they still can.
  std::optional<result::Reason> GoneReason() const;
  /// How long the host waits for the answer to the request `frame`: the deadline it carries in
  /// the profile's deadline member (Flash puts deadline_ms in every request), else its method's;
  /// in a session without a handshake, before the plugin's first frame, at least the
  /// handshake's: no initialize bears its start-up, so its first request does.
  Ms RequestDeadline(const rapidjson::Value& frame, const std::string& method) const;
  /// A GoneReason in words, with the exit status: "the plugin exited (exit code 1)".
  std::string Describe(result::Reason gone) const;
  /// The last `max_bytes` of the plugin's stderr; `dropped` (when given) counts every byte
  /// before them, both those the child never kept and those cut here.
  std::string StderrTail(std::size_t max_bytes, std::uint64_t* dropped = nullptr) const;
  std::uint64_t stderr_dropped() const;
  double ElapsedMs(Clock::time_point at) const;
  Clock::time_point started_at() const { return conversation_.started; }
  const protocol::Profile& profile() const { return conversation_.profile; }

 private:
  Conversation conversation_;
  Inbox inbox_;
  Connection connection_;
  Sender sender_;
  FramePipeline pipeline_;  // the transport's sink: the connection closes before it goes

 public:
  /// The fake host, for a scenario's answer policy (HostResponder::Apply).
  protocol::HostResponder& host() { return conversation_.host; }
  const protocol::HostResponder& host() const { return conversation_.host; }
};

}  // namespace fakehost::session
