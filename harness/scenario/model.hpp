// The scenario model: plain structs a loader fills and an interpreter plays.
//
// Nothing here knows YAML, processes or sessions. JSON values (messages, matchers, replies)
// are kept as immutable RapidJSON documents shared by pointer: templates that may still hold
// "${...}" variables, filled in only when a step runs.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "harness/json/rapidjson.hpp"
#include "harness/result/model_basics.hpp"
#include "harness/result/result.hpp"

namespace fakehost::scenario {

using Ms = std::chrono::milliseconds;
using JsonPtr = std::shared_ptr<const rapidjson::Document>;

/// Which inbound frames a step is about. Exactly one of the selectors is set by the loader.
struct Filter {
  enum class Kind {
    kReplyTo,       ///< a response whose id equals (value and JSON type) that of request `name`
    kResponse,      ///< any response
    kRequest,       ///< a plugin->host request with method `name` ("*": any method)
    kNotification,  ///< a plugin->host notification with method `name`
    kAny,           ///< any frame at all
  };
  Kind kind = Kind::kAny;
  std::string name;
  /// Matchers over parts of the frame (subset semantics, operators as in docs/ARCHITECTURE.md). Any
  /// may be null. `message` matches the whole frame.
  JsonPtr result, error, params, message;
};

/// `send`: a host->plugin request (or, with id_mode kNull, a request-shaped frame with id null).
/// `notify`: a host->plugin notification. The profile fills in the envelope (e.g. jsonrpc).
struct Send {
  enum class IdMode { kAuto, kExplicit, kNull, kNone };
  /// `send: {trigger: NAME}`: method and params are the plugin's trigger NAME from its
  /// fakehost.yaml, filled in at run time; a plugin without it leaves the scenario untested.
  /// With a trigger, `params` (a map) is laid over the trigger's params, member by member
  /// (objects merged, anything else the step's).
  std::string trigger;
  /// `send: {retry: CAPTURE}`: the request whose answer an `expect` captured as CAPTURE (an
  /// input-required result, the profile's `input_required`), sent again under a new id with the
  /// fake host's answer to each request the result asks and its state echoed. With
  /// `answer_inputs: false` the answers are left out (the state is still echoed).
  std::string retry;
  bool answer_inputs = true;
  std::string method;
  JsonPtr params;  ///< null: no params member
  IdMode id_mode = IdMode::kAuto;
  JsonPtr id;            ///< kExplicit: the id value (integer or string, or anything for `invalid`)
  std::string as;        ///< name to refer to this request later (reply_to); may be empty
  bool invalid = false;  ///< deliberately invalid: the host-side schema check is skipped
  /// Extra top-level members (Flash's optional `trace` on a request); may be null.
  JsonPtr members;
  /// The milliseconds the host waits for the answer, when not the profile's deadline for the
  /// method (Flash: a command's `timeout_ms`): a template for an integer, or null. It sets the
  /// request's deadline member and the default `within` of a `reply_to` expectation.
  JsonPtr deadline_ms;
  /// Pad the serialised frame to exactly `pad_to` payload bytes by growing the string at
  /// `pad_pointer` (a JSON pointer into the message, e.g. "/params/data"). 0: no padding.
  std::uint64_t pad_to = 0;
  std::string pad_pointer;
};

/// `send_raw`: bytes written as they are, optionally framed by the profile.
struct SendRaw {
  std::string bytes;                    ///< decoded from `text:` or `hex:`
  bool framed = true;                   ///< wrap in the profile's framing
  std::optional<std::uint32_t> length;  ///< a framing with a length: announce this one instead
  std::uint64_t repeat = 1;             ///< `bytes` repeated this many times (big payloads)
  std::size_t chunk = 0;                ///< write in chunks of this many bytes (0: at once)
  Ms delay{0};                          ///< pause between chunks
  /// Names the requests the bytes carry for reply_to, in order: one name per message the
  /// profile's framing reads in them (two NDJSON lines in one write: `as: [first, second]`).
  std::vector<std::string> as;
};

/// `expect`: wait for a matching inbound frame (out of order: frames that arrived earlier and
/// were not consumed by another expectation count too).
struct Expect {
  Filter filter;
  Ms within{0};                  ///< 0: the profile's default for this kind of frame
  std::optional<Ms> not_before;  ///< must not arrive earlier than this after the step started
  /// `counted_from: first_frame` (with reply_to): `within` counts from the plugin's first frame
  /// (the moment it has shown it runs), never from the spawn or the send; the wait itself
  /// lasts the request's deadline. For a should-level window stricter than the deadline.
  bool from_first_frame = false;
  std::string as;  ///< capture the frame under this name (a request: to reply)
  JsonPtr reply;   ///< for kRequest: the reply's {result: ...} or {error: ...}
  /// `after: NAME`: only frames the plugin sent after the request an earlier send named NAME
  /// (what it must do because it was asked); "" takes frames from before the step too.
  std::string after;
};

/// `expect_none`: no frame matching `filter` arrives during `window`, or, when `barrier` is
/// set, before the plugin answers a barrier request the harness sends (the profile's cheapest
/// request, e.g. a heartbeat), which a sequential plugin answers only after earlier frames.
struct ExpectNone {
  Filter filter;
  Ms window{0};
  bool barrier = false;
  /// `since: NAME`: only frames after the answer to the request an earlier send named NAME (after
  /// that request itself while it is unanswered) are judged; "" judges every frame still in the
  /// inbox, those that came before the step too.
  std::string since;
};

/// `answer`: replies to a plugin->host request captured earlier by an `expect` with `as`.
struct Answer {
  std::string to;  ///< the capture's name
  JsonPtr reply;   ///< {result: ...} or {error: ...} (RIM) / the result object (Flash)
};

struct CloseStdin {};
/// `kill_parent`: ends the process the plugin was told is its host (the profile passes the pid
/// as ${host.pid}; a scenario with this step gets a stand-in process for it), so a scenario
/// can check that the plugin notices its host is gone.
struct KillParent {};
struct Signal {
  int signal = 0;
  std::string name;
};  ///< to the plugin's process group
struct Sleep {
  Ms duration{0};
};

/// `expect_exit`: the plugin exits within `within`; optionally with this code or signal.
struct ExpectExit {
  std::optional<int> code;
  std::optional<int> signal;
  Ms within{0};
};

/// `shutdown`: play the profile's stop sequence `sequence` ("" = the default one) and grade
/// the stage at which the plugin exited: exiting in the first grace window passes, needing a
/// signal fails, naming the signal and the time taken.
struct Shutdown {
  std::string sequence;
  Ms grace{0};  ///< 0: the profile's; otherwise the time allowed before a signal is needed
};

/// `use`: a fragment (a list of steps) from the profile or the suite, expanded by the loader.
/// After loading no Use step remains; it is kept in the model only for error messages.
struct Use {
  std::string fragment;
};

struct Step;
/// `for_each`: run `steps` once per item of a list, with the item bound to ${item...}; `where`
/// filters items by a matcher. The list is the manifest's (`items: /commands`) or one the plugin
/// returned in a frame an earlier step captured (`items: "${list.result.tools}"`). Exactly one of
/// `items` and `items_var` is set.
struct ForEach {
  std::string items;  ///< JSON pointer into the manifest, e.g. "/commands"
  std::string
      items_var;     ///< a capture's path, e.g. "list.result.tools" (from "${list.result.tools}")
  JsonPtr where;     ///< matcher on each item, may be null
  JsonPtr defaults;  ///< members an item gets when it lacks them (e.g. subcommand ""), or null
  std::vector<Step> steps;
};

/// Every step body, once. StepBody is written from this list, and so is each declaration that a
/// layer needs one of per body (the loader's `Read`, the interpreter's `PlayStep`): a new body is
/// its struct above and its name here, and the compiler then asks for its reader and its player.
// clang-format off
#define FAKEHOST_STEP_BODIES(X) \
  X(Send)                       \
  X(SendRaw)                    \
  X(Expect)                     \
  X(ExpectNone)                 \
  X(Answer)                     \
  X(CloseStdin)                 \
  X(KillParent)                 \
  X(Signal)                     \
  X(Sleep)                      \
  X(ExpectExit)                 \
  X(Shutdown)                   \
  X(ForEach)
// clang-format on

namespace detail {
// The list is written `void, Send, SendRaw, ...`: the `void` takes the comma before the first.
template <typename Ignored, typename... Bodies>
using VariantOfRest = std::variant<Bodies...>;
}  // namespace detail

#define FAKEHOST_COMMA_THEN(Body) , Body
using StepBody = detail::VariantOfRest<void FAKEHOST_STEP_BODIES(FAKEHOST_COMMA_THEN)>;
#undef FAKEHOST_COMMA_THEN

struct Step {
  StepBody body;
  std::string kind;  ///< the YAML key, e.g. "expect", for messages
  result::Level level =
      result::Level::kMust;  ///< a miss at this step is a failure (must) or a warning (should)
  std::string note;          ///< optional text shown with a failure
  /// Why a window (within, for, a shutdown's grace) is shorter than the protocol's deadline
  /// for what it waits on, quoting the text; tests/waits_test.cpp requires it for such a one.
  std::string why;
  result::SourceLoc loc;
  /// Expanded from a `use:` fragment (the handshake): set-up, not what the scenario checks.
  bool from_fragment = false;
  /// The step says its own `level:`; otherwise it takes the scenario's level, which follows the
  /// revision in play for a scenario with `cites`.
  bool level_given = false;
};

/// Calls `visit` on every step in the order written, those inside a `for_each` after the
/// `for_each` itself: the one walk of a scenario's steps, for whoever needs to look at all of
/// them before playing (triggers needed, requests to hold, host frames to certify).
template <typename Visit>
void VisitSteps(const std::vector<Step>& steps, const Visit& visit) {
  for (const Step& step : steps) {
    visit(step);
    if (const auto* each = std::get_if<ForEach>(&step.body)) VisitSteps(each->steps, visit);
  }
}

/// A plugin->host request the fake host answers without a step, by method.
struct HostReply {
  enum class Kind { kReply, kHold };  ///< kHold: never answered (tests the plugin's timeout)
  Kind kind = Kind::kReply;
  JsonPtr reply;  ///< {result: ...} or {error: ...} (RIM) / the result object (Flash)
};

/// One entry of `requires:`. A manifest requirement is settled before the plugin is spawned; an
/// announced one when the plugin's handshake answer arrives, inside the scenario: the pointer is
/// resolved at the profile's `handshake.announcements` location in that answer (MCP: "/result",
/// so "/capabilities/tools" reads result.capabilities.tools).
struct Requirement {
  enum class Source {
    kManifest,      ///< "/commands": the manifest has a non-empty value there
    kAnnounced,     ///< {announced: "/capabilities/tools"}: the handshake answer has one there
    kNotAnnounced,  ///< {not_announced: ...}: the handshake answer has nothing (or empty) there
  };
  Source source = Source::kManifest;
  std::string pointer;
  result::SourceLoc loc;
};

/// One sentence of a protocol revision's text that a scenario holds the plugin to (`cites:`).
/// Its level is the sentence's own keyword (RFC 2119), or the one `level:` picks among several.
struct Cite {
  std::vector<std::string> revisions;  ///< the revisions whose text holds the sentence
  std::string section, sentence;
  result::Level level = result::Level::kMust;
  result::SourceLoc loc;
};

/// The levels of the RFC 2119 keywords in a sentence (MUST, MUST NOT, REQUIRED, SHALL: must;
/// SHOULD, RECOMMENDED: should; MAY, OPTIONAL: may), each once, strongest first: empty for a
/// sentence that states no requirement.
std::vector<result::Level> KeywordLevels(std::string_view sentence);

struct Scenario {
  std::string id;  ///< path below the suite root without ".yaml"
  std::string title, spec, requirement;
  result::Level level = result::Level::kMust;
  /// The sentences the scenario cites, per revision (a protocol with revisions); it applies only
  /// to the revisions they name. Empty: the scenario's `spec` and `level` hold under any.
  std::vector<Cite> cites;
  /// `judged_by: offered`: the scenario checks the negotiation itself, so it is judged by the
  /// revision the host offered and played whatever revision the plugin answers (known or not);
  /// otherwise by the revision answered.
  bool judged_by_offered = false;
  /// `triggers: any`: the scenario checks each of its triggers the plugin gives, and is not
  /// applicable only when it gives none; a send of a trigger the plugin declares `none` is
  /// skipped with every step that names its request. Otherwise (`all`) one such trigger makes
  /// the whole scenario not applicable.
  bool any_trigger = false;
  /// The first cite naming `revision` (it gives the scenario's level and section there), or
  /// nullptr when the scenario does not apply to it.
  const Cite* CiteFor(std::string_view revision) const;
  std::vector<std::string> tags;
  /// Conditions on the plugin; unmet, the scenario is skipped (not applicable) with the reason.
  std::vector<Requirement> requires_;
  std::map<std::string, JsonPtr> vars;  ///< `vars:` block, available as ${name}
  std::map<std::string, HostReply> host_replies;
  /// `host: {after_handshake: hold}`: the host does not send the profile's after_handshake
  /// frames (MCP: notifications/initialized) when the handshake is answered; the scenario sends
  /// what it wants, when it wants.
  bool hold_after_handshake = false;
  JsonPtr config;  ///< Flash: the FLASH_PLUGIN_CONFIG object; may be null
  Ms timeout{0};   ///< hard limit for the whole scenario; 0: the profile's
  std::vector<Step> steps;
  result::SourceLoc loc;
};

/// A result that names `scenario` (id, title, spec, requirement, level, tags, where) and
/// holds nothing else yet; `status` is `status`.
result::ScenarioResult ResultFor(const Scenario& scenario, result::Status status);

}  // namespace fakehost::scenario
