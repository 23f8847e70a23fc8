// The fake host's default answers to plugin->host requests.
//
// A real host answers every request a plugin sends (RIM §5: "including denials"), so a plugin
// never has to time out on it. HostResponder decides that answer from the profile's `host`
// block: a fixed reply by method (RIM: rim.log -> {ok: true}), a capability gate (a guarded
// method without its capability is denied), a per-capability rate limit, and a fallback for
// everything else. A reply may name a builtin the host computes (Flash's in-memory
// host.storage_get/host.storage_set). A scenario may override any method with its own reply
// or hold it unanswered.
#pragma once

#include <chrono>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "harness/json/rapidjson.hpp"
#include "harness/protocol/profile.hpp"

namespace fakehost::protocol {

class HostResponder {
 public:
  using Clock = std::chrono::steady_clock;

  explicit HostResponder(const Profile& profile) : profile_(profile) {}

  /// Capabilities the host granted this connection (RIM: the handshake's grantedCapabilities).
  void SetGranted(std::vector<std::string> capabilities);
  /// A scenario's reply for `method`, replacing the default. `body` holds the reply's members
  /// (RIM: {"result": ...} or {"error": ...}). `method` "*" answers every method the profile
  /// does not answer itself (its fixed replies and builtins come first).
  void Override(std::string method, const rapidjson::Value& body);
  /// Never answer `method` (the scenario answers it in a step, or tests the plugin's timeout);
  /// "*" as for Override.
  void Hold(std::string method) { held_.insert(std::move(method)); }

  struct Answer {
    bool hold = false;
    rapidjson::Document body;  ///< the reply's members; valid unless hold
    std::string why;           ///< "profile reply", "capability ui.panel not granted", ...
  };
  /// How many requests a scenario's "*" held or answered: none means the plugin's calls were
  /// all ones the profile answers itself, so what the scenario scripted was never exercised.
  std::size_t wildcard_answers() const { return wildcard_answers_; }
  /// `params` is the request's params (nullptr when absent); builtins read it.
  Answer Decide(std::string_view method, const rapidjson::Value* params, Clock::time_point now);

 private:
  /// The capability guarding `method`, or "" when none does.
  std::string CapabilityFor(std::string_view method) const;
  void Fill(const rapidjson::Value& templ, std::string_view method, std::string_view capability,
            Answer* out) const;
  /// A reply the fake host computes: {"builtin": "storage_get" | "storage_set"}.
  bool Builtin(std::string_view name, const rapidjson::Value* params, Answer* out);

  const Profile& profile_;
  std::set<std::string, std::less<>> granted_;
  std::set<std::string, std::less<>> held_;
  std::map<std::string, rapidjson::Document, std::less<>> overrides_;
  std::map<std::string, std::deque<Clock::time_point>, std::less<>> calls_;  // per capability
  rapidjson::Document storage_{rapidjson::kObjectType};  // builtin storage, per connection
  std::size_t wildcard_answers_ = 0;
};

}  // namespace fakehost::protocol
