// A generated session as plain data, and how it is written as a scenario file.
//
// A Plan is what the fuzzer sends, in order: the handshake (the suite's own fragment, possibly
// mutated), then actions (requests and notifications built from the frame schema's examples with
// mutations applied, raw bytes, pauses, trigger requests, sync points), then a barrier request
// and the profile's graded shutdown. Plans are values (JSON held by shared pointers) so the
// shrinker can copy and edit them; Render is a pure function of the plan, so a plan and its
// scenario text are one and the same, and what the fuzzer ran is exactly what `fakehost run`
// replays.
//
// Which requests are owed an answer is decided here, with the engine's own rule: a frame the
// profile classifies as a request, whose id has an accepted type and whose envelope matches the
// schema's envelope.request entry, gets an `expect: {reply_to}` at the next sync point. Anything
// else (odd ids, broken envelopes, raw bytes) is owed nothing, so a plugin that ignores it is
// never blamed.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/json/rapidjson.hpp"

namespace fakehost::protocol {
class Profile;
}
namespace fakehost::schema {
class FrameSchema;
}

namespace fakehost::fuzz {

using Ms = std::chrono::milliseconds;
using Json = std::shared_ptr<const rapidjson::Document>;

Json MakeJson(rapidjson::Document doc);
/// Parses JSON text the fuzzer itself wrote; a null Json if it does not parse.
Json JsonFromText(std::string_view text);

/// One edit of a message: set the value at `pointer` (adding an object member if it is new), or
/// remove it. `what` names the edit for summaries ("long string", "extra member").
struct Mutation {
  std::string pointer;
  bool remove = false;
  Json value;
  std::string what;
};

struct Action {
  enum class Kind { kRequest, kNotify, kRaw, kSleep, kSync, kTrigger };
  Kind kind = Kind::kSleep;
  std::string def;   ///< the schema entry the message came from ("" for none)
  std::string what;  ///< what kind of case this is, for the summary ("example", "split", ...)
  /// kRequest/kNotify: method, params and extra members of a schema example, without the id and
  /// the members the profile adds.
  Json message;
  std::vector<Mutation> mutations;
  enum class Id { kAuto, kExplicit, kNull };
  Id id = Id::kAuto;
  Json id_value;  ///< kExplicit
  // kRaw: as a send_raw step.
  std::string bytes;
  bool framed = true;
  std::optional<std::uint32_t> length;
  std::uint64_t repeat = 1;
  std::size_t chunk = 0;
  int delay_ms = 0;
  bool raw_request = false;  ///< the bytes are one honest framed request, owed an answer
  bool terminal = false;     ///< the framing cannot be trusted after it: the last action
  int sleep_ms = 0;          ///< kSleep
  std::string trigger;       ///< kTrigger: a trigger name of the plugin's fakehost.yaml
};

struct Plan {
  /// The suite's handshake fragment: a JSON array of steps, the first sending the handshake.
  Json handshake;
  /// Edits of the handshake request (pointers into the send's message); any makes the session a
  /// bad-handshake one: the answer is awaited, nothing else is owed, and there is no shutdown.
  std::vector<Mutation> handshake_mutations;
  std::vector<Action> actions;
  /// How the host answers every plugin->host request the profile does not answer itself: a
  /// reply body ({result} / {error}), the string "hold" (never), or null (the profile's).
  Json host_reply;
  /// The plugin request `host_reply` answers (a result is valid for its own method only); ""
  /// answers every one ("*": an error).
  std::string host_reply_method;
  bool barrier = true;  ///< a final barrier request, awaited
};

/// What the scenario file says about itself.
struct Header {
  std::string title = "fuzz session";
  std::string spec = "fuzz";
  std::string requirement = "The plugin keeps the protocol whatever the host sends.";
  std::string level = "must";
  std::vector<std::string> comments;  ///< "# " lines at the top
  /// The scenario's `vars:`, NAME -> a string (Catalog::trigger_vars), in order.
  std::vector<std::pair<std::string, std::string>> vars;
};

struct RenderOptions {
  /// An owed answer is awaited for the method's deadline from the profile, kept within these
  /// bounds (a 50 ms deadline is noise on a shared machine; 30 s makes hangs expensive).
  Ms answer_floor{1000};
  Ms answer_cap{5000};
};

/// The scenario text of `plan`. Deterministic: equal plans give equal text.
std::string Render(const Plan& plan, const protocol::Profile& profile,
                   const schema::FrameSchema* schema, const Header& header,
                   const RenderOptions& options = {});

/// The message of a kRequest/kNotify action (or the handshake) with its mutations applied.
rapidjson::Document ApplyMutations(const rapidjson::Value& message,
                                   const std::vector<Mutation>& mutations);

/// Host steps a plan sends (handshake, actions, barrier): the shrinker's measure of size.
std::size_t StepCount(const Plan& plan);

}  // namespace fakehost::fuzz
