// What crossed the pipe, in order, and what the always-on checks found.
//
// A transcript is plain data that outlives the session: the interpreter quotes it in failures and
// the reporters draw it. Every entry is one frame (or one piece of raw bytes that was not a frame)
// in either direction, with its time offset from the spawn, its classification and its
// validation result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "harness/result/reason.hpp"

namespace fakehost::result {

enum class Direction { kHostToPlugin, kPluginToHost };
const char* DirectionArrow(Direction d);  ///< "host → plugin" / "plugin → host"
/// The direction's name in every file format: "host-to-plugin" / "plugin-to-host".
const char* DirectionName(Direction d);
/// The direction named `name`; false when none has that name.
bool ParseDirection(std::string_view name, Direction* out);

/// What an entry holds. The first four are messages as the profile classified them; the others
/// are bytes that were not (or not only) one whole message.
enum class EntryKind {
  kRequest,
  kNotification,
  kResponse,
  kInvalid,    ///< JSON, but no valid envelope
  kNotJson,    ///< a whole frame whose payload is not JSON
  kRaw,        ///< bytes the host wrote as they are (send_raw)
  kOversized,  ///< a frame over the profile's limit: its header, not its payload
  kTruncated,  ///< EOF inside a frame: the bytes received
  kBadHeader,  ///< bytes where a header belongs that the framing cannot read (wire::BadHeader)
  kTally,      ///< the last entry of a full transcript: every later frame, counted (see its note)
};
/// The entry kind's name in every file format: "request", ..., "not-json", ..., "tally".
const char* EntryKindName(EntryKind kind);
/// The kind named `name`; false when no kind has that name.
bool ParseEntryKind(std::string_view name, EntryKind* out);
/// A message the profile classified (request, notification, response or invalid), whose text is
/// one whole JSON value unless clipped.
inline bool IsMessage(EntryKind k) {
  return k == EntryKind::kRequest || k == EntryKind::kNotification || k == EntryKind::kResponse ||
         k == EntryKind::kInvalid;
}

struct Violation {
  std::string pointer;  ///< JSON pointer of the offending value ("" = the whole frame)
  std::string message;
};

struct TranscriptEntry {
  std::size_t index = 0;  ///< position in the transcript, from 0
  Direction direction = Direction::kHostToPlugin;
  double t_ms = 0;  ///< milliseconds since the plugin was spawned
  EntryKind kind = EntryKind::kRaw;
  std::string method;      ///< requests and notifications; for responses, the request's method
  std::string id;          ///< compact JSON of the id, "" when absent
  std::string text;        ///< the payload's bytes as received (capped; see `size` and `clipped`)
  std::uint64_t size = 0;  ///< payload bytes in full (a tally: of all the frames it counts)
  bool clipped = false;    ///< `text` holds only the first bytes of the payload
  /// A summary: kept past the session's text budget, so `text` is empty and method, id,
  /// violations and notes are abbreviated; direction, kind, size and verdict are whole.
  bool summarised = false;
  std::string schema_def;  ///< the $defs entry it was validated against ("" = not validated)
  std::vector<Violation> violations;
  std::vector<std::string> notes;  ///< "answers #3 after 12 ms", "framing: announced 1819043176"
};

// The field tables: each result type's members, in the contract's order
// (schema/report.schema.json), with their names in every file format. The JSON writer and the one
// reader (harness/report/json_report*.cpp) both walk them, so a field added to a table is
// written and read back, and no reader names an entry's keys on its own.

/// One member: written when required or when it holds something (a non-empty string or list,
/// true); read as its default when absent, unless required.
template <typename Owner, typename Member>
struct Field {
  const char* name = nullptr;
  Member Owner::*member = nullptr;
  bool required = false;
};
/// Bytes as received: as the JSON string `text` when they are valid UTF-8 (control characters
/// JSON-escaped, which loses nothing), else as `base64`. Never a re-serialisation.
template <typename Owner>
struct BytesField {
  const char* text_name = nullptr;
  const char* base64_name = nullptr;
  std::string Owner::*member = nullptr;
};

inline constexpr std::tuple kViolationFields{
    Field<Violation, std::string>{"pointer", &Violation::pointer, true},
    Field<Violation, std::string>{"message", &Violation::message, true},
};

inline constexpr std::tuple kTranscriptEntryFields{
    Field<TranscriptEntry, std::size_t>{"index", &TranscriptEntry::index, true},
    Field<TranscriptEntry, Direction>{"direction", &TranscriptEntry::direction, true},
    Field<TranscriptEntry, double>{"t_ms", &TranscriptEntry::t_ms, true},
    Field<TranscriptEntry, EntryKind>{"kind", &TranscriptEntry::kind, true},
    Field<TranscriptEntry, std::string>{"method", &TranscriptEntry::method, false},
    Field<TranscriptEntry, std::string>{"id", &TranscriptEntry::id, false},
    Field<TranscriptEntry, std::uint64_t>{"size", &TranscriptEntry::size, true},
    BytesField<TranscriptEntry>{"text", "base64", &TranscriptEntry::text},
    Field<TranscriptEntry, bool>{"clipped", &TranscriptEntry::clipped, false},
    Field<TranscriptEntry, bool>{"summarised", &TranscriptEntry::summarised, false},
    Field<TranscriptEntry, std::string>{"schema_def", &TranscriptEntry::schema_def, false},
    Field<TranscriptEntry, std::vector<Violation>>{"violations", &TranscriptEntry::violations,
                                                   false},
    Field<TranscriptEntry, std::vector<std::string>>{"notes", &TranscriptEntry::notes, false},
};

/// Calls `fn(field)` for each row of a table, in order.
template <typename... Fields, typename Fn>
constexpr void ForEachField(const std::tuple<Fields...>& table, Fn&& fn) {
  std::apply([&](const Fields&... field) { (fn(field), ...); }, table);
}

enum class Severity { kMust, kShould, kError /* a harness or scenario fault, not the plugin's */ };

/// An always-on check that failed: a protocol violation seen on some frame, whatever step ran.
struct Finding {
  Severity severity = Severity::kMust;
  std::string check;                 ///< short id: "schema", "framing", "unknown-reply-id", ...
  std::string message;               ///< one sentence a plugin author understands, with the section
  std::optional<std::size_t> frame;  ///< transcript index of the frame that caused it
  Reason reason = Reason::kCheckFired;  ///< why: a frame that is no message, the framing lost, ...
};

}  // namespace fakehost::result
