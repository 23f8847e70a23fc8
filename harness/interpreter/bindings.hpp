// What a scenario's templates can name while it plays: its variables (${plugin.id}, the
// profile's vars, the scenario's own), the requests it sent under `as:` (${NAME.id},
// ${NAME.params...}), the frames it captured (${NAME.result...}), and the for_each item being
// played (${item...}, ${item_args}). One Lookup resolves a path against all of them.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "harness/json/rapidjson.hpp"
#include "harness/session/session.hpp"

namespace fakehost::interpreter {

using Clock = session::Clock;
using Ms = std::chrono::milliseconds;

// A request the scenario sent and named with `as`.
struct Named {
  std::size_t frame = 0;
  std::string method;
  std::optional<Ms> deadline;  // the step's own deadline_ms, else the profile's for the method
  rapidjson::Document id;
  rapidjson::Document params;  // as sent (before any padding); ${NAME.params...}
  Clock::time_point sent;
};

class Bindings {
 public:
  /// ${name}: the profile's and the scenario's variables, ${plugin...}, ${host...} (filled by
  /// Player::BuildVars).
  rapidjson::Document& vars() { return vars_; }

  /// A request a step sent under `as: NAME`.
  void Name(const std::string& as, Named named) { named_[as] = std::move(named); }
  /// The request sent as `name`, or null.
  const Named* FindNamed(std::string_view name) const;
  /// The request named whose id is `id`, or null (the one an answer answers).
  const Named* NamedWithId(const rapidjson::Value& id) const;

  /// A frame an expect took under `as: NAME`; a plugin request is also kept for an `answer`.
  void Capture(const std::string& as, const session::Inbound& in);
  /// The frame captured as `name`, or null.
  const rapidjson::Document* Captured(const std::string& name) const;
  /// The plugin request captured as `name` and not yet answered by a step, or null.
  const session::Inbound* CapturedRequest(const std::string& name) const;
  /// An `answer` step answered it: it is no longer pending.
  void Answered(const std::string& name) { captured_requests_.erase(name); }

  /// The for_each item being played (null: none), with its required arguments sampled by type
  /// for ${item_args}.
  void SetItem(const rapidjson::Value* item);

  /// The value at a template's path ("item.id", "list.result.tools.0", "call.params.name"), or
  /// null when nothing is bound there.
  const rapidjson::Value* Lookup(std::string_view path) const;

 private:
  rapidjson::Document vars_;
  std::map<std::string, Named, std::less<>> named_;
  std::map<std::string, std::shared_ptr<rapidjson::Document>, std::less<>> captures_;
  std::map<std::string, session::Inbound, std::less<>> captured_requests_;
  const rapidjson::Value* item_ = nullptr;
  rapidjson::Document item_args_;
};

}  // namespace fakehost::interpreter
