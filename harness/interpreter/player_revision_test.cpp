// The player and protocol revisions: a scenario's cites settled on the revision the plugin's
// handshake answer names, its level the keyword of the sentence cited for that revision, and
// not applicable under a revision it cites nothing of, one fakehost does not know, or one other
// than --revision asks for.
#include "harness/interpreter/player_test_support.hpp"

namespace fakehost::interpreter {
namespace {

using namespace player_testing;  // NOLINT: the fixture and the scripted plugins

class RevisionPlayerTest : public PlayerTest {
 protected:
  // The RIM profile, given revisions "dev.rev.r1" and "dev.rev.r2" named at the handshake
  // answer's /result/pluginId (RIM has one revision; the plugin's id stands in for a revision
  // name, so the Accepting plugin given the id "dev.rev.r1" speaks dev.rev.r1).
  void SetUp() override {
    PlayerTest::SetUp();
    WithRevisions(R"({"label": "RIM", "negotiated": "/result/pluginId", "offer": "dev.rev.r2",
                      "known": [{"name": "dev.rev.r1"}, {"name": "dev.rev.r2"}]})");
  }

  // The RIM profile with `revisions` (JSON) as its member revisions.
  void WithRevisions(const char* revisions) {
    std::string path = kSource + "/schema/rim-v1/profile.json";
    rapidjson::Document d;
    ASSERT_TRUE(json::Parse(ReadFile(path), &d).ok);
    rapidjson::Document r;
    ASSERT_TRUE(json::Parse(revisions, &r).ok) << revisions;
    d.AddMember("revisions", rapidjson::Value(r, d.GetAllocator()), d.GetAllocator());
    std::string error;
    profile_ = protocol::Profile::LoadText(json::ToCompact(d), path, &error);
    ASSERT_TRUE(profile_) << error;
    ASSERT_NE(profile_->revisions(), nullptr);
  }

  // A plugin that speaks `revision` (its handshake answer names it).
  Script Speaking(const std::string& revision) {
    target_.id = revision;
    return Accepting(revision);
  }
};

// dev.rev.r1's sentence is a SHOULD, dev.rev.r2's a MUST; the step after the handshake misses
// against any plugin.
const std::string kCited = R"(title: t
cites:
  - revisions: [dev.rev.r1]
    section: "Old › Pings"
    sentence: "A plugin SHOULD answer the ping."
  - revisions: [dev.rev.r2]
    section: "New › Pings"
    sentence: "A plugin MUST answer the ping."
requirement: r
steps:
  - use: handshake
  - expect_none: {notification: fakehost.never}
    for: 20ms
  - expect: {notification: fakehost.never}
    within: 50ms
)";

TEST_F(RevisionPlayerTest, TheLevelIsTheKeywordOfTheSentenceCitedForTheRevisionAnswered) {
  ScenarioResult r2 = Play(kCited, Speaking("dev.rev.r2"));
  EXPECT_EQ(r2.status, Status::kFail);
  EXPECT_EQ(r2.revision, "dev.rev.r2");
  EXPECT_EQ(r2.level, Level::kMust);
  EXPECT_EQ(r2.spec, "RIM dev.rev.r2, New › Pings");
  EXPECT_EQ(r2.sentence, "A plugin MUST answer the ping.");
  ScenarioResult r1 = Play(kCited, Speaking("dev.rev.r1"));
  EXPECT_EQ(r1.status, Status::kWarn) << "dev.rev.r1's sentence is a SHOULD";
  EXPECT_EQ(r1.revision, "dev.rev.r1");
  EXPECT_EQ(r1.spec, "RIM dev.rev.r1, Old › Pings");
  ASSERT_FALSE(r1.failures.empty());
  EXPECT_EQ(r1.failures.back().level, Level::kShould);
}

TEST_F(RevisionPlayerTest, ARevisionTheScenarioCitesNothingOfIsNotApplicable) {
  std::string only_r2 = kCited;
  only_r2.erase(
      only_r2.find("  - revisions: [dev.rev.r1]"),
      only_r2.find("  - revisions: [dev.rev.r2]") - only_r2.find("  - revisions: [dev.rev.r1]"));
  ScenarioResult r = Play(only_r2, Speaking("dev.rev.r1"));
  EXPECT_EQ(r.status, Status::kSkip);
  EXPECT_TRUE(r.failures.empty());
  EXPECT_NE(r.skip_reason.find("speaks RIM dev.rev.r1"), std::string::npos) << r.skip_reason;
  EXPECT_EQ(Received("rim.handshake"), 1u) << "the handshake answer decided it";
}

TEST_F(RevisionPlayerTest, ARevisionFakehostDoesNotKnowIsNotApplicableWithTheReason) {
  ScenarioResult r = Play(kCited, Speaking("dev.rev.r9"));
  EXPECT_EQ(r.status, Status::kSkip);
  EXPECT_NE(r.skip_reason.find(
                "'dev.rev.r9', which fakehost does not know (it knows dev.rev.r1, dev.rev.r2)"),
            std::string::npos)
      << r.skip_reason;
}

TEST_F(RevisionPlayerTest, ARevisionAskedForIsOfferedAndRequired) {
  revision_ = "dev.rev.r1";
  std::string offered;
  std::string yaml = kCited;
  yaml.replace(yaml.find("  - expect_none"), std::string::npos,
               "  - expect_none: {notification: \"${revision.offered}\"}\n    for: 20ms\n");
  ScenarioResult other = Play(yaml, Speaking("dev.rev.r2"));
  EXPECT_EQ(other.status, Status::kSkip);
  EXPECT_NE(other.skip_reason.find(
                "--revision dev.rev.r1 was asked for, and the plugin answered dev.rev.r2"),
            std::string::npos)
      << other.skip_reason;
  ScenarioResult same = Play(yaml, Speaking("dev.rev.r1"));
  EXPECT_EQ(same.status, Status::kPass) << (same.failures.empty() ? "" : same.failures[0].message);
  EXPECT_EQ(same.revision, "dev.rev.r1");
  // A scenario that cites nothing of the revision asked for is not applicable before the spawn.
  received_.clear();
  revision_ = "dev.rev.r3";
  std::string only_r2 = kCited;
  only_r2.erase(
      only_r2.find("  - revisions: [dev.rev.r1]"),
      only_r2.find("  - revisions: [dev.rev.r2]") - only_r2.find("  - revisions: [dev.rev.r1]"));
  revision_ = "dev.rev.r1";
  ScenarioResult none = Play(only_r2, Speaking("dev.rev.r1"));
  EXPECT_EQ(none.status, Status::kSkip);
  EXPECT_EQ(Received("rim.handshake"), 0u) << "nothing was spawned";
}

TEST_F(RevisionPlayerTest, AScenarioJudgedByTheRevisionOfferedIsPlayedWhateverIsAnswered) {
  std::string yaml = kCited;
  yaml.replace(yaml.find("requirement:"), 0, "judged_by: offered\n");
  ScenarioResult r = Play(yaml, Speaking("dev.rev.r9"));
  EXPECT_EQ(r.status, Status::kFail) << r.skip_reason;
  EXPECT_EQ(r.revision, "dev.rev.r2") << "judged by the revision offered";
  EXPECT_EQ(r.level, Level::kMust);
  // Another known revision than --revision asks for ends it, as it ends every scenario.
  revision_ = "dev.rev.r1";
  ScenarioResult other = Play(yaml, Speaking("dev.rev.r2"));
  EXPECT_EQ(other.status, Status::kSkip);
  EXPECT_NE(other.skip_reason.find("the plugin answered dev.rev.r2"), std::string::npos)
      << other.skip_reason;
}

TEST_F(RevisionPlayerTest, AnErrorAnswerSettlesNothingAndTheHandshakeJudgesIt) {
  ScenarioResult r = Play(kCited, [](const rapidjson::Document& m) -> std::vector<std::string> {
    const rapidjson::Value* id = json::Find(m, "id");
    if (!id) return {};  // the teardown's shutdown notification
    return {R"({"jsonrpc":"2.0","id":)" + json::ToCompact(*id) +
            R"(,"error":{"code":-32602,"message":"no"}})"};
  });
  EXPECT_EQ(r.status, Status::kFail);
  EXPECT_EQ(r.revision, "dev.rev.r2") << "the revision offered";
}

// The profile given a revision without a handshake ("dev.rev.r3", whose requests carry
// params._meta) and a probe; the frame schema left out (RIM's knows no _meta).
class HandshakelessPlayerTest : public RevisionPlayerTest {
 protected:
  void SetUp() override {
    PlayerTest::SetUp();
    WithRevisions(R"({"label": "RIM", "negotiated": "/result/pluginId", "offer": "dev.rev.r2",
        "known": [{"name": "dev.rev.r2"},
                  {"name": "dev.rev.r3", "handshake": false, "request_members": {
                    "/params/_meta": {"version": "${revision.offered}", "host": "${host.version}"}}}],
        "probe": {"method": "rim.discover", "listed": "/result/versions", "within_ms": 500}})");
    schema_.reset();
  }
};

// A step that checks the plugin and passes with the Accepting plugin.
const std::string kQuietCheck = "  - expect_none: {notification: fakehost.never}\n    for: 50ms\n";

const std::string kHandshakeless = R"(title: t
cites:
  - revisions: [dev.rev.r3]
    section: "New › Commands"
    sentence: "A plugin MUST answer a command."
requirement: r
steps:
  - send:
      method: rim.command.execute
      params: {commandId: x, _meta: {host: mine}}
    as: command
  - expect: {reply_to: command}
    within: 200ms
)";

TEST_F(HandshakelessPlayerTest, ARevisionTheProbeListedIsPlayedWithoutHandshakeAndItsMembers) {
  target_.probe = {true, true, {"dev.rev.r3"}, "rim.discover listed dev.rev.r3", nullptr};
  ScenarioResult r = Play(kHandshakeless, Accepting());
  EXPECT_EQ(r.revision, "dev.rev.r3");
  EXPECT_EQ(Received("rim.handshake"), 0u) << "no handshake under a revision without one";
  ASSERT_EQ(Received("rim.command.execute"), 1u);
  const std::string sent = *std::find_if(received_.begin(), received_.end(), [](auto& p) {
    return p.find("rim.command.execute") != std::string::npos;
  });
  EXPECT_NE(sent.find(R"("_meta":{"host":"mine","version":"dev.rev.r3"})"), std::string::npos)
      << "the step's member kept, the revision's added: " << sent;
  // Nothing the plugin sends is "before the handshake": the unanswered command is the failure.
  ASSERT_FALSE(r.failures.empty());
  EXPECT_EQ(r.failures[0].check, "step");
}

TEST_F(HandshakelessPlayerTest, AScenarioCitingNothingIsPlayedWithTheHandshake) {
  // A user's or the fuzzer's scenario, written for the handshake, against a plugin that lists
  // the revision without one too.
  target_.probe = {true, true, {"dev.rev.r3", "dev.rev.r2"}, "listed both", nullptr};
  ScenarioResult r = Play(AfterHandshake(kQuietCheck), Speaking("dev.rev.r2"));
  EXPECT_EQ(r.revision, "dev.rev.r2");
  EXPECT_EQ(Received("rim.handshake"), 1u);
}

TEST_F(HandshakelessPlayerTest, ARevisionTheProbeDidNotListIsNotApplicable) {
  target_.probe = {
      true, false, {}, "rim.discover answered with an error: no revision listed", nullptr};
  ScenarioResult r = Play(kHandshakeless, Accepting());
  EXPECT_EQ(r.status, Status::kSkip);
  EXPECT_NE(r.skip_reason.find("lists none of them (rim.discover answered with an error"),
            std::string::npos)
      << r.skip_reason;
  EXPECT_TRUE(received_.empty()) << "nothing was spawned";
}

TEST_F(HandshakelessPlayerTest, AHandshakeScenarioIsNotApplicableToAPluginListingOnlyTheOthers) {
  target_.probe = {true, true, {"dev.rev.r3"}, "rim.discover listed dev.rev.r3", nullptr};
  ScenarioResult legacy = Play(kCited, Speaking("dev.rev.r2"));
  EXPECT_EQ(legacy.status, Status::kSkip);
  EXPECT_NE(legacy.skip_reason.find("speaks only revisions without a handshake"), std::string::npos)
      << legacy.skip_reason;
  // Listing one with a handshake too (a dual-era plugin), it is played.
  target_.probe = {true, true, {"dev.rev.r3", "dev.rev.r2"}, "listed both", nullptr};
  ScenarioResult dual = Play(kCited, Speaking("dev.rev.r2"));
  EXPECT_EQ(dual.status, Status::kFail) << dual.skip_reason;
  EXPECT_EQ(dual.revision, "dev.rev.r2");
}

}  // namespace
}  // namespace fakehost::interpreter
