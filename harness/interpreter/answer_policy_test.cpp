// The answer policy read off a loaded scenario: which requests the fake host holds or scripts,
// and why. Nothing is spawned.
#include "harness/interpreter/answer_policy.hpp"

#include <gtest/gtest.h>

#include "harness/json/json.hpp"
#include "harness/scenario/loader.hpp"

namespace fakehost::interpreter {
namespace {

// Loads a scenario whose `host:` block (may be "") comes before its steps, which start on
// line 5 when there is no host block.
scenario::Scenario Load(const std::string& host, const std::string& steps) {
  scenario::Scenario scenario;
  std::vector<scenario::LoadError> errors;
  EXPECT_TRUE(
      scenario::LoadScenarioText("title: T\nspec: S\nrequirement: R\n" + host + "steps:\n" + steps,
                                 "s.yaml", "s", {}, &scenario, &errors))
      << (errors.empty() ? "" : errors[0].ToString());
  return scenario;
}

// "hold (reason)" or "<reply> (reason)" for `method`, "" when the policy does not name it.
std::string RuleFor(const protocol::AnswerPolicy& policy, const std::string& method) {
  auto it = policy.by_method.find(method);
  if (it == policy.by_method.end()) return "";
  const auto& rule = it->second;
  std::string what = rule.hold ? "hold" : rule.reply ? json::ToCompact(*rule.reply) : "nothing";
  return what + " (" + rule.reason + ")";
}

TEST(AnswerPolicyFor, NamesNothingForAScenarioThatLeavesEveryAnswerToTheHost) {
  protocol::AnswerPolicy policy = AnswerPolicyFor(Load("",
                                                       "  - send: {method: rim.heartbeat}\n"
                                                       "    as: hb\n"
                                                       "  - expect: {request: rim.log}\n"
                                                       "  - expect: {reply_to: hb}\n"));
  EXPECT_TRUE(policy.by_method.empty());
}

TEST(AnswerPolicyFor, TakesTheHostBlocksRepliesAndHolds) {
  protocol::AnswerPolicy policy =
      AnswerPolicyFor(Load("host:\n  replies:\n"
                           "    \"*\": hold\n"
                           "    rim.chat.read: {result: {messages: []}}\n",
                           "  - expect: {request: rim.chat.read}\n"));
  EXPECT_EQ(policy.by_method.size(), 2u);
  EXPECT_EQ(RuleFor(policy, "*"), "hold (its host: block)");
  EXPECT_EQ(RuleFor(policy, "rim.chat.read"), R"({"result":{"messages":[]}} (its host: block))");
}

TEST(AnswerPolicyFor, HoldsWhatAnExpectRepliesToNamingTheStep) {
  protocol::AnswerPolicy policy = AnswerPolicyFor(Load("",
                                                       "  - expect: {request: rim.chat.read}\n"
                                                       "    reply: {result: {messages: []}}\n"));
  EXPECT_EQ(RuleFor(policy, "rim.chat.read"), "hold (the expect at s.yaml:5 replies to it)");
}

TEST(AnswerPolicyFor, HoldsWhatAnExpectCapturesForALaterAnswerStepNamingTheAnswer) {
  protocol::AnswerPolicy policy = AnswerPolicyFor(Load("",
                                                       "  - expect: {request: \"*\"}\n"
                                                       "    as: call\n"
                                                       "  - expect: {request: rim.log}\n"
                                                       "    as: logged\n"
                                                       "  - answer: {to: call, result: {}}\n"));
  EXPECT_EQ(RuleFor(policy, "*"), "hold (the answer at s.yaml:9 answers it)");
  // A capture no answer step replies to is the host's to answer.
  EXPECT_EQ(RuleFor(policy, "rim.log"), "");
}

TEST(AnswerPolicyFor, LooksInsideForEach) {
  protocol::AnswerPolicy policy =
      AnswerPolicyFor(Load("",
                           "  - for_each:\n"
                           "      items: /commands\n"
                           "      steps:\n"
                           "        - expect: {request: rim.chat.read}\n"
                           "          reply: {result: {}}\n"));
  EXPECT_EQ(RuleFor(policy, "rim.chat.read"), "hold (the expect at s.yaml:8 replies to it)");
}

TEST(AnswerPolicyFor, AStepThatAnswersAMethodWinsOverTheHostBlockAndTheFirstStepGivesTheReason) {
  protocol::AnswerPolicy policy =
      AnswerPolicyFor(Load("host:\n  replies:\n    rim.chat.read: {result: {messages: []}}\n",
                           "  - expect: {request: rim.chat.read}\n"
                           "    reply: {result: {first: true}}\n"
                           "  - expect: {request: rim.chat.read}\n"
                           "    reply: {result: {second: true}}\n"));
  EXPECT_EQ(RuleFor(policy, "rim.chat.read"), "hold (the expect at s.yaml:8 replies to it)");
}

}  // namespace
}  // namespace fakehost::interpreter
