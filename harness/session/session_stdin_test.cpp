// A plugin that stops reading its stdin: the host's rules per protocol (a write's deadline, a
// transport budget) and its own bound on the bytes waiting for the plugin.
#include <gtest/gtest.h>

#include <string>

#include "harness/session/test_support/session_rig.hpp"

namespace fakehost::session {
namespace {

using testing::Checks;
using testing::Json;
using testing::Rig;

TEST(Session, RaisesStdinBlockedWhenThePluginStopsReading) {
  Session::Options options;
  options.write_cap = Ms(300);  // RIM's own cap is the frame's deadline (the handshake's: 10 s)
  Rig rig("rim-v1", options);
  rig.child().StopReading();
  std::size_t frame = rig.SendHandshake();
  ASSERT_TRUE(rig.Until([&] { return !rig.session().findings().empty(); }));
  EXPECT_EQ(rig.Checks(), Checks{"stdin-blocked"});
  EXPECT_EQ(rig.session().transcript().at(frame).notes.back(),
            "not delivered: the plugin stopped reading stdin");
}

// Without a protocol budget, the host's own: a plugin that reads nothing while the host has
// 64 MiB of frames for it stops being written to, with one finding, however many more come.
TEST(Session, BoundsTheBytesQueuedForAPluginThatDoesNotRead) {
  Session::Options options;
  options.write_cap = Ms(60000);  // no frame times out while the queue fills
  Rig rig("mcp-stdio", options);
  rig.child().StopReading();
  std::size_t last = 0;
  const std::string big(1 << 20, 'x');
  for (int i = 0; i < 80; ++i) {  // 80 MiB asked for
    rapidjson::Document message = Json(R"({"jsonrpc":"2.0","method":"ping","params":{}})");
    auto& a = message.GetAllocator();
    message["params"].AddMember("pad", rapidjson::Value(big.c_str(), a), a);
    message.AddMember("id", rig.session().NextId("ping"), a);
    last = rig.session().Send(std::move(message), false);
  }
  EXPECT_EQ(rig.Checks(), Checks{"stdin-blocked"});
  EXPECT_NE(rig.session().transcript().at(last).notes.back().find(
                "bytes already wait for the plugin's stdin, the most the host queues"),
            std::string::npos)
      << rig.session().transcript().at(last).notes.back();
}

// Flash states a transport budget, not a time: a plugin that reads nothing is failed only when
// a line finds 256 lines (or 20 MiB) still unread, and the line that does is not written.
TEST(Session, FlashFailsAPluginThatStopsReadingOnlyWhenTheBudgetIsFull) {
  Rig rig("flash-v1");
  rig.child().StopReading();
  auto ping = [&] {
    rapidjson::Document message = Json(R"({"method":"ping","params":{}})");
    message.AddMember("id", rig.session().NextId("ping"), message.GetAllocator());
    return rig.session().Send(std::move(message), false);
  };
  for (int i = 0; i < 256; ++i) ping();
  rig.session().RunFor(Ms(50));
  EXPECT_EQ(rig.Checks(), Checks{}) << "256 unread lines are within the budget";
  std::size_t frame = ping();
  EXPECT_EQ(rig.Checks(), Checks{"stdin-blocked"});
  EXPECT_EQ(rig.session().transcript().at(frame).notes.back(),
            "not delivered: the transport budget is full (the plugin stopped reading stdin)");
}

}  // namespace
}  // namespace fakehost::session
