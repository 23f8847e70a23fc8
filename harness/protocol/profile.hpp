// A protocol profile: everything the engine needs to play one protocol's host side, as data.
//
// A profile is loaded from schema/<protocol>/profile.json. The engine is protocol-agnostic: the
// framing, the envelope rules, id numbering, deadlines, the stop sequences and the fake host's
// default answers all come from here, so a second protocol is a second file, not new code.
//
// Loading checks the file against schema/profile.schema.json (built in, so a profile anywhere
// is held to it; errors name the file and the JSON pointer), then the little a schema cannot
// say (the framing's name, the checks' ids and placeholders, signal names, the versioning
// rules), and reads every member once into the typed values below. What stays JSON is what is
// JSON by nature: values the host puts in frames (envelope members, answers, the messages after
// the handshake, trigger examples), scenario variables, and the manifest rules, which their own
// reader (harness/plugin/cross_rules.hpp) takes as they are.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "harness/json/rapidjson.hpp"
#include "harness/protocol/versioning.hpp"
#include "harness/wire/framing.hpp"

namespace fakehost::protocol {

using Ms = std::chrono::milliseconds;

enum class MessageKind { kRequest, kNotification, kResponse, kInvalid };
const char* MessageKindName(MessageKind kind);  ///< "request", "notification", ...

/// How a receiver reads one decoded JSON message (RIM §4; Flash "NDJSON ... id+method").
struct Classified {
  MessageKind kind = MessageKind::kInvalid;
  std::string method;                    ///< requests and notifications
  const rapidjson::Value* id = nullptr;  ///< points into the message; null when absent
  std::string reason;                    ///< kInvalid: why ("not an object", "no method or id")
};

struct IdSequence {
  std::int64_t start = 1;
  std::int64_t step = 1;
};

/// One step of a stop sequence, as the profile says it (see process::StopStep).
struct StopStepSpec {
  enum class Kind { kWrite, kCloseStdin, kWait, kSignal };
  Kind kind = Kind::kWait;
  std::string method;  ///< kWrite: the notification to send
  Ms time{0};          ///< kWrite: cap; kWait: duration
  int signal = 0;
  std::string label;
};

struct ManifestSpec {
  std::string file;        ///< "rim-plugin.json"
  std::string id;          ///< JSON pointer to the plugin id
  std::string version;     ///< JSON pointer to the version
  std::string entrypoint;  ///< JSON pointer to a file name run with no arguments (RIM), or
  std::string exec;        ///< JSON pointer to an argv array (Flash); one of the two is set
  /// The manifest's JSON Schema (member "schema", relative to the profile's directory); "" if
  /// the profile has none (the manifest is then only parsed).
  std::string schema;
  /// What the scenario manifest/loads-in-host shows: its spec reference and its requirement.
  std::string spec;
  std::string requirement;
};

/// An always-on check the engine raises, and the placeholders its wording may use. The profile
/// words every one (profile member "checks"), so a run of one protocol never quotes another's
/// text or section numbers.
struct EngineCheck {
  const char* id;  ///< "bad-reply-id"; several may share a finding's check id
  std::vector<const char*>
      vars;  ///< "frame", "id", ... for ${frame}, ${id} (${section} is always allowed)
  /// Raised only for a profile that turns it on (Profile::TurnsOn: reused-request-id by
  /// ids.plugin_unique, unannounced-notification by handshake.announced_before), and worded only
  /// by such a profile.
  bool optional = false;
};
/// Every check wording the engine asks any profile for; a profile also words its framing's own
/// (wire::Framing::checks()).
const std::vector<EngineCheck>& EngineChecks();

/// One check's wording: a sentence with {placeholders}, and the part of the text it cites ("§5"
/// for RIM; a part's name, such as "Ids", for Flash). A protocol with revisions may word a check
/// per revision (profile member "by_revision"), where the sentence it quotes differs: `revisions`
/// names them; the check's own wording has none and serves every other revision.
struct CheckWording {
  std::string text;
  std::string section;
  std::vector<std::string> revisions;
};

/// Resource limits for each plugin process (profile member "limits"); 0 means none.
struct LimitsSpec {
  std::uint64_t cpu_seconds = 0;
  std::uint64_t address_space_bytes = 0;
};

/// How much the host queues for a plugin's stdin before it gives the plugin up for not reading
/// (profile member "transport_budget"); both 0 when the protocol states no such budget.
struct TransportBudget {
  std::uint64_t frames = 0;
  std::uint64_t bytes = 0;
  bool set() const { return frames > 0 || bytes > 0; }
};

struct EnvironmentSpec {
  bool scrub = false;              ///< false: inherit the harness's environment
  std::vector<std::string> allow;  ///< scrub: names kept from the harness's environment
};

/// A member the host adds to every request it sends (profile member "request_members"),
/// unless the message has its own.
struct RequestMember {
  std::string name;
  /// A fixed value (points into the profile); nullptr when the member carries the request's
  /// deadline in milliseconds ({"carries": "deadline_ms"}).
  const rapidjson::Value* value = nullptr;
};

/// What the host sends right after a successful handshake (profile member "after_handshake").
struct AfterHandshake {
  /// Members of the handshake's result, each of which must equal its value (json::StrictEqual).
  std::vector<std::pair<std::string, const rapidjson::Value*>> when;
  std::vector<const rapidjson::Value*> send;  ///< the messages, in order
};

/// A trigger a plugin's fakehost.yaml may name (profile member "triggers").
struct TriggerSpec {
  std::string name;
  std::string does;                           ///< what a plugin does on its request
  const rapidjson::Value* example = nullptr;  ///< {method, params}: the YAML an author adds
  std::string method;                         ///< the example's method
  const rapidjson::Value* params = nullptr;   ///< the example's params, or nullptr
};

/// One of the fake host's own answers (profile member "host").
struct HostAnswer {
  /// {"result": ...} or {"error": ...}, a template (${method}, ${capability}); null for a builtin.
  std::shared_ptr<const rapidjson::Document> body;
  std::string builtin;   ///< "echo", "storage_get", "storage_set" (host.cpp); "" for a body
  std::string stand_in;  ///< why the answer is made-up data; "" when it is the real host's
};

/// The fake host's defaults for plugin->host requests (profile member "host").
struct HostSpec {
  std::vector<std::pair<std::string, HostAnswer>> replies;  ///< METHOD -> answer, in file order
  std::vector<std::pair<std::string, std::string>> capabilities;         ///< METHOD -> capability
  std::vector<std::pair<std::string, std::string>> capability_prefixes;  ///< PREFIX -> capability
  std::int64_t rate_limit_per_minute = 0;                                ///< 0: none
  std::optional<HostAnswer> denied, rate_limited, unknown, unimplemented_granted;

  const HostAnswer* Reply(std::string_view method) const;  ///< nullptr if none
  /// The capability that guards `method` (by name, else the first prefix); "" for none.
  std::string CapabilityFor(std::string_view method) const;
};

/// The revisions of a protocol fakehost knows (profile member "revisions"), each judged by its
/// own text: the handshake settles one, and a scenario applies to the revisions it cites.
struct Revision {
  std::string name;
  /// false: the revision has no handshake (MCP 2026-07-28: every request says its version in
  /// its own members); a plugin speaks it when the run's probe lists it.
  bool handshake = true;
  /// The frame schema of this revision (member "schema", beside the profile); "": the
  /// profile's. Only a revision known before the plugin speaks (one without a handshake) can
  /// have its own: a handshake's revision is settled by frames already validated.
  std::string schema_path;
  /// The barrier request under this revision (member "barrier"); "": the profile's.
  std::string barrier;
  /// Members every request the host sends under this revision carries: a pointer into the
  /// request and the members (templates, filled at send time) of the object there; a member
  /// the request already has is kept.
  std::vector<std::pair<std::string, const rapidjson::Value*>> request_members;
  /// A JSON array of messages is a batch under this revision (member "batches"; JSON-RPC 2.0
  /// §6, MCP 2025-03-26): the host reads each element as a message of its own, and each request
  /// in an array it writes is owed its answer. Otherwise an array is no message.
  bool batches = false;
};

/// How the host learns, once per run, which handshake-less revisions a plugin speaks (MCP:
/// server/discover, as the 2026-07-28 stdio binding's backward-compatibility probe).
struct RevisionProbe {
  std::string method;        ///< sent with the members of the newest handshake-less revision
  std::string listed;        ///< pointer into a result to the list of revisions the plugin speaks
  std::string error_listed;  ///< pointer into an error (of error_codes) to that list
  std::vector<std::int64_t> error_codes;
  Ms within{0};  ///< no answer within this: the plugin speaks only handshake revisions
};

struct Revisions {
  std::string label;            ///< how a report names the text: "MCP" in "MCP 2025-06-18, ..."
  std::string negotiated;       ///< pointer into the handshake answer to the revision it speaks
  std::string offer;            ///< the revision offered unless --revision names another
  std::vector<Revision> known;  ///< oldest first
  std::optional<RevisionProbe> probe;  ///< absent: every revision has a handshake
  bool Knows(std::string_view revision) const { return Find(revision) != nullptr; }
  const Revision* Find(std::string_view revision) const;
  std::string KnownList() const;  ///< "A, B, C"
  /// The newest known revision without a handshake ("" if none): the one a probe asks in.
  std::string NewestWithoutHandshake() const;
};

class Profile {
 public:
  /// Loads and checks a profile file; on error returns nullptr with a message naming the file
  /// and the offending member.
  static std::unique_ptr<Profile> Load(const std::string& path, std::string* error);
  static std::unique_ptr<Profile> LoadText(std::string_view text, const std::string& path,
                                           std::string* error);

  const std::string& name() const { return name_; }
  const std::string& title() const { return title_; }
  /// The protocol revision the profile pins (member "revision": MCP's "2025-11-25"); "" if none.
  const std::string& revision() const { return revision_; }
  /// The revisions the profile knows (member "revisions"); nullptr for a profile without them.
  const Revisions* revisions() const { return revisions_ ? &*revisions_ : nullptr; }
  const std::string& dir() const { return dir_; }  ///< directory of the profile file
  /// The framing the profile names (a registered one: wire::FindFraming).
  const wire::Framing& framing() const { return *framing_; }
  std::uint64_t max_payload() const { return max_payload_; }
  /// Whether the protocol's plugins have a manifest (profile member "manifest"). A profile
  /// without one identifies a plugin by its command line (fakehost.yaml `command:`, or `--
  /// ARGV`), as a language server or an MCP server is configured: there is then no manifest
  /// to read, no manifest/loads-in-host scenario, and manifest() is empty.
  bool has_manifest() const { return has_manifest_; }
  const ManifestSpec& manifest() const { return manifest_; }
  /// The cross-field manifest rules (profile member manifest.rules, an array; see
  /// harness/plugin/cross_rules.hpp, which reads and checks them), or nullptr if none.
  const rapidjson::Value* manifest_rules() const { return manifest_rules_; }
  /// The frame schema's path (profile member "schema", relative to the profile's directory).
  const std::string& schema_path() const { return schema_path_; }
  const EnvironmentSpec& environment() const { return environment_; }

  /// Members the host adds to every frame it builds (RIM: "jsonrpc": "2.0"): an object.
  const rapidjson::Value& host_members() const { return *host_members_; }
  Classified Classify(const rapidjson::Value& message) const;

  IdSequence IdsFor(std::string_view method) const;
  Ms DeadlineFor(std::string_view method) const;
  /// The deadline the manifest gives `request` (a host request as built, members at pointers),
  /// by the profile's /deadlines_ms/from_manifest rules (Flash: a perform of a command entry
  /// that declares timeout_ms); nullopt when no rule and no manifest entry sets one.
  std::optional<Ms> ManifestDeadlineFor(const rapidjson::Value& request,
                                        const rapidjson::Value* manifest) const;
  Ms default_deadline() const { return default_deadline_; }

  const std::string& handshake_method() const { return handshake_method_; }
  /// envelope.error_without_id: an error response without an id is a response (the answer to
  /// a frame whose id could not be read), not an invalid envelope.
  bool error_without_id() const { return error_without_id_; }
  /// ids.plugin_unique "session": a request id the plugin sends is never one it used before in
  /// the session (the always-on check reused-request-id).
  bool plugin_ids_unique() const { return plugin_ids_unique_; }
  /// Whether the profile turns on optional engine check `id` (EngineCheck::optional).
  bool TurnsOn(std::string_view id) const;
  bool AllowedBeforeHandshake(std::string_view method) const;
  /// JSON pointer into the handshake request to the capabilities it grants ("" if none).
  const std::string& granted_capabilities_pointer() const { return granted_pointer_; }
  /// JSON pointer into the manifest to the capabilities it declares, when the host grants
  /// those instead (Flash: checked per process against the manifest); "" if none.
  const std::string& granted_from_manifest() const { return granted_manifest_pointer_; }
  /// JSON pointer into the plugin's handshake answer to where it announces what it has (MCP:
  /// "/result", holding capabilities and serverInfo): a scenario's {announced: POINTER} is
  /// resolved below it. nullptr if the profile names no such place.
  /// A notification the plugin may send only once it has announced something (profile member
  /// handshake.announced_before): the pointer below the announcements, and the text's words.
  struct AnnouncedBefore {
    std::string announced, sentence, section;
  };
  /// The rule for notification `method`, or nullptr when it has none.
  const AnnouncedBefore* AnnouncedBeforeFor(std::string_view method) const {
    auto it = announced_before_.find(method);
    return it == announced_before_.end() ? nullptr : &it->second;
  }
  const std::string* announcements_pointer() const {
    return announcements_pointer_ ? &*announcements_pointer_ : nullptr;
  }
  /// Members added to every request the host sends, in file order (Flash: deadline_ms).
  const std::vector<RequestMember>& request_members() const { return request_members_; }
  /// The request member that carries the request's deadline in milliseconds (Flash:
  /// "deadline_ms", the milliseconds the host still waits); "" if requests carry none.
  const std::string& deadline_member() const { return deadline_member_; }
  /// Environment variables the host sets for the plugin: name and template ("${plugin.id}",
  /// "${scenario.data_dir}", ...), in file order.
  const std::vector<std::pair<std::string, std::string>>& plugin_env() const { return plugin_env_; }
  /// What the host sends right after a successful handshake; nullptr if nothing.
  const AfterHandshake* after_handshake() const {
    return after_handshake_ ? &*after_handshake_ : nullptr;
  }
  /// Every trigger the suites use, in file order (what a fakehost.yaml may define).
  const std::vector<TriggerSpec>& triggers() const { return triggers_; }
  /// The trigger called `name`, or nullptr if the profile has none.
  const TriggerSpec* trigger(std::string_view name) const;
  std::vector<std::string> trigger_names() const;
  const std::string& barrier_method() const { return barrier_method_; }
  const std::string& shutdown_notification() const { return shutdown_notification_; }
  /// The host notification that cancels a request of its own ("" if the protocol has none), and
  /// the pointer in it to the cancelled request's id (profile member "cancellation").
  const std::string& cancellation_method() const { return cancellation_method_; }
  const std::string& cancellation_id_pointer() const { return cancellation_id_; }
  /// A progress channel (profile member "progress"): the host's request carries a token, the
  /// plugin's notifications name it with a value that must grow, while the request is open.
  struct Progress {
    std::string notification;   ///< the plugin's notification method
    std::string token;          ///< pointer into the notification to the token
    std::string value;          ///< pointer into the notification to the value
    std::string request_token;  ///< pointer into a host request to the token it gives
  };
  const Progress* progress() const { return progress_ ? &*progress_ : nullptr; }
  /// An answer that asks the host for input, and how the host retries with it (profile member
  /// "input_required"); nullptr when the protocol has none.
  struct InputRequired {
    std::string requests;    ///< pointer into the answer: key -> {method, params}
    std::string state;       ///< pointer into the answer: the value to echo ("" if none)
    std::string responses;   ///< params member of the retry: key -> the host's result
    std::string echo_state;  ///< params member of the retry echoing the state
  };
  const InputRequired* input_required() const {
    return input_required_ ? &*input_required_ : nullptr;
  }

  /// A named stop sequence ("default", "teardown", ...), or nullptr.
  const std::vector<StopStepSpec>* StopSequence(std::string_view name) const;

  /// The fake host's defaults for plugin->host requests.
  const HostSpec& host() const { return host_; }
  /// Values available to scenarios as variables (${host.version}, ${principal}): an object.
  const rapidjson::Value& vars() const { return *vars_; }
  Ms scenario_timeout() const { return scenario_timeout_; }
  /// The most a scenario may run however many items its for_each steps find (member
  /// scenario_timeout_max_ms; default 10 minutes).
  Ms scenario_timeout_max() const { return scenario_timeout_max_; }
  /// CPU time and address space each plugin process gets (`fakehost run` may override).
  const LimitsSpec& limits() const { return limits_; }
  /// The stdin queue's budget, when the protocol states one (Flash: 256 frames / 20 MiB).
  const TransportBudget& transport_budget() const { return transport_budget_; }
  /// The protocol's versioning rules (member "versioning", read by ReadVersioning), or nullptr
  /// if the profile has none.
  const Versioning* versioning() const { return versioning_ ? &*versioning_ : nullptr; }
  /// The whole profile document: what the versioning facts' pointers point into.
  const rapidjson::Value& document() const { return doc_; }

  /// The wording of engine check `id` (one of EngineChecks()) under `revision` (the revision in
  /// play; empty: the profile's offer); the loader guarantees it exists.
  const CheckWording& Check(std::string_view id, std::string_view revision = {}) const;
  /// Check `id`'s sentence under `revision` with each ${name} replaced by its value from `vars`,
  /// ${section} by the check's section and ${revision} by the revision (text/template.hpp).
  std::string CheckMessage(
      std::string_view id,
      std::initializer_list<std::pair<std::string_view, std::string_view>> vars,
      std::string_view revision = {}) const;
  /// The same with values computed elsewhere (a framing's wire::Wording).
  std::string CheckMessage(std::string_view id,
                           const std::vector<std::pair<std::string, std::string>>& vars,
                           std::string_view revision = {}) const;

 private:
  Profile() = default;
  /// Reads the members of a document the schema accepted, one row of Members' table each;
  /// false with `*error` for what the schema cannot say.
  bool Init(const std::string& path, std::string* error);
  /// The readers of the profile's members, one per member (profile_load.cpp).
  struct Members;
  std::string FillCheck(std::string_view id, std::string_view revision,
                        const std::function<const std::string_view*(std::string_view)>& var) const;

  rapidjson::Document doc_;
  const rapidjson::Value* host_members_ = nullptr;
  const rapidjson::Value* vars_ = nullptr;
  const rapidjson::Value* manifest_rules_ = nullptr;
  std::string name_, title_, revision_, dir_, schema_path_;
  const wire::Framing* framing_ = nullptr;
  std::uint64_t max_payload_ = 0;
  bool null_id_is_notification_ = false;
  bool error_without_id_ = false;
  bool plugin_ids_unique_ = false;
  bool has_manifest_ = false;
  ManifestSpec manifest_;
  EnvironmentSpec environment_;
  IdSequence default_ids_;
  std::map<std::string, IdSequence, std::less<>> ids_by_method_;
  Ms default_deadline_{5000};
  std::map<std::string, Ms, std::less<>> deadlines_by_method_;
  /// A /deadlines_ms/from_manifest rule: a request of `method` whose members (at the pointers
  /// of `match`) equal an item's members under `items` waits that item's `value` ms; a member
  /// the item leaves out takes its `defaults` value.
  struct ManifestDeadline {
    std::string method, items, value;
    std::map<std::string, std::string> match, defaults;
  };
  std::vector<ManifestDeadline> manifest_deadlines_;
  std::string handshake_method_;
  std::set<std::string, std::less<>> allowed_before_handshake_;
  std::string granted_pointer_;
  std::string granted_manifest_pointer_;
  std::optional<std::string> announcements_pointer_;
  std::map<std::string, AnnouncedBefore, std::less<>> announced_before_;
  std::optional<Revisions> revisions_;
  std::vector<RequestMember> request_members_;
  std::string deadline_member_;
  std::vector<std::pair<std::string, std::string>> plugin_env_;
  std::optional<AfterHandshake> after_handshake_;
  std::vector<TriggerSpec> triggers_;
  HostSpec host_;
  std::optional<Versioning> versioning_;
  std::string barrier_method_;
  std::string shutdown_notification_;
  std::string cancellation_method_, cancellation_id_;
  std::optional<InputRequired> input_required_;
  std::optional<Progress> progress_;
  std::map<std::string, std::vector<StopStepSpec>, std::less<>> stop_sequences_;
  Ms scenario_timeout_{20000};
  Ms scenario_timeout_max_{600000};
  /// Each check's wordings: those for named revisions first, its own (no revisions) last.
  std::map<std::string, std::vector<CheckWording>, std::less<>> checks_;
  LimitsSpec limits_;
  TransportBudget transport_budget_;
};

/// The profile's plugin limits overridden by `fakehost run --limit-cpu SECONDS` and
/// `--limit-memory MIB` (0: none). False with `*error` naming the flag if one is out of range.
/// In an ASan build the profile's address-space limit is dropped (only the flag applies): the
/// fixture plugins are instrumented too, and ASan reserves terabytes for its shadow.
bool ResolveLimits(const LimitsSpec& profile, std::optional<std::int64_t> cpu_seconds,
                   std::optional<std::int64_t> memory_mib, LimitsSpec* out, std::string* error);

}  // namespace fakehost::protocol
