// One live connection to a plugin: a transport, a correlator and a list of rules.
//
// Session owns a single-threaded io_context and a Transport (transport.hpp: the plugin's
// process, from Options::spawn, and the framing codec), which turns what the plugin does into
// events. Every plugin frame goes through one short pipeline (frames.cpp): parse, classify
// (RIM §4), correlate (correlator.hpp: which host request a reply answers), run the always-on
// rules (rules.hpp: not JSON, duplicate keys, bad envelopes, wrong or twice-answered reply ids,
// frames before the handshake answer or after shutdown), validate against the protocol's schema
// (validate.hpp), record in the transcript, and, for a plugin->host request, answer as the fake
// host unless held; then the message is kept in the inbox (inbox.hpp) until a step takes it.
// Frames the host sends are built, validated, recorded and registered with the correlator
// (send.cpp).
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
// releases the oldest past them; findings are listed up to a number per check, then counted
// (record.hpp).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include "harness/json/rapidjson.hpp"
#include "harness/process/child.hpp"
#include "harness/protocol/host.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/result/transcript.hpp"
#include "harness/session/correlator.hpp"
#include "harness/session/inbox.hpp"
#include "harness/session/record.hpp"
#include "harness/session/rules.hpp"
#include "harness/session/transport.hpp"
#include "harness/session/validate.hpp"
#include "harness/wire/codec.hpp"

namespace fakehost::schema {
class FrameSchema;
}

namespace fakehost::session {

using Clock = std::chrono::steady_clock;
using Ms = std::chrono::milliseconds;

/// The transcript kind of a message the profile classified.
inline EntryKind EntryKindOf(protocol::MessageKind k) {
  switch (k) {
    case protocol::MessageKind::kRequest:
      return EntryKind::kRequest;
    case protocol::MessageKind::kNotification:
      return EntryKind::kNotification;
    case protocol::MessageKind::kResponse:
      return EntryKind::kResponse;
    case protocol::MessageKind::kInvalid:
      break;
  }
  return EntryKind::kInvalid;
}

class Session {
 public:
  struct Options {
    /// A frame the plugin does not take within this is a failure; 0 (the default): the
    /// protocol decides, by its transport budget when it states one, else by the frame's own
    /// deadline (a request's, or the default deadline). Tests set a short one.
    Ms write_cap{0};
    std::size_t transcript_text_cap = 64 * 1024;  ///< payload bytes kept per entry
    /// Text (payloads, notes, violations) one session's transcript keeps in full entries;
    /// entries past it are summaries: direction, kind, size, method and id abbreviated, first
    /// violation, two notes. Summaries may use as much again.
    std::size_t transcript_bytes_cap = 256 * 1024;
    /// Entries one transcript holds. Past this or the summaries' budget the last entry tallies
    /// every later frame, which still gets its frame number and its checks but no entry
    /// (Entry() returns nullptr for it).
    std::size_t transcript_entries_cap = 2000;
    /// Decoded plugin frames no step has taken yet: past either cap the oldest are released
    /// (a first answer to a host request, at most one per request, is kept).
    std::size_t inbox_documents_cap = 256;
    std::size_t inbox_bytes_cap = 8 * 1024 * 1024;
    /// Findings listed per check id; later ones are counted in one more finding of that check.
    std::size_t findings_per_check = 16;
    /// Makes the plugin's process; empty means process::Child::Spawn. Tests give a fake child
    /// (harness/session/test_support/fake_child.hpp).
    ChildFactory spawn;
    /// The plugin's manifest (null: none), for the fake host: a profile may grant the
    /// capabilities a manifest declares (Flash).
    std::shared_ptr<const rapidjson::Document> manifest;
    /// Set once the run is interrupted (null: never): Next and WaitFor end their wait then.
    const std::atomic<bool>* interrupted = nullptr;
  };

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
  enum class WaitEnd { kDone, kDeadline };
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
  bool interrupted() const { return options_.interrupted && options_.interrupted->load(); }
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
  const std::vector<TranscriptEntry>& transcript() const { return transcript_.entries(); }
  /// Frame number `frame`'s entry, or nullptr when it was tallied without one.
  const TranscriptEntry* Entry(std::size_t frame) const { return transcript_.Entry(frame); }
  const std::vector<Finding>& findings() const { return findings_.findings(); }
  /// Decoded frames released from the inbox before any step took them.
  std::uint64_t inbox_released() const { return inbox_.released(); }
  /// Host requests by IdKey, in the order sent; one id may carry several.
  const std::multimap<std::string, PendingRequest>& requests() const {
    return correlator_.requests();
  }
  /// The host request sent as frame number `frame`; nullptr if none.
  const PendingRequest* RequestByFrame(std::size_t frame) const;
  /// The host request under `id` that frame `frame` carried (a write may carry several); nullptr
  /// if none.
  const PendingRequest* RequestFor(std::size_t frame, const rapidjson::Value& id) const {
    return correlator_.ByFrame(frame, id);
  }
  /// The handshake request has its answer (frames before it are judged by the handshake rules).
  bool handshake_answered() const { return handshake_answered_; }
  /// Before Start: the host sends nothing after the handshake answer on its own (the profile's
  /// after_handshake frames); the scenario does.
  void HoldAfterHandshake() { hold_after_handshake_ = true; }
  /// Before Start: the revision in play has no handshake, so nothing the plugin sends is ever
  /// "before the handshake" and nothing is sent after one.
  void WithoutHandshake() {
    handshake_answered_ = true;
    without_handshake_ = true;
  }
  /// The revision in play, whose text words the always-on checks' findings (the profile's
  /// by_revision); empty until a revision is known, which words them by the profile's offer.
  void JudgeUnder(std::string revision) { revision_ = std::move(revision); }
  /// Before Start: frames are validated against `schema` (the revision in play's) instead.
  void UseSchema(const schema::FrameSchema* schema) { schema_ = schema; }
  /// The frame that answered the handshake request (a result or an error), or nullptr before it.
  const rapidjson::Value* handshake_answer() const { return handshake_answer_.get(); }
  /// Before Start, under a revision without a handshake: the plugin announced what it has in
  /// `answer` (the run's probe answer), which the session keeps alive.
  void AnnouncedIn(std::shared_ptr<const rapidjson::Document> answer) {
    announced_in_ = std::move(answer);
  }
  /// What the plugin announced, at the profile's handshake.announcements in its handshake
  /// answer (or the answer AnnouncedIn gave); nullptr while unknown.
  const rapidjson::Value* Announced() const;
  bool exited() const { return exit_status().has_value(); }
  const std::optional<process::ExitStatus>& exit_status() const;
  bool stdout_closed() const { return stdout_eof_; }
  bool connection_lost() const { return connection_lost_; }
  /// True once no more frames can arrive: the framing was lost, stdout reached EOF, or the
  /// plugin exited and its output had time to drain.
  bool gone() const;
  /// Why no more frames can arrive (kFramingLost, kPluginExited or kStdoutClosed), or nullopt
  /// while they still can.
  std::optional<Reason> GoneReason() const;
  /// How long the host waits for the answer to the request `frame`: the deadline it carries in
  /// the profile's deadline member (Flash puts deadline_ms in every request), else its method's;
  /// in a session without a handshake, before the plugin's first frame, at least the
  /// handshake's: no initialize bears its start-up, so its first request does.
  Ms RequestDeadline(const rapidjson::Value& frame, const std::string& method) const;
  /// A GoneReason in words, with the exit status: "the plugin exited (exit code 1)".
  std::string Describe(Reason gone) const;
  /// The last `max_bytes` of the plugin's stderr; `dropped` (when given) counts every byte
  /// before them, both those the child never kept and those cut here.
  std::string StderrTail(std::size_t max_bytes, std::uint64_t* dropped = nullptr) const;
  std::uint64_t stderr_dropped() const;
  double ElapsedMs(Clock::time_point at) const;
  Clock::time_point started_at() const { return started_; }
  const protocol::Profile& profile() const { return profile_; }

 private:
  struct PluginFrame;  // one plugin frame on its way through the pipeline (frames.cpp)

  // --- the pipeline (frames.cpp) --------------------------------------------------------------
  void OnEvent(Event& event);
  void OnFrame(wire::Frame& frame);
  /// Everything after Parse for one message: the frame's own, or each element of a batch.
  void Process(PluginFrame& f);
  /// Parse: the frame's entry, its document and how it parsed.
  PluginFrame Parse(wire::Frame& frame);
  /// Correlate: for a response, which request it answers (the correlator settles it once the
  /// frame has its number); notes it on the entry and marks the handshake answered.
  void Correlate(PluginFrame& f);
  /// Answer: the fake host's reply to a plugin->host request, unless held; true if it replied.
  bool Answer(const Inbound& in);
  /// Deliver: into the inbox, releasing what no step can still want.
  void Deliver(Inbound in);
  void OnOversized(const wire::Oversized& o);
  void OnBadHeader(const wire::BadHeader& b);
  /// After an Oversized or a BadHeader: the stream is over when the framing cannot resync.
  void AfterUndecodable();
  void OnTruncated(const wire::TruncatedAtEof& t);
  /// An EOF inside a frame: the plugin's violation, or the cut of the host's own stop.
  void JudgeTruncation(std::size_t frame, const wire::TruncatedAtEof& t, bool hosts_cut);

  // --- host -> plugin (send.cpp) --------------------------------------------------------------
  /// A request owed no answer: echoes of its id allowed, and an error without an id when the id
  /// is none the protocol accepts.
  void NotOwed(const rapidjson::Value& id, std::size_t index);
  /// A request written raw as frame `index` (alone, or in a batch): owed its answer, true; or,
  /// when the protocol would not accept it, noted as owed none (NotOwed), false.
  bool TrackRequest(std::size_t index, const rapidjson::Value& doc, const protocol::Classified& c);
  /// Registers a request the host sent as frame `index` with the correlator (or as noise).
  void Owe(const rapidjson::Value& frame, const protocol::Classified& c, std::size_t index,
           bool deliberately_invalid);
  void AfterHandshake(const rapidjson::Value& reply);
  /// Whether the revision in play has JSON-RPC batches (protocol::Revision::batches).
  bool Batches() const;
  /// The host sent the profile's cancellation `notification` as frame `index`: the request it
  /// names is owed no answer any more.
  void Cancel(const rapidjson::Value& notification, std::size_t index);
  bool AcceptedAsRequest(const rapidjson::Value& frame) const;
  /// Writes a frame's bytes, or holds them while a raw write is under way (SendRawChunked), so
  /// that an answer the fake host gives meanwhile never lands inside the raw bytes: a host
  /// writes one frame at a time.
  void Write(process::SharedBytes bytes, std::size_t frame, Ms cap);
  /// `raw`: scenario bytes, not a frame: never refused for the budget (SendRawChunked waits).
  void WriteNow(process::SharedBytes bytes, std::size_t frame, Ms cap, bool raw = false);
  /// Writes `total` bytes of raw entry `frame` in pieces of `chunk`, each a view of `buffer` (at
  /// the piece's offset, modulo the buffer's size), then the frames held meanwhile.
  void WritePieces(std::shared_ptr<const std::string> buffer, std::uint64_t total,
                   std::size_t chunk, Ms delay, std::size_t frame, Clock::time_point until);

  // --- recording ------------------------------------------------------------------------------
  /// An entry stamped now, its text capped at Options::transcript_text_cap.
  TranscriptEntry NewEntry(Direction direction, EntryKind kind, std::string_view text,
                           std::uint64_t size) const;
  std::size_t Record(TranscriptEntry entry) { return transcript_.Record(std::move(entry)); }
  void Note(std::size_t frame, std::string note) { transcript_.Note(frame, std::move(note)); }
  void Raise(Finding f) { findings_.Raise(std::move(f)); }
  /// Validates `frame` into `entry`, before the entry is recorded (validate.hpp).
  std::optional<SchemaVerdict> Validate(TranscriptEntry& entry, const rapidjson::Value& frame,
                                        protocol::MessageKind kind, const std::string& method) {
    return session::Validate(schema_, entry, frame, kind, method);
  }
  /// Records a host frame's validated `entry` and raises what its validation found under the
  /// number Record gave it; returns that number.
  std::size_t RecordHostFrame(TranscriptEntry entry, const std::optional<SchemaVerdict>& verdict);

  // --- waiting and stopping (session.cpp) -----------------------------------------------------
  void WatchInterrupt();
  /// The process layer's stop plan for the profile's `steps`; records the notifications it sends.
  std::vector<process::StopStep> StopPlan(const std::vector<protocol::StopStepSpec>& steps,
                                          bool graded, Ms* total);

  const protocol::Profile& profile_;
  const schema::FrameSchema* schema_;
  std::string revision_;               ///< the revision in play (JudgeUnder)
  bool hold_after_handshake_ = false;  ///< HoldAfterHandshake
  /// The progress tokens host requests gave (IdKey): the request's frame, and the last value a
  /// notification gave it with that notification's frame.
  struct ProgressToken {
    std::size_t request = 0;
    std::optional<double> last;
    std::string last_text;
    std::size_t last_frame = 0;
  };
  std::map<std::string, ProgressToken> progress_tokens_;
  /// What is wrong with progress notification `doc` (frame `number`), as the rules read it; the
  /// token's last value moves on.
  FrameFacts::Progress JudgeProgress(const rapidjson::Value& doc, std::size_t number);
  /// The ids of the plugin's own requests (IdKey) and the frame that first used each.
  std::map<std::string, std::size_t> plugin_request_ids_;
  Options options_;
  boost::asio::io_context io_;
  protocol::HostResponder host_;
  TranscriptLog transcript_;
  FindingLog findings_;
  Inbox inbox_;
  /// The cursor of the step waiting in Next: what it has not read yet is never released.
  std::size_t unread_from_ = SIZE_MAX;
  Correlator correlator_;  // which request a reply answers
  Clock::time_point started_;
  bool stdout_eof_ = false;
  bool connection_lost_ = false;
  bool drained_ = false;  // the plugin exited and its output had time to drain
  bool handshake_answered_ = false;
  bool plugin_spoke_ = false;       // a frame (any bytes framed) came from the plugin
  bool without_handshake_ = false;  // WithoutHandshake: the revision in play has none
  bool shutdown_sent_ = false;
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
  std::string handshake_key_;  // IdKey of the handshake request
  std::shared_ptr<const rapidjson::Document> handshake_answer_;
  std::shared_ptr<const rapidjson::Document> announced_in_;
  std::optional<process::ExitStatus> no_status_;
  bool hosts_cut_ = false;  // the host's own stop ended the plugin: an EOF mid-frame is its cut
  bool graded_stop_running_ = false;  // a graded stop is running: judge cuts when it ends
  std::optional<std::pair<std::size_t, wire::TruncatedAtEof>> pending_cut_;
  std::shared_ptr<boost::asio::posix::basic_stream_descriptor<>> interrupt_watcher_;
  Transport transport_;  // last: its callbacks touch everything above

 public:
  /// The fake host, for a scenario's answer policy (HostResponder::Apply).
  protocol::HostResponder& host() { return host_; }
  const protocol::HostResponder& host() const { return host_; }
};

}  // namespace fakehost::session
