// The player and what a plugin announces in its handshake answer: requires {announced: ...} and
// {not_announced: ...} settled on that answer, and for_each over a list the plugin returned.
#include "harness/interpreter/player_test_support.hpp"

namespace fakehost::interpreter {
namespace {

using namespace player_testing;  // NOLINT: the fixture and the scripted plugins

class AnnouncedPlayerTest : public PlayerTest {
 protected:
  // The RIM profile, told that a plugin announces what it has in its handshake answer's result
  // (RIM itself does not: its plugins declare in the manifest).
  void AnnouncesInResult() {
    std::string path = kSource + "/schema/rim-v1/profile.json";
    rapidjson::Document d;
    ASSERT_TRUE(json::Parse(ReadFile(path), &d).ok);
    d["handshake"].AddMember("announcements", "/result", d.GetAllocator());
    std::string error;
    profile_ = protocol::Profile::LoadText(json::ToCompact(d), path, &error);
    ASSERT_TRUE(profile_) << error;
    ASSERT_NE(profile_->announcements_pointer(), nullptr);
  }
};

// After the handshake, one command the Accepting plugin never answers: a scenario that got as
// far as sending it would fail (unanswered), so a pass or a skip shows where the steps stopped.
const std::string kUnansweredCommand = R"(  - send:
      method: rim.command.execute
      params: {commandId: sync, args: {}, invoker: "${principal}", initiator: user, confirmed: false}
    as: command
  - expect: {reply_to: command}
    within: 300ms
)";

// A step that checks the plugin and passes with the Accepting plugin: nothing it never sends.
const std::string kQuietCheck = "  - expect_none: {notification: fakehost.never}\n    for: 50ms\n";

std::string Requiring(const std::string& requirement, const std::string& steps) {
  std::string yaml = AfterHandshake(steps);
  yaml.replace(yaml.find("steps:"), 6, "requires: [" + requirement + "]\nsteps:");
  return yaml;
}

TEST_F(AnnouncedPlayerTest, AnUnmetAnnouncedRequirementEndsTheScenarioAsNotApplicable) {
  AnnouncesInResult();
  ScenarioResult r =
      Play(Requiring("{announced: /capabilities/tools}", kUnansweredCommand), Accepting());
  EXPECT_EQ(r.status, Status::kSkip) << (r.failures.empty() ? "" : r.failures[0].message);
  EXPECT_TRUE(r.failures.empty());
  EXPECT_NE(r.skip_reason.find("/capabilities/tools"), std::string::npos) << r.skip_reason;
  EXPECT_EQ(Received("rim.handshake"), 1u) << "the handshake is played: its answer decides";
  EXPECT_EQ(Received("rim.command.execute"), 0u) << "no step after the handshake answer ran";
  EXPECT_EQ(Received("rim.shutdown"), 1u) << "the scenario ends with the teardown sequence";
  // The handshake as the last step: its answer settles the scenario all the same.
  ScenarioResult last = Play(Requiring("{announced: /capabilities/tools}", ""), Accepting());
  EXPECT_EQ(last.status, Status::kSkip);
  EXPECT_NE(last.skip_reason.find("/capabilities/tools"), std::string::npos) << last.skip_reason;
}

TEST_F(AnnouncedPlayerTest, AMetAnnouncedRequirementPlaysTheSteps) {
  AnnouncesInResult();
  ScenarioResult met = Play(Requiring("{announced: /accepted}", kUnansweredCommand), Accepting());
  EXPECT_EQ(met.status, Status::kFail) << "the steps after the handshake ran, and missed";
  EXPECT_EQ(Received("rim.command.execute"), 1u);
  received_.clear();
  ScenarioResult passes = Play(Requiring("{announced: /accepted}", kQuietCheck), Accepting());
  EXPECT_EQ(passes.status, Status::kPass)
      << passes.skip_reason << (passes.failures.empty() ? "" : passes.failures[0].message);
}

TEST_F(AnnouncedPlayerTest, NotAnnouncedIsTheInverse) {
  AnnouncesInResult();
  ScenarioResult announced =
      Play(Requiring("{not_announced: /accepted}", kUnansweredCommand), Accepting());
  EXPECT_EQ(announced.status, Status::kSkip);
  EXPECT_NE(announced.skip_reason.find("/accepted"), std::string::npos) << announced.skip_reason;
  ScenarioResult absent =
      Play(Requiring("{not_announced: /capabilities/tools}", kQuietCheck), Accepting());
  EXPECT_EQ(absent.status, Status::kPass) << absent.skip_reason;
}

TEST_F(AnnouncedPlayerTest, AnAnnouncedRequirementWithoutTheProfilesPointerIsAScenarioError) {
  // The RIM profile names no handshake.announcements.
  ScenarioResult r = Play(Requiring("{announced: /accepted}", kQuietCheck), Accepting());
  EXPECT_EQ(r.status, Status::kError);
  ASSERT_FALSE(r.failures.empty());
  EXPECT_TRUE(r.failures[0].harness_error);
  EXPECT_EQ(Received("rim.handshake"), 0u) << "nothing was spawned";
}

TEST_F(AnnouncedPlayerTest, AMissingTriggerOfAScenarioThatDoesNotApplyIsNotApplicableNotUntested) {
  AnnouncesInResult();
  const std::string steps =
      "  - send: {trigger: never_given}\n    as: t\n  - expect: {reply_to: t}\n";
  ScenarioResult unmet = Play(Requiring("{announced: /capabilities/tools}", steps), Accepting());
  EXPECT_EQ(unmet.status, Status::kSkip) << unmet.skip_reason;
  ScenarioResult met = Play(Requiring("{announced: /accepted}", steps), Accepting());
  EXPECT_EQ(met.status, Status::kUntested) << met.skip_reason;
  EXPECT_NE(met.skip_reason.find("never_given"), std::string::npos) << met.skip_reason;
}

TEST_F(AnnouncedPlayerTest, AForEachOverACapturedListRunsOncePerItemTheFrameHeld) {
  ShortDeadlines(/*default_ms=*/200, /*command_ms=*/3000);
  std::string yaml = AfterHandshake(R"(  - send:
      method: rim.command.execute
      params: {commandId: list, args: {}, invoker: "${principal}", initiator: user, confirmed: false}
    as: ask
  - expect: {reply_to: ask}
    as: list
  - for_each:
      items: "${list.result.payload}"
      where: {skip: {$not: true}}
      steps:
        - send:
            method: rim.command.execute
            params: {commandId: "${item.id}", args: {}, invoker: "${principal}", initiator: user, confirmed: false}
          as: command
        - expect: {reply_to: command, result: {payload: "${item.id}"}}
)");
  // Each item's command is answered 600 ms late: three of them outlast a 1 s hard limit, which
  // each item gets anew, as a manifest item does.
  yaml.replace(yaml.find("steps:"), 6, "timeout: 1s\nsteps:");
  std::vector<std::string> commands;
  ScenarioResult r = Play(yaml, [&](const rapidjson::Document& m) {
    if (!IsCommand(m)) return Accepting()(m);
    const std::string id = m["params"]["commandId"].GetString();
    const std::string reply_id = json::ToCompact(m["id"]);
    if (id == "list")
      return std::vector<std::string>{
          R"({"jsonrpc":"2.0","id":)" + reply_id +
          R"(,"result":{"payload":[{"id":"a"},{"id":"b","skip":true},{"id":"c"},{"id":"d"}]}})"};
    commands.push_back(id);
    Later(600,
          R"({"jsonrpc":"2.0","id":)" + reply_id + R"(,"result":{"payload":")" + id + R"("}})");
    return std::vector<std::string>{};
  });
  EXPECT_EQ(r.status, Status::kPass) << (r.failures.empty() ? "" : r.failures[0].message);
  EXPECT_EQ(commands, (std::vector<std::string>{"a", "c", "d"}));
}

TEST_F(AnnouncedPlayerTest, AForEachOverACapturedFrameWithoutTheListMisses) {
  std::string yaml = AfterHandshake(R"(  - send:
      method: rim.command.execute
      params: {commandId: list, args: {}, invoker: "${principal}", initiator: user, confirmed: false}
    as: ask
  - expect: {reply_to: ask}
    as: list
  - for_each:
      items: "${list.result.payload}"
      steps:
        - sleep: 1ms
)");
  ScenarioResult r = Play(yaml, [&](const rapidjson::Document& m) {
    if (!IsCommand(m)) return Accepting()(m);
    return std::vector<std::string>{R"({"jsonrpc":"2.0","id":)" + json::ToCompact(m["id"]) +
                                    R"(,"result":{"payload":"not a list"}})"};
  });
  EXPECT_EQ(r.status, Status::kFail);
  ASSERT_FALSE(r.failures.empty());
  EXPECT_EQ(r.failures[0].step_kind, "for_each");
  EXPECT_EQ(r.failures[0].reason, Reason::kWrongContent);
}

}  // namespace
}  // namespace fakehost::interpreter
