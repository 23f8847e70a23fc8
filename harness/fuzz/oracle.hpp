// What counts as a finding, and which rule it breaks.
//
// The oracle is the interpreter's own verdict on a generated scenario: the always-on checks
// (framing, ids, schema validation of every plugin frame, order around the handshake and the
// shutdown), the owed answers (a request unanswered within its window is a hang, or the plugin's
// death when it is gone), and the graded shutdown. A plugin that answers a broken frame with an
// error, or ignores it, breaks nothing: only what the scenario would fail is a finding. Harness
// errors (a spawn that failed, a scenario the generator got wrong) are never findings.
#pragma once

#include <string>
#include <vector>

#include "harness/result/result.hpp"

namespace fakehost::protocol {
class Profile;
}

namespace fakehost::fuzz {

struct Finding {
  /// The rule broken: an always-on check id ("schema", "unknown-reply-id", ...), "no-answer"
  /// (a request not answered in time), "died" (the plugin exited, crashed or closed its stdout
  /// while an answer was owed) or "shutdown" (it did not exit in the shutdown's grace).
  std::string rule;
  result::Level level = result::Level::kMust;
  std::string message;  ///< the first failure's sentence
  /// rule and level: two findings with the same key are the same bug for the fuzzer.
  std::string Key() const { return rule + "/" + result::LevelName(level); }
};

/// The plugin's misses in `result`, one per rule and level, in the order they were reported.
std::vector<Finding> FindingsOf(const result::ScenarioResult& result);
/// True if `result` shows a finding with `key`.
bool Shows(const result::ScenarioResult& result, const std::string& key);
/// Harness errors in `result` (the first message), or "".
std::string HarnessError(const result::ScenarioResult& result);

/// A scenario's title, spec and requirement for a finding of `rule`, in the profile's words
/// where it has them (its check sections).
struct RuleText {
  std::string title, spec, requirement;
};
RuleText DescribeRule(const Finding& finding, const protocol::Profile& profile);

}  // namespace fakehost::fuzz
