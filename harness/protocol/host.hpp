// The fake host's default answers to plugin->host requests.
//
// A real host answers every request a plugin sends (RIM §5: "including denials"), so a plugin
// never has to time out on it. HostResponder decides that answer from the profile's `host`
// block: a reply for every method (RIM: rim.log -> {ok: true}; Flash: a process table with
// processes, ...), a capability gate (a guarded method without its capability is denied), a
// per-capability rate limit, and a fallback for everything else. A reply may name a builtin
// the host computes (Flash's host.ping echo and in-memory host.storage_get/host.storage_set).
// The plugin's fakehost.yaml (`host: replies:`) replaces the profile's reply for a method; a
// scenario may override any method with its own reply or hold it unanswered (an AnswerPolicy,
// built by interpreter::AnswerPolicyFor).
//
// Stand-ins: a profile reply marked `"stand_in": "why"` carries data the fake host cannot
// really give (a made-up process table, a fetch body). The responder records each method it
// answered that way (stand_ins()), so the player can grade a scenario that failed after one as
// untested rather than failed: the plugin may only have disliked made-up data.
//
// It also owns which capabilities are granted, by the profile's rule
// (/handshake/granted_capabilities): the session hands it the plugin's manifest when the
// connection starts and the host's handshake request when that is sent, and the rule picks the
// source.
#pragma once

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "harness/json/rapidjson.hpp"
#include "harness/protocol/profile.hpp"

namespace fakehost::protocol {

/// How one scenario wants the plugin's requests answered, by method ("*": every method the
/// profile does not answer itself). Methods it does not name get the profile's answer.
struct AnswerPolicy {
  struct Rule {
    bool hold = false;  ///< the fake host never answers it (a step does, or nobody)
    std::shared_ptr<const rapidjson::Document> reply;  ///< unless hold: the reply's members
    /// Why, for the transcript: "its host: block", "the expect at f.yaml:12:5 replies to it".
    std::string reason;
  };
  std::map<std::string, Rule, std::less<>> by_method;
};

class HostResponder {
 public:
  using Clock = std::chrono::steady_clock;

  /// `manifest` (null: none) is the plugin's, read now if the profile grants a manifest's
  /// capabilities (Flash); not kept.
  explicit HostResponder(const Profile& profile, const rapidjson::Value* manifest = nullptr);

  /// The host's handshake request as sent: grants the capabilities it carries when the profile
  /// says the handshake carries them (RIM: params.grantedCapabilities). One without the list
  /// (a scenario's deliberately odd handshake) changes nothing.
  void HandshakeSent(const rapidjson::Value& frame);

  /// Holds or scripts each method the scenario's policy names as it says; the others keep their
  /// answer. The one call a player makes, before the plugin starts.
  void Apply(const AnswerPolicy& policy);
  /// A scenario's reply for `method`, replacing the default. `body` holds the reply's members
  /// (RIM: {"result": ...} or {"error": ...}). `method` "*" answers every method the profile
  /// does not answer itself (its fixed replies and builtins come first).
  void Override(std::string method, const rapidjson::Value& body, std::string reason = {});
  /// Never answer `method` (the scenario answers it in a step, or tests the plugin's timeout);
  /// "*" as for Override.
  void Hold(std::string method, std::string reason = {});

  /// The plugin's own answers by method (its fakehost.yaml `host: replies:`, each the reply's
  /// members), read from `source` (for the transcript). They replace the profile's reply for
  /// the method, after the capability gate; a scenario's scripted answers still come first.
  using JsonPtr = std::shared_ptr<const rapidjson::Document>;
  void SetPluginReplies(std::map<std::string, JsonPtr, std::less<>> replies, std::string source);

  struct Answer {
    bool hold = false;
    rapidjson::Document body;  ///< the reply's members; valid unless hold
    std::string why;           ///< "profile reply", "capability ui.panel not granted", ...
    std::string stand_in;      ///< why the answer is a stand-in; "" when it is not one
  };
  /// A method the host answered with a stand-in, and why that answer is one.
  struct StandIn {
    std::string method, why;
  };
  /// Every method answered with a stand-in so far, in the order of their first answer.
  const std::vector<StandIn>& stand_ins() const { return stand_ins_; }
  /// How many requests a scenario's "*" held or answered: none means the plugin's calls were
  /// all ones the profile answers itself, so what the scenario scripted was never exercised.
  std::size_t wildcard_answers() const { return wildcard_answers_; }
  /// `params` is the request's params (nullptr when absent); builtins read it.
  Answer Decide(std::string_view method, const rapidjson::Value* params, Clock::time_point now);

 private:
  /// The profile's rule for granted capabilities, given what the host knows so far (either may
  /// be null): the manifest's list at {manifest: pointer}, or the handshake's list at pointer.
  void Grant(const rapidjson::Value* manifest, const rapidjson::Value* handshake);
  /// The capability guarding `method`, or "" when none does.
  std::string CapabilityFor(std::string_view method) const;
  /// One of the profile's answers: its body filled in, its stand-in note kept.
  void FillProfile(const HostAnswer& answer, std::string_view method, std::string_view capability,
                   Answer* out) const;
  void Fill(const rapidjson::Value& templ, std::string_view method, std::string_view capability,
            Answer* out) const;
  /// A reply the fake host computes: {"builtin": "echo" | "storage_get" | "storage_set"}.
  bool Builtin(std::string_view name, const rapidjson::Value* params, Answer* out);
  /// Why a storage call is refused ("" if it is not), by the Flash host's bounds.
  std::string StorageError(std::string_view name, const rapidjson::Value* params) const;
  bool ProfileReply(std::string_view method, const rapidjson::Value* params, Answer* out);
  bool PluginReply(std::string_view method, Answer* out) const;
  void Answered(std::string_view method, const Answer& a);
  /// The scenario's answer under `key` (a method, or "*"): held or scripted; false when none.
  bool ScenarioAnswer(std::string_view key, std::string_view method, Answer* out) const;
  /// True (and the profile's rate-limited answer in `out`) when `capability` has had its calls
  /// for the minute before `now`; else counts this call.
  bool OverRateLimit(const std::string& capability, std::string_view method, Clock::time_point now,
                     Answer* out);

  const Profile& profile_;
  struct Scripted {
    rapidjson::Document body;
    std::string reason;
  };
  std::set<std::string, std::less<>> granted_;
  std::map<std::string, std::string, std::less<>> held_;  // method -> reason
  std::map<std::string, Scripted, std::less<>> overrides_;
  std::map<std::string, std::deque<Clock::time_point>, std::less<>> calls_;  // per capability
  rapidjson::Document storage_{rapidjson::kObjectType};  // builtin storage, per connection
  std::size_t wildcard_answers_ = 0;
  std::map<std::string, JsonPtr, std::less<>> plugin_replies_;
  std::string plugin_source_;
  std::vector<StandIn> stand_ins_;
};

}  // namespace fakehost::protocol
