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
  // Granted, it gets the profile's plausible success: the shape is not frozen in v1 (§17).
  EXPECT_EQ(Answer(h, "rim.ui.update_panel"), R"({"result":{"ok":true}})");
}

TEST_F(HostResponderTest, GrantsWhatTheHandshakeCarriesNotWhatTheManifestDeclares) {
  rapidjson::Document manifest;
  ASSERT_TRUE(json::Parse(R"({"capabilities":["chat.read"]})", &manifest).ok);
  HostResponder h(*profile_, &manifest);
  EXPECT_EQ(h.Decide("rim.chat.read", nullptr, HostResponder::Clock::now()).why,
            "capability chat.read not granted");
  h.HandshakeSent(Handshake(R"(["chat.read", 7])"));
  EXPECT_EQ(h.Decide("rim.chat.read", nullptr, HostResponder::Clock::now()).why,
            "profile reply, a stand-in");
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
            "profile reply, a stand-in");
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
  EXPECT_EQ(Why(h, "host.clipboard_write"), "profile reply");
  EXPECT_EQ(Why(h, "host.notify"), "profile reply");
  EXPECT_EQ(Why(h, "host.open"), "capability open not granted");
  // The handshake is not where Flash's grants come from: it changes nothing.
  h.HandshakeSent(Doc(R"({"id":1,"method":"initialize","params":{"capabilities":["open"]}})"));
  EXPECT_EQ(Why(h, "host.open"), "capability open not granted");
  EXPECT_EQ(Why(h, "host.clipboard_write"), "profile reply");
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
  ASSERT_TRUE(json::Parse(R"({"key":"k","value":"v1"})", &set).ok);
  ASSERT_TRUE(json::Parse(R"({"key":"k"})", &get).ok);
  EXPECT_EQ(json::ToCompact(h.Decide("host.storage_get", &get, now).body),
            R"({"result":{"ok":true,"present":false,"value":null}})");
  EXPECT_EQ(json::ToCompact(h.Decide("host.storage_set", &set, now).body),
            R"({"result":{"ok":true}})");
  EXPECT_EQ(json::ToCompact(h.Decide("host.storage_get", &get, now).body),
            R"({"result":{"ok":true,"present":true,"value":"v1"}})");
  EXPECT_NE(json::ToCompact(h.Decide("host.storage_get", nullptr, now).body).find(R"("ok":false)"),
            std::string::npos);
  // null deletes; the Flash host's bounds and its value type are kept.
  rapidjson::Document del, number, long_key;
  ASSERT_TRUE(json::Parse(R"({"key":"k","value":null})", &del).ok);
  ASSERT_TRUE(json::Parse(R"({"key":"n","value":42})", &number).ok);
  ASSERT_TRUE(
      json::Parse("{\"key\":\"" + std::string(129, 'k') + "\",\"value\":\"v\"}", &long_key).ok);
  EXPECT_EQ(json::ToCompact(h.Decide("host.storage_set", &del, now).body),
            R"({"result":{"ok":true}})");
  EXPECT_EQ(json::ToCompact(h.Decide("host.storage_get", &get, now).body),
            R"({"result":{"ok":true,"present":false,"value":null}})");
  EXPECT_EQ(json::ToCompact(h.Decide("host.storage_set", &number, now).body),
            R"({"result":{"ok":false,"error":"host.storage_set value must be a string or null"}})");
  EXPECT_EQ(json::ToCompact(h.Decide("host.storage_set", &long_key, now).body),
            R"({"result":{"ok":false,"error":"host.storage_set requires a key under 128 bytes"}})");
  // A 257th key is refused; replacing an existing one is not.
  for (int i = 0; i < 256; ++i) {
    rapidjson::Document one;
    ASSERT_TRUE(json::Parse(R"({"key":"k)" + std::to_string(i) + R"(","value":"v"})", &one).ok);
    ASSERT_EQ(json::ToCompact(h.Decide("host.storage_set", &one, now).body),
              R"({"result":{"ok":true}})")
        << i;
  }
  EXPECT_NE(json::ToCompact(h.Decide("host.storage_set", &set, now).body)
                .find("storage bound exceeded: at most 256 keys"),
            std::string::npos);
  rapidjson::Document again;
  ASSERT_TRUE(json::Parse(R"({"key":"k0","value":"w"})", &again).ok);
  EXPECT_EQ(json::ToCompact(h.Decide("host.storage_set", &again, now).body),
            R"({"result":{"ok":true}})");
}

}  // namespace
}  // namespace fakehost::protocol

namespace fakehost::protocol {
namespace {

// The Flash profile's fake host: a default answer for every method, stand-ins marked, and the
// plugin's own answers (fakehost.yaml host: replies:) in their place.
class FlashDefaultsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    profile_ = Profile::Load("schema/flash-v1/profile.json", &error);
    ASSERT_TRUE(profile_) << error;
    ASSERT_TRUE(json::Parse(R"({"id":"p","capabilities":["network_fetch","app_control","open",
      "media_keys","process_control","clipboard","notify","wifi_info","accessibility"]})",
                            &manifest_)
                    .ok);
  }
  static rapidjson::Value* ResultOf(HostResponder::Answer& a) {
    return a.body.IsObject() && a.body.HasMember("result") ? &a.body["result"] : nullptr;
  }
  std::unique_ptr<Profile> profile_;
  rapidjson::Document manifest_;
};

// The profile's capability table lists every guarded method: each has an answer of its own,
// never the fallback, and every answer is a success under the response law.
TEST_F(FlashDefaultsTest, EveryGuardedMethodHasARealisticSuccessOfItsOwn) {
  HostResponder h(*profile_, &manifest_);
  std::size_t methods = 0;
  for (const auto& [method, capability] : profile_->host().capabilities) {
    ++methods;
    HostResponder::Answer a = h.Decide(method, nullptr, HostResponder::Clock::now());
    EXPECT_NE(a.why, "granted, but not implemented by the fake host") << method;
    rapidjson::Value* result = ResultOf(a);
    ASSERT_TRUE(result) << method;
    EXPECT_TRUE((*result)["ok"].IsTrue()) << method << json::ToCompact(a.body);
    EXPECT_FALSE(a.body.HasMember("stand_in")) << "the marker never goes on the wire";
  }
  EXPECT_EQ(methods, 16u);
}

TEST_F(FlashDefaultsTest, AProcessTableHasProcessesAndIsMarkedAStandIn) {
  HostResponder h(*profile_, &manifest_);
  auto now = HostResponder::Clock::now();
  HostResponder::Answer a = h.Decide("host.process_table", nullptr, now);
  rapidjson::Value* rows =
      json::Find(*ResultOf(a), "processes") ? &(*ResultOf(a))["processes"] : nullptr;
  ASSERT_TRUE(rows && rows->IsArray());
  EXPECT_GE(rows->Size(), 1u);
  EXPECT_TRUE((*rows)[0]["pid"].IsInt64());
  EXPECT_TRUE((*rows)[0]["comm"].IsString());
  EXPECT_NE(a.stand_in.find("made-up processes"), std::string::npos);
  // An effect the host performs answers exactly as the real one does: no stand-in.
  EXPECT_TRUE(h.Decide("host.notify", nullptr, now).stand_in.empty());
  ASSERT_EQ(h.stand_ins().size(), 1u);
  EXPECT_EQ(h.stand_ins()[0].method, "host.process_table");
  h.Decide("host.process_table", nullptr, now);
  h.Decide("host.fetch", nullptr, now);
  ASSERT_EQ(h.stand_ins().size(), 2u) << "each method once, in the order of first answer";
  EXPECT_EQ(h.stand_ins()[1].method, "host.fetch");
}

TEST_F(FlashDefaultsTest, ADeniedCallIsNoStandInAndStaysDenied) {
  rapidjson::Document bare;
  ASSERT_TRUE(json::Parse(R"({"id":"p"})", &bare).ok);
  HostResponder h(*profile_, &bare);
  auto body = std::make_shared<rapidjson::Document>();
  ASSERT_TRUE(json::Parse(R"({"result":{"ok":true,"processes":[]}})", body.get()).ok);
  h.SetPluginReplies({{"host.process_table", body}}, "p/fakehost.yaml");
  HostResponder::Answer a = h.Decide("host.process_table", nullptr, HostResponder::Clock::now());
  EXPECT_EQ(json::ToCompact(a.body),
            R"({"result":{"ok":false,"error":"missing process_control capability"}})");
  EXPECT_TRUE(h.stand_ins().empty());
}

TEST_F(FlashDefaultsTest, ThePluginsRepliesReplaceTheProfilesAndAreNoStandIns) {
  HostResponder h(*profile_, &manifest_);
  auto table = std::make_shared<rapidjson::Document>();
  ASSERT_TRUE(
      json::Parse(R"({"result":{"ok":true,"processes":[{"pid":9,"comm":"x"}]}})", table.get()).ok);
  auto ping = std::make_shared<rapidjson::Document>();
  ASSERT_TRUE(json::Parse(R"({"result":{"ok":false,"error":"busy"}})", ping.get()).ok);
  h.SetPluginReplies({{"host.process_table", table}, {"host.ping", ping}}, "p/fakehost.yaml");
  auto now = HostResponder::Clock::now();
  HostResponder::Answer a = h.Decide("host.process_table", nullptr, now);
  EXPECT_EQ(json::ToCompact(a.body),
            R"({"result":{"ok":true,"processes":[{"pid":9,"comm":"x"}]}})");
  EXPECT_EQ(a.why, "reply from p/fakehost.yaml");
  EXPECT_EQ(json::ToCompact(h.Decide("host.ping", nullptr, now).body),
            R"({"result":{"ok":false,"error":"busy"}})");
  EXPECT_TRUE(h.stand_ins().empty());
  // A scenario's own answer still comes first.
  rapidjson::Document scripted;
  ASSERT_TRUE(
      json::Parse(R"({"result":{"ok":false,"error":"host call timed out"}})", &scripted).ok);
  h.Override("host.process_table", scripted);
  EXPECT_EQ(json::ToCompact(h.Decide("host.process_table", nullptr, now).body),
            R"({"result":{"ok":false,"error":"host call timed out"}})");
}

TEST_F(FlashDefaultsTest, PingEchoesItsParams) {
  HostResponder h(*profile_);
  rapidjson::Document params;
  ASSERT_TRUE(json::Parse(R"({"a":1,"nested":{"b":"c"}})", &params).ok);
  auto now = HostResponder::Clock::now();
  EXPECT_EQ(json::ToCompact(h.Decide("host.ping", &params, now).body),
            R"({"result":{"ok":true,"echo":{"a":1,"nested":{"b":"c"}}}})");
  EXPECT_EQ(json::ToCompact(h.Decide("host.ping", nullptr, now).body),
            R"({"result":{"ok":true,"echo":{}}})");
}

}  // namespace
}  // namespace fakehost::protocol
