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
  h.SetGranted({"ui.panel"});
  EXPECT_EQ(Answer(h, "rim.ui.update_panel"),
            R"({"error":{"code":-32601,"message":"method not found: rim.ui.update_panel"}})");
}

TEST_F(HostResponderTest, RateLimitsTheHundredAndTwentyFirstCallInAMinute) {
  HostResponder h(*profile_);
  h.SetGranted({"ui.panel"});
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

TEST(HostBuiltins, StorageKeepsWhatWasSetPerConnection) {
  std::string error;
  auto profile = Profile::LoadText(R"({
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
