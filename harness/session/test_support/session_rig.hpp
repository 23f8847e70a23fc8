// The session of a unit test: one protocol's real profile and schema, its plugin a FakeChild
// (shared by session_test.cpp and session_stdin_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness/json/json.hpp"
#include "harness/schema/schema.hpp"
#include "harness/session/session.hpp"
#include "harness/session/test_support/fake_child.hpp"

namespace fakehost::session::testing {

inline constexpr const char* kRimHandshake =
    R"({"method":"rim.handshake","params":{"protocolVersion":1,"supportedVersions":[1],)"
    R"("pluginId":"dev.example.hello","hostVersion":"0.1.0","grantedCapabilities":[],)"
    R"("principal":{"principalId":"rimp0_PWcag22GowE59KogGTaUReeoF_q4E5EVi28q83uaGBU",)"
    R"("displayName":"Jakub"}}})";
inline constexpr const char* kRimAccepted =
    R"({"jsonrpc":"2.0","id":1,"result":{"accepted":true,"protocolVersion":1,)"
    R"("pluginId":"dev.example.hello"}})";

inline rapidjson::Document Json(std::string_view text) {
  rapidjson::Document d;
  EXPECT_TRUE(json::Parse(text, &d).ok) << text;
  return d;
}

// A session on one protocol's real profile and schema, its plugin a FakeChild.
class Rig {
 public:
  explicit Rig(const std::string& protocol, Session::Options options = {}) {
    std::string error;
    profile_ = protocol::Profile::Load(
        std::string(FAKEHOST_SOURCE_DIR) + "/schema/" + protocol + "/profile.json", &error);
    EXPECT_TRUE(profile_) << error;
    schema_ = schema::FrameSchema::Load(profile_->schema_path(), &error);
    EXPECT_TRUE(schema_) << error;
    options.spawn = testing::FakeChildFactory(&child_);
    session_ = std::make_unique<Session>(*profile_, schema_.get(), std::move(options));
    process::SpawnSpec spec;
    spec.argv = {"fake-plugin"};
    EXPECT_TRUE(session_->Start(spec, &error)) << error;
  }

  Session& session() { return *session_; }
  FakeChild& child() { return *child_; }
  const protocol::Profile& profile() { return *profile_; }

  /// The plugin writes `payload` framed as its protocol frames it.
  void Push(std::string_view payload) {
    child_->PushStdout(profile_->framing().Encode(std::string(payload)));
  }
  /// Runs the session until `done`; false if it did not happen within a generous deadline.
  bool Until(const std::function<bool()>& done) {
    return session_->RunUntil(done, Clock::now() + std::chrono::seconds(10)) ==
           Session::WaitEnd::kDone;
  }
  /// Lets the session process everything pushed so far: the plugin then closes its stdout,
  /// which arrives after every earlier event.
  bool Drain() {
    child_->CloseStdout();
    return Until([this] { return session_->stdout_closed(); });
  }
  /// The host's handshake request, sent; returns its frame number.
  std::size_t SendHandshake() {
    rapidjson::Document message = Json(kRimHandshake);
    message.AddMember("id", session_->NextId("rim.handshake"), message.GetAllocator());
    return session_->Send(std::move(message), false);
  }
  /// The checks `session` raised, by id.
  std::vector<std::string> Checks() const {
    std::vector<std::string> ids;
    for (const auto& f : session_->findings()) ids.push_back(f.check);
    return ids;
  }

 private:
  std::unique_ptr<protocol::Profile> profile_;
  std::unique_ptr<schema::FrameSchema> schema_;
  FakeChild* child_ = nullptr;
  std::unique_ptr<Session> session_;
};

using Checks = std::vector<std::string>;

}  // namespace fakehost::session::testing
