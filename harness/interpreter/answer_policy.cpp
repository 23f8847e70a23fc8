#include "harness/interpreter/answer_policy.hpp"

#include <filesystem>
#include <map>
#include <set>
#include <utility>
#include <variant>
#include <vector>

namespace fakehost::scenario {
namespace {

// A step as the fake host's note names it: file name and line, without the directories, so
// that transcripts of one suite compare equal across checkouts.
std::string Where(const Step& s) {
  return std::filesystem::path(s.loc.file).filename().string() + ":" + std::to_string(s.loc.line);
}

}  // namespace

protocol::AnswerPolicy AnswerPolicyFor(const Scenario& scenario) {
  protocol::AnswerPolicy policy;
  for (const auto& [method, reply] : scenario.host_replies) {
    if (reply.kind == HostReply::Kind::kHold)
      policy.by_method[method] = {true, nullptr, "its host: block"};
    else if (reply.reply)
      policy.by_method[method] = {false, reply.reply, "its host: block"};
  }
  // An `answer` step comes after the `expect` that captures its request: find them all first.
  std::map<std::string, const Step*> answers;  // capture name -> the first answer step
  std::vector<std::pair<const Step*, const Expect*>> requests;  // expects of a plugin request
  // Only these answer (or hold) what the plugin asks its host: an answer step, and an expect of
  // a plugin request (with its reply, or captured for an answer).
  VisitSteps(scenario.steps, [&](const Step& s) {
    if (const auto* a = std::get_if<Answer>(&s.body)) answers.emplace(a->to, &s);
    if (const auto* e = std::get_if<Expect>(&s.body); e && e->filter.kind == Filter::Kind::kRequest)
      requests.emplace_back(&s, e);
  });
  std::set<std::string> held_by_steps;
  for (const auto& [step, e] : requests) {
    const Step& s = *step;
    std::string reason;
    if (e->reply) {
      reason = "the " + s.kind + " at " + Where(s) + " replies to it";
    } else if (auto it = answers.find(e->as); it != answers.end()) {
      reason = "the " + it->second->kind + " at " + Where(*it->second) + " answers it";
    } else {
      continue;
    }
    if (held_by_steps.insert(e->filter.name).second)
      policy.by_method[e->filter.name] = {true, nullptr, std::move(reason)};
  }
  return policy;
}

}  // namespace fakehost::scenario
