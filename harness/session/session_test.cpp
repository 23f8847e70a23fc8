// A Session with a fake plugin process: the real profiles and frame schemas, no fork, no pipes.
#include "harness/session/session.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <string>

#include "harness/json/json.hpp"
#include "harness/schema/schema.hpp"
#include "harness/session/test_support/fake_child.hpp"
#include "harness/session/test_support/session_rig.hpp"

namespace fakehost::session {
namespace {

using testing::FakeChild;

using testing::Checks;
using testing::Json;
using testing::kRimAccepted;
using testing::Rig;

bool Any(const Inbound&) { return true; }

TEST(Session, EncodesAHandshakeWithTheProfilesFramingAndRecordsIt) {
  Rig rig("rim-v1");
  std::size_t frame = rig.SendHandshake();
  ASSERT_EQ(frame, 0u);
  const result::TranscriptEntry& entry = rig.session().transcript().at(0);
  EXPECT_EQ(entry.direction, result::Direction::kHostToPlugin);
  EXPECT_EQ(entry.kind, result::EntryKind::kRequest);
  EXPECT_EQ(entry.method, "rim.handshake");
  EXPECT_EQ(entry.id, "1");
  EXPECT_EQ(entry.text.rfind(R"({"jsonrpc":"2.0",)", 0), 0u) << "envelope members first";
  EXPECT_EQ(entry.schema_def, "rim.handshake.request");
  EXPECT_TRUE(entry.violations.empty());
  EXPECT_EQ(rig.child().stdin_bytes(), wire::FindFraming("length-prefixed")->Encode(entry.text));
  ASSERT_EQ(rig.session().requests().size(), 1u);
  EXPECT_EQ(rig.session().RequestByFrame(0)->method, "rim.handshake");
  EXPECT_EQ(rig.Checks(), Checks{});
}

TEST(Session, FramesAFlashRequestAsOneLineWithItsDeadline) {
  Rig rig("flash-v1");
  rapidjson::Document message = Json(R"({"method":"initialize","params":{"protocol_version":1}})");
  message.AddMember("id", rig.session().NextId("initialize"), message.GetAllocator());
  rig.session().Send(std::move(message), false);
  const std::string& text = rig.session().transcript().at(0).text;
  EXPECT_NE(text.find(R"("deadline_ms":)"), std::string::npos) << text;
  EXPECT_EQ(rig.child().stdin_bytes(), text + "\n");
  EXPECT_EQ(rig.Checks(), Checks{});
}

// Without a handshake (MCP 2026-07-28) nothing bears a server's start-up but its first request:
// until the plugin's first frame, a request is held to the handshake's deadline (initialize's,
// 20 s) rather than its method's (5 s); once the plugin has spoken, to its method's again. A
// session with a handshake keeps its method's throughout.
TEST(Session, AFirstRequestWithoutAHandshakeHasTheStartUpsTime) {
  auto send = [](Rig& rig, const char* method) {
    rapidjson::Document m = Json(std::string(R"({"method":")") + method + R"("})");
    m.AddMember("id", rig.session().NextId(method), m.GetAllocator());
    return rig.session().Send(std::move(m), false);
  };
  Rig modern("mcp-stdio");
  modern.session().WithoutHandshake();
  const protocol::Profile& p = modern.profile();
  ASSERT_GT(p.DeadlineFor(p.handshake_method()), p.DeadlineFor("tools/list"));
  std::size_t first = send(modern, "tools/list");
  EXPECT_EQ(modern.session().RequestByFrame(first)->deadline, p.DeadlineFor(p.handshake_method()));
  modern.Push(
      R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"up"}})");
  ASSERT_TRUE(modern.Until([&] { return modern.session().transcript().size() == 2; }));
  std::size_t later = send(modern, "tools/list");
  EXPECT_EQ(modern.session().RequestByFrame(later)->deadline, p.DeadlineFor("tools/list"));

  Rig legacy("mcp-stdio");
  std::size_t before_init = send(legacy, "tools/list");
  EXPECT_EQ(legacy.session().RequestByFrame(before_init)->deadline, p.DeadlineFor("tools/list"));
}

TEST(Session, MarksTheHandshakeAnsweredByItsReply) {
  Rig rig("rim-v1");
  rig.SendHandshake();
  rig.Push(kRimAccepted);
  ASSERT_TRUE(rig.Until([&] { return rig.session().handshake_answered(); }));
  ASSERT_EQ(rig.session().inbox().size(), 1u);
  std::optional<Inbound> reply = rig.session().inbox().Take(Any);
  ASSERT_TRUE(reply);
  EXPECT_TRUE(rig.session().inbox().empty()) << "taken, not lent";
  EXPECT_EQ(reply->frame, 1u);
  EXPECT_EQ(reply->method, "rim.handshake") << "a reply carries the method it answers";
  EXPECT_TRUE(reply->answers_request);
  EXPECT_TRUE(reply->valid);
  EXPECT_EQ(rig.session().transcript().at(1).notes.at(0).rfind("answers #0 after ", 0), 0u);
  EXPECT_EQ(rig.Checks(), Checks{});
}

TEST(Session, RaisesUnknownReplyIdForAnIdTheHostNeverSent) {
  Rig rig("rim-v1");
  rig.SendHandshake();
  rig.Push(R"({"jsonrpc":"2.0","id":9,"result":{}})");
  ASSERT_TRUE(rig.Drain());
  EXPECT_EQ(rig.Checks(), (Checks{"unknown-reply-id", "before-handshake"}));
  EXPECT_EQ(rig.session().findings().at(0).frame, 1u);
}

TEST(Session, RaisesReplyIdTypeForAnEchoUnderAnotherJsonType) {
  Rig rig("rim-v1");
  rig.SendHandshake();
  rig.Push(R"({"jsonrpc":"2.0","id":"1","result":{"accepted":true,"protocolVersion":1,)"
           R"("pluginId":"dev.example.hello"}})");
  ASSERT_TRUE(rig.Drain());
  ASSERT_FALSE(rig.session().findings().empty());
  const result::Finding& f = rig.session().findings().front();
  EXPECT_EQ(f.check, "reply-id-type");
  EXPECT_EQ(f.frame, 1u);
  EXPECT_FALSE(rig.session().handshake_answered()) << "the wrong type answers nothing";
}

TEST(Session, RaisesBeforeHandshakeForAFrameOtherThanTheAllowedOnes) {
  Rig rig("rim-v1");
  rig.SendHandshake();
  rig.Push(R"({"jsonrpc":"2.0","method":"rim.log","params":{"level":"info","message":"up"}})");
  rig.Push(R"({"jsonrpc":"2.0","id":"c1","method":"ui.panel.open","params":{}})");
  ASSERT_TRUE(rig.Drain());
  std::vector<result::Finding> order;
  for (const auto& f : rig.session().findings())
    if (f.check == "before-handshake") order.push_back(f);
  ASSERT_EQ(order.size(), 1u) << "rim.log is allowed before the answer";
  ASSERT_EQ(order[0].frame, 2u);
  EXPECT_EQ(order[0].reason, result::Reason::kCheckFired);
  // The frame it names is the ui.panel.open request (rules_test pins how the finding words it).
  const auto& frame = rig.session().transcript().at(*order[0].frame);
  EXPECT_EQ(frame.kind, result::EntryKind::kRequest);
  EXPECT_EQ(frame.method, "ui.panel.open");
}

TEST(Session, AnswersAPluginRequestAsTheFakeHostOnStdin) {
  Rig rig("rim-v1");
  rig.SendHandshake();
  rig.Push(kRimAccepted);
  rig.Push(R"({"jsonrpc":"2.0","id":"log-1","method":"rim.log",)"
           R"("params":{"level":"info","message":"ready"}})");
  std::size_t sent = rig.child().stdin_bytes().size();
  ASSERT_TRUE(rig.Until([&] { return rig.child().stdin_bytes().size() > sent; }));
  std::string reply = R"({"jsonrpc":"2.0","id":"log-1","result":{"ok":true}})";
  EXPECT_EQ(rig.child().stdin_bytes().substr(sent),
            wire::FindFraming("length-prefixed")->Encode(reply));
  const result::TranscriptEntry& answer = rig.session().transcript().back();
  EXPECT_EQ(answer.kind, result::EntryKind::kResponse);
  EXPECT_EQ(answer.method, "rim.log");
  EXPECT_EQ(answer.notes.back(), "answers #2");
  std::optional<Inbound> request = rig.session().inbox().Take(
      [](const Inbound& in) { return in.kind == protocol::MessageKind::kRequest; });
  ASSERT_TRUE(request);
  EXPECT_TRUE(request->answered_by_host);
  EXPECT_EQ(rig.Checks(), Checks{});
}

// A host writes one frame at a time: an answer the fake host gives while a raw frame is being
// written in pieces waits until the last piece is out, never lands inside it.
TEST(Session, AnAnswerGivenDuringAChunkedWriteFollowsTheWholeWrite) {
  Rig rig("rim-v1");
  rig.SendHandshake();
  rig.Push(kRimAccepted);
  ASSERT_TRUE(rig.Until([&] { return rig.session().handshake_answered(); }));
  std::size_t before = rig.child().stdin_bytes().size();
  rig.Push(R"({"jsonrpc":"2.0","id":"log-1","method":"rim.log",)"
           R"("params":{"level":"info","message":"mid-write"}})");
  std::string raw = wire::FindFraming("length-prefixed")
                        ->Encode(R"({"jsonrpc":"2.0","method":"rim.heartbeat.tick"})");
  rig.session().SendRawChunked(raw, 3, Ms(1), "in pieces");
  ASSERT_TRUE(rig.Until([&] { return rig.child().stdin_bytes().size() > before + raw.size(); }));
  std::string written = rig.child().stdin_bytes().substr(before);
  EXPECT_EQ(written.substr(0, raw.size()), raw) << "the raw frame went out whole, first";
  EXPECT_EQ(written.substr(raw.size()),
            wire::FindFraming("length-prefixed")
                ->Encode(R"({"jsonrpc":"2.0","id":"log-1","result":{"ok":true}})"));
}

TEST(Session, KeepsTheEndOfStderrAndCountsEveryByteBeforeIt) {
  Rig rig("rim-v1");
  rig.child().PushStderr(std::string(10000, 'a') + "END\n");
  ASSERT_TRUE(rig.Drain());
  std::uint64_t dropped = 0;
  std::string tail = rig.session().StderrTail(4096, &dropped);
  EXPECT_EQ(tail.size(), 4096u);
  EXPECT_EQ(tail.substr(tail.size() - 4), "END\n");
  EXPECT_EQ(dropped, 10004u - 4096u) << "what the tail leaves out is counted, not lost silently";
}

TEST(Session, AHeldMethodIsLeftForTheScenarioToAnswer) {
  Rig rig("rim-v1");
  rig.session().host().Hold("rim.log");
  rig.SendHandshake();
  rig.Push(kRimAccepted);
  rig.Push(
      R"({"jsonrpc":"2.0","id":7,"method":"rim.log","params":{"level":"info","message":"x"}})");
  ASSERT_TRUE(rig.Drain());
  ASSERT_EQ(rig.session().inbox().size(), 2u);
  std::optional<Inbound> request = rig.session().inbox().Take(
      [](const Inbound& in) { return in.kind == protocol::MessageKind::kRequest; });
  ASSERT_TRUE(request);
  EXPECT_FALSE(request->answered_by_host);
  std::size_t sent = rig.child().stdin_bytes().size();
  rig.session().Reply(*request, Json(R"({"result":{"ok":true}})"));
  EXPECT_GT(rig.child().stdin_bytes().size(), sent);
  EXPECT_EQ(rig.session().transcript().back().notes.back(),
            "answers #" + std::to_string(request->frame));
  EXPECT_EQ(rig.session().inbox().size(), 1u);
}

TEST(Session, RaisesNotJsonForALineThatIsNotJson) {
  Rig rig("flash-v1");
  rig.child().PushStdout("hello from println!\n");
  ASSERT_TRUE(rig.Drain());
  EXPECT_EQ(rig.Checks(), Checks{"not-json"});
  EXPECT_EQ(rig.session().findings()[0].reason, result::Reason::kNotAMessage);
  EXPECT_EQ(rig.session().transcript().at(0).kind, result::EntryKind::kNotJson);
  EXPECT_TRUE(rig.session().inbox().empty());
}

TEST(Session, AnOversizedLengthHeaderLosesTheConnectionAndSaysItIsText) {
  Rig rig("rim-v1");
  rig.child().PushStdout("HTTP/1.1 200 OK\r\n");
  ASSERT_TRUE(rig.Until([&] { return rig.session().gone(); }));
  EXPECT_TRUE(rig.session().connection_lost());
  EXPECT_EQ(rig.Checks(), Checks{"framing"});
  EXPECT_EQ(rig.session().transcript().at(0).kind, result::EntryKind::kOversized);
  EXPECT_EQ(rig.session().findings()[0].reason, result::Reason::kFramingLost);
  EXPECT_EQ(rig.session().GoneReason(), result::Reason::kFramingLost);
}

TEST(Session, AnOversizedLineIsAFramingFaultButTheStreamGoesOn) {
  Session::Options options;
  Rig rig("flash-v1", options);
  std::string line(rig.profile().max_payload() + 1, 'x');
  rig.child().PushStdout(line + "\n");
  rig.Push(R"({"method":"log","params":{"level":"info","message":"still here"}})");
  ASSERT_TRUE(rig.Drain());
  EXPECT_FALSE(rig.session().connection_lost());
  ASSERT_EQ(rig.session().transcript().size(), 2u);
  EXPECT_EQ(rig.session().transcript()[0].kind, result::EntryKind::kOversized);
  EXPECT_EQ(rig.session().transcript()[1].kind, result::EntryKind::kNotification);
  EXPECT_EQ(rig.Checks(), Checks{"framing"});
  EXPECT_EQ(rig.session().findings()[0].reason, result::Reason::kNotAMessage)
      << "the stream went on";
  EXPECT_EQ(rig.session().GoneReason(), result::Reason::kStdoutClosed);
}

TEST(Session, AnEofInsideAFrameIsTruncation) {
  Rig rig("rim-v1");
  rig.child().PushStdout(
      *wire::FindFraming("length-prefixed")->EncodeClaiming(R"({"jsonrpc":)", 100));
  ASSERT_TRUE(rig.Drain());
  EXPECT_TRUE(rig.session().gone());
  EXPECT_EQ(rig.session().GoneReason(), result::Reason::kStdoutClosed);
  EXPECT_EQ(rig.Checks(), Checks{"framing"});
  EXPECT_EQ(rig.session().findings()[0].reason, result::Reason::kCutShort);
  EXPECT_EQ(rig.session().transcript().at(0).kind, result::EntryKind::kTruncated);
}

TEST(Session, PastTheEntryCapFramesAreTalliedAndStillChecked) {
  Session::Options options;
  options.transcript_entries_cap = 4;
  options.findings_per_check = 2;
  Rig rig("rim-v1", options);
  for (int i = 0; i < 10; ++i)
    rig.Push(R"({"jsonrpc":"2.0","method":"rim.principal.changed","params":{}})");
  ASSERT_TRUE(rig.Drain());
  const auto& transcript = rig.session().transcript();
  ASSERT_EQ(transcript.size(), 4u);
  EXPECT_EQ(transcript[3].kind, result::EntryKind::kTally);
  EXPECT_NE(transcript[3].notes.at(0).find("7 frames from #3 on"), std::string::npos)
      << transcript[3].notes.at(0);
  EXPECT_NE(rig.session().Entry(2), nullptr);
  EXPECT_EQ(rig.session().Entry(5), nullptr);
  // Every frame broke the order, the tallied ones too: 2 listed, the other 8 counted.
  std::vector<std::string> before;
  for (const auto& f : rig.session().findings())
    if (f.check == "before-handshake") before.push_back(f.message);
  ASSERT_EQ(before.size(), 3u);
  EXPECT_EQ(before[2].rfind("8 more before-handshake findings after the first 2", 0), 0u)
      << before[2];
}

TEST(Session, PastTheTextBudgetEntriesAreSummaries) {
  Session::Options options;
  options.transcript_bytes_cap = 300;  // one entry of these, then summaries
  Rig rig("flash-v1", options);
  std::string message(150, 'm');
  for (int i = 0; i < 3; ++i)
    rig.Push(R"({"method":"log","params":{"level":"info","message":")" + message + R"("}})");
  ASSERT_TRUE(rig.Drain());
  const auto& transcript = rig.session().transcript();
  ASSERT_GE(transcript.size(), 2u);
  EXPECT_FALSE(transcript[0].summarised);
  EXPECT_TRUE(transcript[1].summarised);
  EXPECT_TRUE(transcript[1].text.empty());
  EXPECT_EQ(transcript[1].kind, result::EntryKind::kNotification);
}

TEST(Session, ReleasesTheOldestUntakenFramesPastTheInboxCap) {
  Session::Options options;
  options.inbox_documents_cap = 2;
  Rig rig("flash-v1", options);
  for (int i = 0; i < 5; ++i)
    rig.Push(R"({"method":"log","params":{"level":"info","message":"n)" + std::to_string(i) +
             R"("}})");
  ASSERT_TRUE(rig.Drain());
  EXPECT_EQ(rig.session().inbox().size(), 2u);
  EXPECT_EQ(rig.session().inbox_released(), 3u);
  EXPECT_EQ(rig.session().inbox().Take(Any)->frame, 3u);
  EXPECT_EQ(rig.session().inbox().Take(Any)->frame, 4u);
  EXPECT_EQ(rig.session().transcript()[0].notes.back().rfind("released untaken", 0), 0u);
}

// Steps pull, nothing is scanned twice: a cursor reads each message once, in order, under the
// frame number its entry was recorded with, as it arrives; what the step takes leaves the inbox,
// and only that. Once the plugin is gone and everything is read, Next ends the wait.
TEST(Session, ACursorReadsEachMessageOnceAndTheInboxKeepsWhatIsNotTaken) {
  Rig rig("rim-v1");
  rig.SendHandshake();
  rig.Push(kRimAccepted);
  rig.Push(R"({"jsonrpc":"2.0","method":"rim.principal.changed","params":{}})");
  rig.child().PushStderr("noise\n");
  std::vector<Inbound> read;
  Cursor cursor;
  const Clock::time_point until = Clock::now() + std::chrono::seconds(10);
  while (read.size() < 2) {
    std::optional<Inbound> in = rig.session().Next(cursor, until);
    ASSERT_TRUE(in);
    read.push_back(*in);
    if (in->kind == protocol::MessageKind::kResponse) {
      EXPECT_TRUE(rig.session().Take(in->frame));
    }
  }
  ASSERT_TRUE(rig.Drain());
  EXPECT_FALSE(rig.session().Next(cursor, until)) << "gone, and nothing left unread";
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].frame, 1u);
  EXPECT_EQ(read[0].kind, protocol::MessageKind::kResponse);
  EXPECT_EQ(read[1].frame, 2u);
  for (const Inbound& in : read) EXPECT_EQ(rig.session().transcript().at(in.frame).index, in.frame);
  ASSERT_EQ(rig.session().inbox().size(), 1u) << "the response was taken";
  EXPECT_FALSE(rig.session().Take(1)) << "taken once";
  EXPECT_EQ(rig.session().inbox().Take(Any)->method, "rim.principal.changed");
  EXPECT_FALSE(rig.session().inbox().Take(Any));
}

TEST(Session, RunUntilReturnsAtItsDeadlineWhenNothingHappens) {
  Rig rig("rim-v1");
  auto end =
      rig.session().RunUntil([] { return false; }, Clock::now() + std::chrono::milliseconds(20));
  EXPECT_EQ(end, Session::WaitEnd::kDeadline);
  EXPECT_FALSE(rig.session().gone());
  EXPECT_EQ(rig.session().GoneReason(), std::nullopt);
  EXPECT_EQ(rig.session().RunUntil([] { return true; }, Clock::now()), Session::WaitEnd::kDone);
}

TEST(Session, IsGoneOnceTheExitHasDrained) {
  Rig rig("rim-v1");
  rig.child().Exit(3);
  ASSERT_TRUE(rig.Until([&] { return rig.session().gone(); }));
  EXPECT_TRUE(rig.session().exited());
  EXPECT_EQ(rig.session().GoneReason(), result::Reason::kPluginExited);
  EXPECT_EQ(rig.session().Describe(result::Reason::kPluginExited),
            "the plugin exited (exit code 3)");
}

TEST(Session, ReportsAPluginThatCannotBeStarted) {
  std::string error;
  auto profile = protocol::Profile::Load(FAKEHOST_SOURCE_DIR "/schema/rim-v1/profile.json", &error);
  ASSERT_TRUE(profile) << error;
  Session::Options options;
  options.spawn = testing::FailingChildFactory("cannot execute ./nope: No such file");
  Session session(*profile, nullptr, options);
  process::SpawnSpec spec;
  spec.argv = {"./nope"};
  EXPECT_FALSE(session.Start(spec, &error));
  EXPECT_EQ(error, "cannot execute ./nope: No such file");
  EXPECT_FALSE(session.exited());
  EXPECT_EQ(session.StderrTail(100), "");
}

TEST(Session, AGradedStopSendsShutdownAndJudgesWhatFollows) {
  Rig rig("rim-v1");
  rig.SendHandshake();
  rig.Push(kRimAccepted);
  ASSERT_TRUE(rig.Until([&] { return rig.session().handshake_answered(); }));
  process::StopResult result = rig.session().Stop(*rig.profile().StopSequence("default"));
  EXPECT_TRUE(result.exited);
  EXPECT_EQ(result.stage_label, "SIGTERM");
  EXPECT_EQ(rig.child().signals(), std::vector<int>{SIGTERM});
  EXPECT_NE(rig.child().stdin_bytes().find(R"("method":"rim.shutdown")"), std::string::npos);
  EXPECT_EQ(rig.session().transcript().back().notes.at(0), "stop sequence: rim.shutdown");
  rig.Push(R"({"jsonrpc":"2.0","method":"rim.log","params":{"level":"info","message":"bye"}})");
  ASSERT_TRUE(rig.Drain());
  EXPECT_EQ(rig.Checks(), Checks{"after-shutdown"});
}

TEST(Session, SendsWhatTheProfileSaysAfterASuccessfulHandshake) {
  Rig rig("flash-v1");
  rapidjson::Document message = Json(R"({"method":"initialize","params":{"protocol_version":1}})");
  message.AddMember("id", rig.session().NextId("initialize"), message.GetAllocator());
  rig.session().Send(std::move(message), false);
  rig.Push(R"({"id":1,"result":{"ok":true,"protocol_version":1}})");
  ASSERT_TRUE(rig.Until([&] { return rig.session().handshake_answered(); }));
  const auto& transcript = rig.session().transcript();
  ASSERT_EQ(transcript.size(), 4u);
  EXPECT_EQ(transcript[2].method, "event");
  EXPECT_EQ(transcript[2].notes.back(), "sent by the host after a successful handshake");
  EXPECT_NE(rig.child().stdin_bytes().find("core:apps.changed"), std::string::npos);
  EXPECT_EQ(rig.Checks(), Checks{});
}

}  // namespace
}  // namespace fakehost::session
