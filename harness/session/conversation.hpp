// What the parts of a session share: the record of the conversation and how far it has come.
//
// A session is three parts over one Conversation (session.hpp): the per-frame pipeline
// (frames.hpp) reads the plugin's frames into it, the sender (sender.hpp) writes the host's, and
// the connection (connection.hpp) runs the process they travel through. Both directions record
// into the same transcript and findings, settle the same correlator, and move the same facts on:
// the handshake is answered (pipeline), the shutdown notification was sent (sender), a progress
// token was given (sender) and used (pipeline). So the Conversation is plain state with the
// recording helpers every part needs, and each part holds a reference to it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "harness/json/rapidjson.hpp"
#include "harness/protocol/host.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/result/transcript.hpp"
#include "harness/session/correlator.hpp"
#include "harness/session/record.hpp"
#include "harness/session/transport.hpp"
#include "harness/session/validate.hpp"

namespace fakehost::schema {
class FrameSchema;
}

namespace fakehost::session {

using Clock = std::chrono::steady_clock;
using Ms = std::chrono::milliseconds;

/// The transcript kind of a message the profile classified.
inline result::EntryKind EntryKindOf(protocol::MessageKind k) {
  switch (k) {
    case protocol::MessageKind::kRequest:
      return result::EntryKind::kRequest;
    case protocol::MessageKind::kNotification:
      return result::EntryKind::kNotification;
    case protocol::MessageKind::kResponse:
      return result::EntryKind::kResponse;
    case protocol::MessageKind::kInvalid:
      break;
  }
  return result::EntryKind::kInvalid;
}

/// How a session is bounded and what it runs (Session::Options).
struct SessionOptions {
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
  /// (a first answer to a host request, at most one per request, is kept, and what a waiting
  /// step has not read, up to Inbox::kUnreadHeld times the caps).
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

/// A progress token a host request gave: the request's frame, and the last value a
/// notification gave it with that notification's frame.
struct ProgressToken {
  std::size_t request = 0;
  std::optional<double> last;
  std::string last_text;
  std::size_t last_frame = 0;
};

struct Conversation {
  /// `schema` may be null (no validation). Both must outlive the conversation.
  Conversation(const protocol::Profile& profile, const schema::FrameSchema* schema,
               SessionOptions options);

  /// An entry stamped now, its text capped at SessionOptions::transcript_text_cap.
  result::TranscriptEntry NewEntry(result::Direction direction, result::EntryKind kind,
                                   std::string_view text, std::uint64_t size) const;
  std::size_t Record(result::TranscriptEntry entry) { return transcript.Record(std::move(entry)); }
  void Note(std::size_t frame, std::string note) { transcript.Note(frame, std::move(note)); }
  void Raise(result::Finding f) { findings.Raise(std::move(f)); }
  /// Validates `frame` into `entry`, before the entry is recorded (validate.hpp).
  std::optional<SchemaVerdict> Validate(result::TranscriptEntry& entry,
                                        const rapidjson::Value& frame, protocol::MessageKind kind,
                                        const std::string& method) {
    return session::Validate(schema, entry, frame, kind, method);
  }
  /// Records a host frame's validated `entry` and raises what its validation found under the
  /// number Record gave it; returns that number.
  std::size_t RecordHostFrame(result::TranscriptEntry entry,
                              const std::optional<SchemaVerdict>& verdict);
  double ElapsedMs(Clock::time_point at) const;
  /// What the plugin announced (Session::Announced).
  const rapidjson::Value* Announced() const;
  /// Whether the revision in play has JSON-RPC batches (protocol::Revision::batches).
  bool Batches() const;
  /// How long the host waits for the answer to request `frame` (Session::RequestDeadline).
  Ms RequestDeadline(const rapidjson::Value& frame, const std::string& method) const;

  const protocol::Profile& profile;
  const schema::FrameSchema* schema;
  SessionOptions options;
  std::string revision;  ///< the revision in play (Session::JudgeUnder)
  protocol::HostResponder host;
  TranscriptLog transcript;
  FindingLog findings;
  Correlator correlator;  ///< which request a reply answers
  Clock::time_point started;
  bool hold_after_handshake = false;  ///< Session::HoldAfterHandshake
  bool without_handshake = false;     ///< Session::WithoutHandshake: the revision has none
  bool handshake_answered = false;
  bool plugin_spoke = false;  ///< a frame (any bytes framed) came from the plugin
  bool shutdown_sent = false;
  std::string handshake_key;  ///< IdKey of the handshake request
  std::shared_ptr<const rapidjson::Document> handshake_answer;
  std::shared_ptr<const rapidjson::Document> announced_in;
  /// The progress tokens host requests gave, by IdKey (the sender adds, the pipeline judges).
  std::map<std::string, ProgressToken> progress_tokens;
};

}  // namespace fakehost::session
