// A waiting step and the inbox: what a step that pulls with Session::Next reads of a burst, how
// far the inbox holds what it has not read, and what WaitFor takes and leaves.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "harness/session/session.hpp"
#include "harness/session/test_support/session_rig.hpp"

namespace fakehost::session {
namespace {

using testing::kRimAccepted;
using testing::Rig;

bool AnyMessage(const Inbound&) { return true; }

// `n` Flash log notifications framed one after another, for one read of the plugin's stdout.
std::string LogBurst(Rig& rig, int n) {
  std::string burst;
  for (int i = 0; i < n; ++i)
    burst += rig.profile().framing().Encode(
        R"({"method":"log","params":{"level":"info","message":"n)" + std::to_string(i) + R"("}})");
  return burst;
}

// A burst larger than the inbox's caps, in one read, while a step waits: the step still reads
// every frame of it (the caps release only what the waiting step has read); later frames, with
// nobody waiting, are released as before.
TEST(Session, AWaitingStepReadsABurstLargerThanTheInboxCaps) {
  Session::Options options;
  options.inbox_documents_cap = 2;
  Rig rig("flash-v1", options);
  rig.child().PushStdout(LogBurst(rig, 5));
  Cursor cursor;
  const Clock::time_point until = Clock::now() + std::chrono::seconds(10);
  std::vector<std::size_t> frames;
  for (int i = 0; i < 5; ++i) {
    std::optional<Inbound> in = rig.session().Next(cursor, until);
    ASSERT_TRUE(in) << i;
    frames.push_back(in->frame);
  }
  EXPECT_EQ(frames, (std::vector<std::size_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(rig.session().inbox_released(), 0u);
  rig.Push(R"({"method":"log","params":{"level":"info","message":"later"}})");
  ASSERT_TRUE(rig.Drain());
  EXPECT_EQ(rig.session().inbox().size(), 2u);
  EXPECT_EQ(rig.session().inbox_released(), 4u);
}

// What the waiting step has not read is held past the caps only so far: a flood in one read is
// released like any other past kUnreadHeld times the caps, oldest first, so the inbox stays
// bounded while a step waits for something that never comes.
TEST(Session, AFloodWhileAStepWaitsIsHeldOnlyUpToItsCeiling) {
  Session::Options options;
  options.inbox_documents_cap = 2;
  Rig rig("flash-v1", options);
  rig.child().PushStdout(LogBurst(rig, 20));
  Cursor cursor;
  std::optional<Inbound> first =
      rig.session().Next(cursor, Clock::now() + std::chrono::seconds(10));
  const std::size_t held = Inbox::kUnreadHeld * options.inbox_documents_cap;
  ASSERT_TRUE(first);
  EXPECT_EQ(first->frame, 20u - held);
  EXPECT_EQ(rig.session().inbox().size(), held);
  EXPECT_EQ(rig.session().inbox_released(), 20u - held);
  EXPECT_EQ(rig.session().transcript()[0].notes.back().rfind("released untaken", 0), 0u);
}

// A payload clipped to the text cap keeps whole characters: cut inside one, a UTF-8 payload's
// first bytes would not be UTF-8, and the transcript would hold them as base64.
TEST(Session, AClippedPayloadEndsOnACharacterBoundary) {
  Session::Options options;
  options.transcript_text_cap = 9;
  Rig rig("rim-v1", options);
  const std::string payload = "[\"\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\"]";  // ["ééééé"]
  rig.Push(payload);
  ASSERT_TRUE(rig.Drain());
  const result::TranscriptEntry& entry = rig.session().transcript().at(0);
  EXPECT_TRUE(entry.clipped);
  EXPECT_EQ(entry.size, payload.size());
  EXPECT_EQ(entry.text, payload.substr(0, 8));
}

// WaitFor takes the first message it wants, past those it does not, and leaves those.
TEST(Session, WaitForTakesTheFirstWantedMessageAndLeavesTheRest) {
  Rig rig("rim-v1");
  rig.SendHandshake();
  rig.Push(R"({"jsonrpc":"2.0","method":"rim.principal.changed","params":{}})");
  rig.Push(kRimAccepted);
  std::optional<Inbound> reply = rig.session().WaitFor(
      [](const Inbound& in) { return in.kind == protocol::MessageKind::kResponse; },
      Clock::now() + std::chrono::seconds(10));
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->frame, 2u);
  ASSERT_EQ(rig.session().inbox().size(), 1u);
  EXPECT_EQ(rig.session().inbox().Take(AnyMessage)->frame, 1u);
}

}  // namespace
}  // namespace fakehost::session
