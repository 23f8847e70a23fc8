#include "harness/interpreter/answer_policy.hpp"

#include <filesystem>
#include <map>
#include <set>
#include <utility>
#include <variant>
#include <vector>

namespace fakehost::interpreter {
namespace {

// A step as the fake host's note names it: file name and line, without the directories, so
// that transcripts of one suite compare equal across checkouts.
std::string Where(const scenario::Step& s) {
  return std::filesystem::path(s.loc.file).filename().string() + ":" + std::to_string(s.loc.line);
}

}  // namespace

protocol::AnswerPolicy AnswerPolicyFor(const scenario::Scenario& scenario) {
  protocol::AnswerPolicy policy;
  for (const auto& [method, reply] : scenario.host_replies) {
    if (reply.kind == scenario::HostReply::Kind::kHold)
      policy.by_method[method] = {true, nullptr, "its host: block"};
    else if (reply.reply)
      policy.by_method[method] = {false, reply.reply, "its host: block"};
  }
  // An `answer` step comes after the `expect` that captures its request: find them all first.
  std::map<std::string, const scenario::Step*> answers;  // capture name -> the first answer step
  std::vector<std::pair<const scenario::Step*, const scenario::Expect*>>
      requests;  // expects of a plugin request
  // Only these answer (or hold) what the plugin asks its host: an answer step, and an expect of
  // a plugin request (with its reply, or captured for an answer).
  scenario::VisitSteps(scenario.steps, [&](const scenario::Step& s) {
    if (const auto* a = std::get_if<scenario::Answer>(&s.body)) answers.emplace(a->to, &s);
    if (const auto* e = std::get_if<scenario::Expect>(&s.body);
        e && e->filter.kind == scenario::Filter::Kind::kRequest)
      requests.emplace_back(&s, e);
  });
  std::set<std::string> held_by_steps;
  for (const auto& [step, e] : requests) {
    const scenario::Step& s = *step;
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

}  // namespace fakehost::interpreter
