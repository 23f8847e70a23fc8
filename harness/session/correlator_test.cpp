#include "harness/session/correlator.hpp"

#include <gtest/gtest.h>

#include <string>

#include "harness/json/json.hpp"

namespace fakehost::session {
namespace {

// A profile with RIM's id rules: host requests count up from 1, heartbeats down from -1.
std::unique_ptr<protocol::Profile> RimProfile() {
  std::string error;
  auto profile = protocol::Profile::Load(FAKEHOST_SOURCE_DIR "/schema/rim-v1/profile.json", &error);
  EXPECT_TRUE(profile) << error;
  return profile;
}

rapidjson::Document Id(const char* json) {
  rapidjson::Document d;
  EXPECT_TRUE(json::Parse(json, &d).ok) << json;
  return d;
}

PendingRequest Request(std::size_t frame, std::string method) {
  return PendingRequest{frame, std::move(method), "x", {}, {}};
}

TEST(Correlator, TheFirstAnswerTakesTheRequestAndASecondIsAnsweredTwice) {
  auto profile = RimProfile();
  Correlator c(*profile);
  ASSERT_TRUE(c.Owe(Id("1"), Request(0, "rim.handshake")));
  Correlator::Reply first = c.OnReply(Id("1"), 1);
  ASSERT_EQ(first.what, Correlator::Case::kAnswers);
  EXPECT_EQ(first.request->method, "rim.handshake");
  EXPECT_EQ(first.request->answer_frame, 1u);
  Correlator::Reply second = c.OnReply(Id("1"), 2);
  EXPECT_EQ(second.what, Correlator::Case::kAnsweredTwice);
  EXPECT_EQ(second.request->answer_frame, 1u) << "the first answer stays the answer";
}

// A request the host cancelled is owed no answer (so never "unanswered"); an answer that still
// comes answers it as usual, and a cancellation of what is answered or unknown changes nothing.
TEST(Correlator, ACancelledRequestIsOwedNoAnswerAndALateOneStillAnswersIt) {
  auto profile = RimProfile();
  Correlator c(*profile);
  ASSERT_TRUE(c.Owe(Id("7"), Request(2, "tools/call")));
  EXPECT_TRUE(c.requests().begin()->second.Owed());
  EXPECT_FALSE(c.Cancel(Id("\"7\""), 3)) << "another JSON type is another id";
  ASSERT_TRUE(c.Cancel(Id("7"), 3));
  const PendingRequest& call = c.requests().begin()->second;
  EXPECT_FALSE(call.Owed());
  EXPECT_EQ(call.cancelled_by, 3u);
  EXPECT_FALSE(c.Cancel(Id("7"), 4)) << "cancelled once";
  Correlator::Reply late = c.OnReply(Id("7"), 5);
  EXPECT_EQ(late.what, Correlator::Case::kAnswers);
  EXPECT_EQ(call.answer_frame, 5u);
  EXPECT_FALSE(c.Cancel(Id("8"), 6)) << "never sent";
}

// Each frame the host wrote with no id to read may be answered once by an error without an id
// (MCP) or with id null (JSON-RPC 2.0 §5), oldest first; past them, neither answers anything.
TEST(Correlator, EachUnreadableFrameMayBeAnsweredOnceByAnErrorWithoutAnId) {
  auto profile = RimProfile();
  Correlator c(*profile);
  c.Unreadable(3);
  c.Unreadable(4);
  rapidjson::Document null_id = Id("null");
  Correlator::Reply first = c.ClassifyIdlessError(nullptr);
  ASSERT_EQ(first.what, Correlator::Case::kAnswersUnreadable);
  EXPECT_EQ(first.noise_frame, 3u);
  EXPECT_EQ(c.ClassifyIdlessError(nullptr).noise_frame, 3u) << "Classify changes nothing";
  c.Settle(first, 5);
  Correlator::Reply second = c.ClassifyIdlessError(&null_id);
  ASSERT_EQ(second.what, Correlator::Case::kAnswersUnreadable);
  EXPECT_EQ(second.noise_frame, 4u);
  c.Settle(second, 6);
  EXPECT_EQ(c.ClassifyIdlessError(nullptr).what, Correlator::Case::kNoId);
  EXPECT_EQ(c.ClassifyIdlessError(&null_id).what, Correlator::Case::kNullId);
}

// The session words a frame's entry from Classify before the frame has its number, and settles
// the reply under the number Record gave it.
TEST(Correlator, ClassifyChangesNothingUntilTheReplyIsSettled) {
  auto profile = RimProfile();
  Correlator c(*profile);
  ASSERT_TRUE(c.Owe(Id("1"), Request(0, "rim.handshake")));
  c.Noise(Id("\"n\""), 1);
  Correlator::Reply reply = c.Classify(Id("1"));
  ASSERT_EQ(reply.what, Correlator::Case::kAnswers);
  EXPECT_FALSE(reply.request->answer_frame);
  EXPECT_EQ(c.Classify(Id("1")).what, Correlator::Case::kAnswers) << "still open";
  c.Settle(reply, 7);
  EXPECT_EQ(reply.request->answer_frame, 7u);
  EXPECT_EQ(c.Classify(Id("1")).what, Correlator::Case::kAnsweredTwice);
  Correlator::Reply echo = c.Classify(Id("\"n\""));
  ASSERT_EQ(echo.what, Correlator::Case::kEchoesNoise);
  EXPECT_EQ(c.Classify(Id("\"n\"")).what, Correlator::Case::kEchoesNoise);
  c.Settle(echo, 8);
  EXPECT_EQ(c.Classify(Id("\"n\"")).what, Correlator::Case::kUnknownId) << "the echo is used up";
}

TEST(Correlator, RequestsUnderOneIdAreAnsweredOldestFirst) {
  auto profile = RimProfile();
  Correlator c(*profile);
  ASSERT_TRUE(c.Owe(Id("\"a\""), Request(0, "first")));
  ASSERT_TRUE(c.Owe(Id("\"a\""), Request(1, "second")));
  EXPECT_EQ(c.OnReply(Id("\"a\""), 2).request->method, "first");
  EXPECT_EQ(c.OnReply(Id("\"a\""), 3).request->method, "second");
  EXPECT_EQ(c.OnReply(Id("\"a\""), 4).what, Correlator::Case::kAnsweredTwice);
}

TEST(Correlator, TellsAnIdThatChangedTypeFromOneNeverSent) {
  auto profile = RimProfile();
  Correlator c(*profile);
  ASSERT_TRUE(c.Owe(Id("7"), Request(0, "rim.command")));
  Correlator::Reply changed = c.OnReply(Id("\"7\""), 1);
  EXPECT_EQ(changed.what, Correlator::Case::kIdTypeChanged);
  EXPECT_EQ(changed.request->frame, 0u);
  EXPECT_EQ(c.OnReply(Id("8"), 2).what, Correlator::Case::kUnknownId);
  EXPECT_EQ(c.OnReply(Id("null"), 3).what, Correlator::Case::kNullId);
  EXPECT_EQ(c.OnReply(Id("true"), 4).what, Correlator::Case::kBadIdType);
  EXPECT_EQ(c.OnReply(Id("7.5"), 5).what, Correlator::Case::kBadIdType);
}

TEST(Correlator, OwesNothingForAnIdThatCannotBeEchoed) {
  auto profile = RimProfile();
  Correlator c(*profile);
  EXPECT_FALSE(c.Owe(Id("null"), Request(0, "m")));
  EXPECT_FALSE(c.Owe(Id("1.5"), Request(0, "m")));
  EXPECT_TRUE(c.requests().empty());
}

TEST(Correlator, AnEchoOfNoiseIsAllowedOnceAndNeverTakesARealAnswer) {
  auto profile = RimProfile();
  Correlator c(*profile);
  c.Noise(Id("\"n1\""), 0);
  ASSERT_TRUE(c.Owe(Id("3"), Request(1, "real")));
  c.Noise(Id("3"), 2);  // noise under the id of an open request
  Correlator::Reply echo = c.OnReply(Id("\"n1\""), 3);
  EXPECT_EQ(echo.what, Correlator::Case::kEchoesNoise);
  EXPECT_EQ(echo.noise_frame, 0u);
  EXPECT_EQ(c.OnReply(Id("\"n1\""), 4).what, Correlator::Case::kUnknownId) << "once only";
  EXPECT_EQ(c.OnReply(Id("3"), 5).what, Correlator::Case::kAnswers) << "the open request first";
  EXPECT_EQ(c.OnReply(Id("3"), 6).what, Correlator::Case::kEchoesNoise) << "then the noise";
}

// Two real SDKs answer a request sent with id 3.0 under id 3: the host sent the invalid frame,
// so that answer is a case of its own (a warning), while an id never sent in any form stays
// unknown (a failure).
TEST(Correlator, AnAnswerUnderTheIntegerAnInvalidIdDenotesIsACaseOfItsOwn) {
  auto profile = RimProfile();
  Correlator c(*profile);
  c.Noise(Id("true"), 0);
  c.Noise(Id("3.0"), 1);
  c.Noise(Id("5e0"), 2);
  c.Noise(Id("7.5"), 3);
  Correlator::Reply three = c.OnReply(Id("3"), 4);
  EXPECT_EQ(three.what, Correlator::Case::kAnswersNoiseAsInteger);
  EXPECT_EQ(three.noise_frame, 1u);
  EXPECT_EQ(three.noise_id, "3.0");
  EXPECT_EQ(c.OnReply(Id("3"), 5).what, Correlator::Case::kUnknownId) << "once only";
  EXPECT_EQ(c.OnReply(Id("5"), 6).what, Correlator::Case::kAnswersNoiseAsInteger);
  EXPECT_EQ(c.OnReply(Id("4"), 7).what, Correlator::Case::kUnknownId) << "never sent in any form";
  EXPECT_EQ(c.OnReply(Id("7"), 8).what, Correlator::Case::kUnknownId) << "7.5 denotes no integer";
  EXPECT_EQ(c.OnReply(Id("1"), 9).what, Correlator::Case::kUnknownId) << "true is no number";
  EXPECT_EQ(c.OnReply(Id("\"3\""), 10).what, Correlator::Case::kUnknownId);
}

TEST(Correlator, AnOpenRequestTakesItsAnswerBeforeAnInvalidRequestsIntegerForm) {
  auto profile = RimProfile();
  Correlator c(*profile);
  ASSERT_TRUE(c.Owe(Id("3"), Request(0, "real")));
  c.Noise(Id("3.0"), 1);
  EXPECT_EQ(c.OnReply(Id("3"), 2).what, Correlator::Case::kAnswers);
  EXPECT_EQ(c.OnReply(Id("3"), 3).what, Correlator::Case::kAnswersNoiseAsInteger);
  EXPECT_EQ(c.OnReply(Id("3"), 4).what, Correlator::Case::kAnsweredTwice);
}

TEST(Correlator, NumbersEachIdSequenceOnItsOwn) {
  auto profile = RimProfile();
  Correlator c(*profile);
  EXPECT_EQ(c.NextId("rim.handshake").GetInt64(), 1);
  EXPECT_EQ(c.NextId("rim.command").GetInt64(), 2);
  EXPECT_EQ(c.NextId("rim.heartbeat").GetInt64(), -1);
  EXPECT_EQ(c.NextId("rim.heartbeat").GetInt64(), -2);
  EXPECT_EQ(c.NextId("rim.command").GetInt64(), 3);
}

TEST(Correlator, FindsARequestByTheFrameThatCarriedIt) {
  auto profile = RimProfile();
  Correlator c(*profile);
  ASSERT_TRUE(c.Owe(Id("1"), Request(4, "m")));
  ASSERT_NE(c.ByFrame(4), nullptr);
  EXPECT_EQ(c.ByFrame(4)->method, "m");
  EXPECT_EQ(c.ByFrame(5), nullptr);
}

}  // namespace
}  // namespace fakehost::session
