// The always-on rules on facts alone: no session, no process.
#include "harness/session/rules.hpp"

#include <gtest/gtest.h>

#include "harness/protocol/registry.hpp"

namespace fakehost::session {
namespace {

std::unique_ptr<protocol::Profile> Load(const char* protocol) {
  std::string error;
  auto profile = protocol::Profile::Load(
      std::string(FAKEHOST_SOURCE_DIR) + "/schema/" + protocol + "/profile.json", &error);
  EXPECT_TRUE(profile) << error;
  return profile;
}

// A parsed frame and the facts the rules see of it.
struct Parsed {
  explicit Parsed(const protocol::Profile& profile, std::string_view text) {
    parsed = json::Parse(text, &doc);
    if (parsed.ok) classified = profile.Classify(doc);
    facts.frame = 3;
    facts.parsed = &parsed;
    facts.classified = parsed.ok ? &classified : nullptr;
    facts.method = classified.method;
  }
  rapidjson::Document doc;
  json::ParseResult parsed;
  protocol::Classified classified;
  FrameFacts facts;
};

std::vector<std::string> Checks(const std::vector<result::Finding>& findings) {
  std::vector<std::string> ids;
  for (const auto& f : findings) ids.push_back(f.check);
  return ids;
}

using Ids = std::vector<std::string>;

TEST(FrameRules, AFrameThatIsNotJsonRaisesOnlyNotJson) {
  auto profile = Load("rim-v1");
  Parsed p(*profile, "{nope");
  std::vector<result::Finding> found = RunFrameRules(*profile, p.facts);
  ASSERT_EQ(Checks(found), Ids{"not-json"});
  EXPECT_EQ(found[0].frame, 3u);
  EXPECT_EQ(found[0].severity, result::Severity::kMust);
  EXPECT_EQ(found[0].message.rfind("frame #3 is not valid JSON", 0), 0u) << found[0].message;
}

TEST(FrameRules, EachRepeatedKeyIsAShouldFinding) {
  auto profile = Load("rim-v1");
  Parsed p(*profile, R"({"jsonrpc":"2.0","method":"rim.log","method":"rim.log","params":{}})");
  p.facts.handshake_answered = true;
  std::vector<result::Finding> found = RunFrameRules(*profile, p.facts);
  ASSERT_EQ(Checks(found), Ids{"duplicate-key"});
  EXPECT_EQ(found[0].severity, result::Severity::kShould);
}

TEST(FrameRules, AnInvalidEnvelopeIsNotJudgedForItsOrder) {
  auto profile = Load("rim-v1");
  Parsed p(*profile, R"({"jsonrpc":"2.0","params":{}})");
  p.facts.shutdown_sent = true;  // handshake not answered either
  EXPECT_EQ(Checks(RunFrameRules(*profile, p.facts)), Ids{"invalid-envelope"});
}

// A plugin request that reuses the id of an earlier one of its own (the session found it, under
// the profile's ids.plugin_unique): must-level, worded by the text of the revision in play.
TEST(FrameRules, APluginRequestReusingItsOwnIdIsAMustFindingInTheRevisionsWords) {
  auto profile = Load("mcp-stdio");
  ASSERT_TRUE(profile->plugin_ids_unique());
  Parsed p(*profile, R"({"jsonrpc":"2.0","id":1,"method":"roots/list"})");
  p.facts.handshake_answered = true;
  EXPECT_EQ(Checks(RunFrameRules(*profile, p.facts)), Ids{});
  p.facts.reuses_id_of = 2;
  p.facts.revision = "2024-11-05";
  std::vector<result::Finding> found = RunFrameRules(*profile, p.facts);
  ASSERT_EQ(Checks(found), Ids{"reused-request-id"});
  EXPECT_EQ(found[0].severity, result::Severity::kMust);
  EXPECT_NE(found[0].message.find("line #3 is a request with id 1, which the server's own request "
                                  "on line #2 already used"),
            std::string::npos)
      << found[0].message;
  EXPECT_NE(found[0].message.find("(MCP 2024-11-05, Basic › Messages › Requests)"),
            std::string::npos)
      << found[0].message;
  p.facts.revision = "2026-07-28";
  found = RunFrameRules(*profile, p.facts);
  ASSERT_EQ(Checks(found), Ids{"reused-request-id"});
  EXPECT_NE(found[0].message.find("'The server MUST NOT write JSON-RPC requests to stdout'"),
            std::string::npos)
      << found[0].message;
  // A profile that does not turn the rule on neither words nor raises it.
  EXPECT_FALSE(Load("rim-v1")->plugin_ids_unique());
}

// A notification the profile guards (MCP: a log needs the logging capability) is a must-level
// finding once the announcements are known and lack what it needs; before, it is not judged.
TEST(FrameRules, ANotificationThePluginDidNotAnnounceIsAMustFinding) {
  auto profile = Load("mcp-stdio");
  Parsed p(*profile, R"({"jsonrpc":"2.0","method":"notifications/message",)"
                     R"("params":{"level":"info","data":"x"}})");
  p.facts.handshake_answered = true;
  EXPECT_EQ(Checks(RunFrameRules(*profile, p.facts)), Ids{}) << "nothing announced yet";
  rapidjson::Document tools_only, logging;
  ASSERT_TRUE(json::Parse(R"({"capabilities":{"tools":{}}})", &tools_only).ok);
  ASSERT_TRUE(json::Parse(R"({"capabilities":{"tools":{},"logging":{}}})", &logging).ok);
  p.facts.announced = &logging;
  EXPECT_EQ(Checks(RunFrameRules(*profile, p.facts)), Ids{});
  p.facts.announced = &tools_only;
  p.facts.revision = "2024-11-05";
  std::vector<result::Finding> found = RunFrameRules(*profile, p.facts);
  ASSERT_EQ(Checks(found), Ids{"unannounced-notification"});
  EXPECT_EQ(found[0].severity, result::Severity::kMust);
  EXPECT_EQ(found[0].message,
            "line #3 is a notifications/message notification, but the server announced no "
            "/capabilities/logging: 'Servers that emit log message notifications MUST declare the "
            "logging capability' (MCP 2024-11-05, Server Features › Utilities › Logging › "
            "Capabilities)");
}

TEST(FrameRules, EveryWrongReplyIdHasItsOwnCheck) {
  auto profile = Load("rim-v1");
  Parsed p(*profile, R"({"jsonrpc":"2.0","id":2,"result":{}})");
  p.facts.handshake_answered = true;
  PendingRequest request{0, "rim.command.execute", "2", {}, 1};
  Correlator::Reply reply;
  reply.request = &request;
  p.facts.reply = &reply;
  const std::pair<Correlator::Case, const char*> cases[] = {
      {Correlator::Case::kNullId, "null-reply-id"},
      {Correlator::Case::kBadIdType, "bad-reply-id"},
      {Correlator::Case::kIdTypeChanged, "reply-id-type"},
      {Correlator::Case::kUnknownId, "unknown-reply-id"},
      {Correlator::Case::kAnsweredTwice, "duplicate-reply"},
      {Correlator::Case::kNoId, "error-without-id"}};
  for (const auto& [what, check] : cases) {
    reply.what = what;
    EXPECT_EQ(Checks(ReplyIdRule(*profile, p.facts)), Ids{check}) << check;
  }
  reply.what = Correlator::Case::kAnswers;
  EXPECT_TRUE(ReplyIdRule(*profile, p.facts).empty());
  reply.what = Correlator::Case::kEchoesNoise;
  EXPECT_TRUE(ReplyIdRule(*profile, p.facts).empty()) << "an echo of noise is not judged";
  reply.what = Correlator::Case::kAnswersUnreadable;
  EXPECT_TRUE(ReplyIdRule(*profile, p.facts).empty()) << "what could not be read may be answered";
}

// The severity is the data that decides it: the host's own invalid request makes the answer
// to it a warning, where the id of no request at all is a failure.
TEST(FrameRules, AnAnswerToTheHostsInvalidRequestWarnsAndAnUnknownIdFails) {
  auto profile = Load("flash-v1");
  Parsed p(*profile, R"({"id":3,"result":{"ok":true}})");
  p.facts.handshake_answered = true;
  Correlator::Reply reply;
  reply.what = Correlator::Case::kAnswersNoiseAsInteger;
  reply.noise_frame = 2;
  reply.noise_id = "3.0";
  p.facts.reply = &reply;
  std::vector<result::Finding> found = ReplyIdRule(*profile, p.facts);
  ASSERT_EQ(Checks(found), Ids{"reply-to-invalid-request"});
  EXPECT_EQ(found[0].severity, result::Severity::kShould);
  EXPECT_NE(found[0].message.find("line #3 answers id 3, the integer value of id 3.0 that line #2"),
            std::string::npos)
      << found[0].message;
  reply.what = Correlator::Case::kUnknownId;
  found = ReplyIdRule(*profile, p.facts);
  ASSERT_EQ(Checks(found), Ids{"unknown-reply-id"});
  EXPECT_EQ(found[0].severity, result::Severity::kMust);
}

TEST(FrameRules, OnlyTheProfilesAllowedMethodsMayPrecedeTheHandshakeAnswer) {
  auto profile = Load("flash-v1");
  Parsed log(*profile, R"({"method":"log","params":{"level":"info","message":"x"}})");
  EXPECT_TRUE(BeforeHandshakeRule(*profile, log.facts).empty());
  Parsed status(*profile, R"({"method":"status","params":{}})");
  std::vector<result::Finding> found = BeforeHandshakeRule(*profile, status.facts);
  ASSERT_EQ(Checks(found), Ids{"before-handshake"});
  EXPECT_NE(found[0].message.find("frame #3 (notification status)"), std::string::npos);
  status.facts.handshake_answered = true;
  EXPECT_TRUE(BeforeHandshakeRule(*profile, status.facts).empty());
}

// A response is never "before the handshake" when it answers an open host request: the host
// asked for it (MCP lets a client ping while initialize is pending). Any other response is.
TEST(FrameRules, AnAnswerTheHostIsOwedIsNeverBeforeTheHandshake) {
  for (const std::string& name : protocol::ProtocolNames(FAKEHOST_SOURCE_DIR)) {
    auto profile = Load(name.c_str());
    ASSERT_TRUE(profile);
    Parsed answer(*profile, R"({"jsonrpc":"2.0","id":7,"result":{}})");
    ASSERT_EQ(answer.classified.kind, protocol::MessageKind::kResponse) << name;
    Correlator::Reply reply;
    answer.facts.reply = &reply;
    reply.what = Correlator::Case::kAnswers;
    EXPECT_TRUE(BeforeHandshakeRule(*profile, answer.facts).empty()) << name;
    for (Correlator::Case other :
         {Correlator::Case::kUnknownId, Correlator::Case::kAnsweredTwice,
          Correlator::Case::kEchoesNoise, Correlator::Case::kIdTypeChanged}) {
      reply.what = other;
      EXPECT_EQ(Checks(BeforeHandshakeRule(*profile, answer.facts)), Ids{"before-handshake"})
          << name << " case " << static_cast<int>(other);
    }
    answer.facts.reply = nullptr;
    EXPECT_EQ(Checks(BeforeHandshakeRule(*profile, answer.facts)), Ids{"before-handshake"}) << name;
  }
}

TEST(FrameRules, AfterShutdownNamesTheProfilesNotification) {
  auto profile = Load("rim-v1");
  Parsed p(*profile, R"({"jsonrpc":"2.0","method":"rim.log","params":{}})");
  EXPECT_TRUE(AfterShutdownRule(*profile, p.facts).empty());
  p.facts.shutdown_sent = true;
  std::vector<result::Finding> found = AfterShutdownRule(*profile, p.facts);
  ASSERT_EQ(Checks(found), Ids{"after-shutdown"});
  EXPECT_EQ(found[0].severity, result::Severity::kShould);
  EXPECT_NE(found[0].message.find("after rim.shutdown"), std::string::npos) << found[0].message;
}

TEST(FramingRules, ABigEndianHeaderIsDiagnosedAsSuch) {
  auto profile = Load("rim-v1");
  wire::Oversized o{0x10000000, 0, std::string("\x00\x00\x00\x10", 4)};
  result::Finding f = OversizedFinding(*profile, o, 0, "");
  EXPECT_EQ(f.check, "framing");
  EXPECT_NE(f.message.find("16"), std::string::npos) << f.message;
}

TEST(FramingRules, ACutByTheHostsTeardownIsWordedAsTheHosts) {
  auto profile = Load("rim-v1");
  wire::TruncatedAtEof t{0, 0, 2, {}};
  EXPECT_NE(TruncatedMessage(*profile, t, 5, false, "").find("2 of at least 4 bytes"),
            std::string::npos);
  EXPECT_NE(TruncatedMessage(*profile, t, 5, true, "").find("not a violation"), std::string::npos);
}

}  // namespace
}  // namespace fakehost::session
