#include "harness/protocol/host_frame.hpp"

#include <gtest/gtest.h>

#include <string>

#include "harness/json/json.hpp"

namespace fakehost::protocol {
namespace {

std::unique_ptr<Profile> Load(const std::string& protocol) {
  std::string error;
  auto profile = Profile::Load("schema/" + protocol + "/profile.json", &error);
  EXPECT_TRUE(profile) << error;
  return profile;
}

rapidjson::Document Doc(std::string_view text) {
  rapidjson::Document doc;
  EXPECT_TRUE(json::Parse(text, &doc).ok) << text;
  return doc;
}

TEST(HostFrame, PutsTheEnvelopeFirstThenTheMessageThenTheRequestMembers) {
  auto rim = Load("rim-v1");
  EXPECT_EQ(json::ToCompact(HostFrame(*rim, Doc(R"({"id":3,"method":"m","params":{}})"))),
            R"({"jsonrpc":"2.0","id":3,"method":"m","params":{}})");
  auto flash = Load("flash-v1");
  const std::string ping = json::ToCompact(HostFrame(*flash, Doc(R"({"id":3,"method":"ping"})")));
  EXPECT_EQ(ping.rfind(R"({"id":3,"method":"ping","deadline_ms":)", 0), 0u) << ping;
  EXPECT_EQ(json::ToCompact(HostFrame(*flash, Doc(R"({"id":3,"method":"ping","deadline_ms":7})"))),
            R"({"id":3,"method":"ping","deadline_ms":7})")
      << "a message's own value wins";
}

// A padded 10 MiB ping is held once: its members move into the frame, strings and all.
TEST(HostFrame, MovesTheMessageRatherThanCopyingIt) {
  auto rim = Load("rim-v1");
  rapidjson::Document message = Doc(R"({"id":3,"method":"m","params":{}})");
  auto& a = message.GetAllocator();
  message["params"].AddMember("pad", rapidjson::Value(std::string(100000, 'x').c_str(), a), a);
  const char* pad = message["params"]["pad"].GetString();
  const rapidjson::Document frame = HostFrame(*rim, std::move(message));
  EXPECT_EQ(frame["params"]["pad"].GetString(), pad);
  EXPECT_EQ(frame["params"]["pad"].GetStringLength(), 100000u);
  EXPECT_EQ(frame.MemberBegin()->name.GetString(), std::string("jsonrpc"));
}

}  // namespace
}  // namespace fakehost::protocol
