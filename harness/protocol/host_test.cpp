#include "harness/protocol/host.hpp"

#include <gtest/gtest.h>

#include "harness/json/json.hpp"

namespace fakehost::protocol {
namespace {

class HostResponderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    profile_ = Profile::Load("schema/rim-v1/profile.json", &error);
    ASSERT_TRUE(profile_) << error;
  }
  std::string Answer(HostResponder& h, const char* method,
                     HostResponder::Clock::time_point at = HostResponder::Clock::now()) {
    HostResponder::Answer a = h.Decide(method, nullptr, at);
    return a.hold ? "hold" : json::ToCompact(a.body);
  }
  // The host's handshake request, granting `caps` (a JSON array) as RIM's does.
  static rapidjson::Document Handshake(const char* caps) {
    rapidjson::Document frame;
    EXPECT_TRUE(json::Parse(std::string(R"({"jsonrpc":"2.0","id":1,"method":"rim.handshake",)") +
                                R"("params":{"grantedCapabilities":)" + caps + "}}",
                            &frame)
                    .ok);
    return frame;
  }
  std::unique_ptr<Profile> profile_;
};

TEST_F(HostResponderTest, AnswersRimLogRequestsWithOkTrue) {
  HostResponder h(*profile_);
  EXPECT_EQ(Answer(h, "rim.log"), R"({"result":{"ok":true}})");
}

TEST_F(HostResponderTest, AnswersUnknownMethodsWithMethodNotFoundNamingThem) {
  HostResponder h(*profile_);
  EXPECT_EQ(Answer(h, "rim.kube.config"),
            R"({"error":{"code":-32601,"message":"method not found: rim.kube.config"}})");
}

TEST_F(HostResponderTest, DeniesAGuardedMethodWithoutItsCapability) {
  HostResponder h(*profile_);
  EXPECT_EQ(Answer(h, "rim.ui.update_panel"),
            R"({"error":{"code":-32000,"message":"capability denied: ui.panel"}})");
  h.HandshakeSent(Handshake(R"(["ui.panel"])"));
  EXPECT_EQ(Answer(h, "rim.ui.update_panel"),
            R"({"error":{"code":-32601,"message":"method not found: rim.ui.update_panel"}})");
}

TEST_F(HostResponderTest, GrantsWhatTheHandshakeCarriesNotWhatTheManifestDeclares) {
  rapidjson::Document manifest;
  ASSERT_TRUE(json::Parse(R"({"capabilities":["chat.read"]})", &manifest).ok);
  HostResponder h(*profile_, &manifest);
  EXPECT_EQ(h.Decide("rim.chat.read", nullptr, HostResponder::Clock::now()).why,
            "capability chat.read not granted");
  h.HandshakeSent(Handshake(R"(["chat.read", 7])"));
  EXPECT_EQ(h.Decide("rim.chat.read", nullptr, HostResponder::Clock::now()).why,
            "granted, but not implemented by the fake host");
  EXPECT_EQ(h.Decide("rim.chat.write", nullptr, HostResponder::Clock::now()).why,
            "capability chat.write not granted");
}

TEST_F(HostResponderTest, AHandshakeWithoutTheListGrantsNothingAndRevokesNothing) {
  HostResponder h(*profile_);
  rapidjson::Document bare;
  ASSERT_TRUE(
      json::Parse(R"({"jsonrpc":"2.0","id":1,"method":"rim.handshake","params":{}})", &bare).ok);
  h.HandshakeSent(bare);
  EXPECT_EQ(h.Decide("rim.chat.read", nullptr, HostResponder::Clock::now()).why,
            "capability chat.read not granted");
  h.HandshakeSent(Handshake(R"(["chat.read"])"));
  h.HandshakeSent(bare);  // a deliberately odd second handshake
  EXPECT_EQ(h.Decide("rim.chat.read", nullptr, HostResponder::Clock::now()).why,
            "granted, but not implemented by the fake host");
  h.HandshakeSent(Handshake("[]"));
  EXPECT_EQ(h.Decide("rim.chat.read", nullptr, HostResponder::Clock::now()).why,
            "capability chat.read not granted");
}

TEST_F(HostResponderTest, RateLimitsTheHundredAndTwentyFirstCallInAMinute) {
  HostResponder h(*profile_);
  h.HandshakeSent(Handshake(R"(["ui.panel"])"));
  auto t0 = HostResponder::Clock::now();
  for (int i = 0; i < 120; ++i)
    EXPECT_EQ(Answer(h, "rim.ui.update_panel", t0).find("-32001"), std::string::npos) << i;
  EXPECT_NE(Answer(h, "rim.ui.update_panel", t0).find("-32001"), std::string::npos);
  // A minute later the window has moved on.
  EXPECT_EQ(Answer(h, "rim.ui.update_panel", t0 + std::chrono::seconds(61)).find("-32001"),
            std::string::npos);
}

TEST_F(HostResponderTest, ScenarioOverridesAndHoldsWin) {
  HostResponder h(*profile_);
  rapidjson::Document body;
  ASSERT_TRUE(json::Parse(R"({"result":{"kube":"ok"}})", &body).ok);
  h.Override("rim.kube.config", body);
  EXPECT_EQ(Answer(h, "rim.kube.config"), R"({"result":{"kube":"ok"}})");
  h.Hold("rim.log");
  EXPECT_EQ(Answer(h, "rim.log"), "hold");
}

TEST_F(HostResponderTest, AppliesAScenariosPolicyAndSaysWhyInTheAnswer) {
  HostResponder h(*profile_);
  auto body = std::make_shared<rapidjson::Document>();
  ASSERT_TRUE(json::Parse(R"({"result":{"messages":[]}})", body.get()).ok);
  AnswerPolicy policy;
  policy.by_method["rim.chat.read"] = {false, body, "its host: block"};
  policy.by_method["rim.log"] = {true, nullptr, "the expect at s.yaml:5 replies to it"};
  h.Apply(policy);
  auto now = HostResponder::Clock::now();
  HostResponder::Answer read = h.Decide("rim.chat.read", nullptr, now);
  EXPECT_EQ(json::ToCompact(read.body), R"({"result":{"messages":[]}})");
  EXPECT_EQ(read.why, "scenario reply (its host: block)");
  HostResponder::Answer log = h.Decide("rim.log", nullptr, now);
  EXPECT_TRUE(log.hold);
  EXPECT_EQ(log.why, "held by the scenario (the expect at s.yaml:5 replies to it)");
  // What the policy does not name keeps the profile's answer.
  EXPECT_EQ(Answer(h, "rim.kube.config"),
            R"({"error":{"code":-32601,"message":"method not found: rim.kube.config"}})");
}

TEST_F(HostResponderTest, AWildcardScriptsEveryCallButWhatTheProfileAnswersItself) {
  HostResponder h(*profile_);
  rapidjson::Document body;
  ASSERT_TRUE(json::Parse(R"({"error":{"code":-32001,"message":"rate limited"}})", &body).ok);
  h.Override("*", body);
  EXPECT_EQ(Answer(h, "rim.ui.update_panel"),
            R"({"error":{"code":-32001,"message":"rate limited"}})");
  EXPECT_EQ(Answer(h, "rim.anything"), R"({"error":{"code":-32001,"message":"rate limited"}})");
  EXPECT_EQ(Answer(h, "rim.log"), R"({"result":{"ok":true}})");
  HostResponder held(*profile_);
  held.Hold("*");
  EXPECT_EQ(Answer(held, "rim.chat.read"), "hold");
  EXPECT_EQ(Answer(held, "rim.log"), R"({"result":{"ok":true}})");
}

}  // namespace
}  // namespace fakehost::protocol

namespace fakehost::protocol {
namespace {

// Flash grants what the plugin's manifest declares at /capabilities.
class ManifestGrantsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    profile_ = Profile::Load("schema/flash-v1/profile.json", &error);
    ASSERT_TRUE(profile_) << error;
  }
  static std::string Why(HostResponder& h, const char* method) {
    return h.Decide(method, nullptr, HostResponder::Clock::now()).why;
  }
  static rapidjson::Document Doc(const char* text) {
    rapidjson::Document doc;
    EXPECT_TRUE(json::Parse(text, &doc).ok) << text;
    return doc;
  }
  std::unique_ptr<Profile> profile_;
};

TEST_F(ManifestGrantsTest, GrantsTheManifestsCapabilitiesFromTheStart) {
  rapidjson::Document manifest = Doc(R"({"id":"p","capabilities":["clipboard","notify"]})");
  HostResponder h(*profile_, &manifest);
  EXPECT_EQ(Why(h, "host.clipboard_write"), "granted, but not implemented by the fake host");
  EXPECT_EQ(Why(h, "host.notify"), "granted, but not implemented by the fake host");
  EXPECT_EQ(Why(h, "host.open"), "capability open not granted");
  // The handshake is not where Flash's grants come from: it changes nothing.
  h.HandshakeSent(Doc(R"({"id":1,"method":"initialize","params":{"capabilities":["open"]}})"));
  EXPECT_EQ(Why(h, "host.open"), "capability open not granted");
  EXPECT_EQ(Why(h, "host.clipboard_write"), "granted, but not implemented by the fake host");
}

TEST_F(ManifestGrantsTest, GrantsNothingWithoutAManifestOrWithoutItsList) {
  HostResponder none(*profile_);
  EXPECT_EQ(Why(none, "host.clipboard_write"), "capability clipboard not granted");
  rapidjson::Document bare = Doc(R"({"id":"p"})");
  HostResponder without_list(*profile_, &bare);
  EXPECT_EQ(Why(without_list, "host.clipboard_write"), "capability clipboard not granted");
}

TEST(HostBuiltins, StorageKeepsWhatWasSetPerConnection) {
  std::string error;
  std::string checks;  // every check the engine raises needs wording; any will do here
  for (const EngineCheck& c : EngineChecks())
    checks += std::string(checks.empty() ? "" : ",") + "\"" + c.id + "\": {\"text\": \"x\"}";
  auto profile = Profile::LoadText(R"({
    "checks": {)" + checks + R"(},
    "name": "t", "framing": "ndjson", "max_payload": 100,
    "envelope": {"host_members": {}}, "manifest": {"file": "m.json", "id": "/id", "exec": "/exec"},
    "ids": {"default": {"start": 1, "step": 1}}, "deadlines_ms": {"default": 100},
    "handshake": {"method": "initialize"}, "barrier": {"method": "ping"},
    "stop_sequences": {"default": [{"close_stdin": true}], "teardown": [{"close_stdin": true}]},
    "host": {"replies": {"host.storage_get": {"builtin": "storage_get"},
                         "host.storage_set": {"builtin": "storage_set"}}},
    "vars": {}})",
                                   "t.json", &error);
  ASSERT_TRUE(profile) << error;
  HostResponder h(*profile);
  auto now = HostResponder::Clock::now();
  rapidjson::Document set, get;
  ASSERT_TRUE(json::Parse(R"({"key":"k","value":{"n":1}})", &set).ok);
  ASSERT_TRUE(json::Parse(R"({"key":"k"})", &get).ok);
  EXPECT_EQ(json::ToCompact(h.Decide("host.storage_get", &get, now).body),
            R"({"result":{"ok":true,"value":null}})");
  EXPECT_EQ(json::ToCompact(h.Decide("host.storage_set", &set, now).body),
            R"({"result":{"ok":true}})");
  EXPECT_EQ(json::ToCompact(h.Decide("host.storage_get", &get, now).body),
            R"({"result":{"ok":true,"value":{"n":1}}})");
  EXPECT_NE(json::ToCompact(h.Decide("host.storage_get", nullptr, now).body).find(R"("ok":false)"),
            std::string::npos);
}

}  // namespace
}  // namespace fakehost::protocol
