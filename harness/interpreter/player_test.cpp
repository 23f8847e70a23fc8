// The player against a scripted plugin (player_test_support.hpp). What a scenario's result says
// about a plugin is decided here; these tests pin it without an end-to-end run.
#include "harness/interpreter/player_test_support.hpp"

namespace fakehost::interpreter {
namespace {

using namespace player_testing;  // NOLINT: the fixture and the scripted plugins

const std::string kAcceptsOffered = "/scenarios/rim-v1/handshake/accepts-offered-version.yaml";

// The hard limit is the plugin's time: a machine that takes longer to spawn it than the whole
// limit (thousands of --jobs) does not fail a plugin that answers at once.
TEST_F(PlayerTest, TheHardLimitStartsWhenThePluginHasStarted) {
  spawn_delay_ = std::chrono::milliseconds(400);
  std::string yaml = ReadFile(kSource + kAcceptsOffered);
  yaml.replace(yaml.find("steps:"), 6, "timeout: 200ms\nsteps:");
  ScenarioResult r = Play(yaml, Accepting());
  ASSERT_EQ(r.steps_run, 2u) << "the handshake is the check here, not a fragment's set-up";
  EXPECT_EQ(r.status, Status::kPass) << (r.failures.empty() ? "" : r.failures[0].message);
}

TEST_F(PlayerTest, PassesAPluginThatAnswersAsTheScenarioExpects) {
  ScenarioResult r = Play(ReadFile(kSource + kAcceptsOffered), Accepting());
  EXPECT_EQ(r.status, Status::kPass);
  EXPECT_TRUE(r.failures.empty()) << r.failures[0].message;
  EXPECT_EQ(r.steps_run, 2u);
  ASSERT_GE(r.transcript.size(), 3u);
  EXPECT_EQ(r.transcript[0].method, "rim.handshake");
  EXPECT_EQ(r.transcript[1].kind, result::EntryKind::kResponse);
  EXPECT_TRUE(r.transcript[1].violations.empty());
  // Torn down the profile's way: the shutdown notification, on which the plugin exited by
  // itself, before any signal.
  EXPECT_EQ(r.transcript.back().method, "rim.shutdown");
  EXPECT_TRUE(r.exit.exited);
  EXPECT_EQ(r.exit.code, 0);
  EXPECT_FALSE(r.exit.signal);
}

TEST_F(PlayerTest, FailsAWrongAnswerAtItsStepWithTheLineAndTheFrame) {
  std::string yaml = ReadFile(kSource + kAcceptsOffered);
  ScenarioResult r = Play(yaml, Accepting("dev.example.other"), "accepts.yaml");
  EXPECT_EQ(r.status, Status::kFail);
  ASSERT_FALSE(r.failures.empty());
  const Failure& f = r.failures[0];
  EXPECT_EQ(f.check, "step");
  EXPECT_EQ(f.reason, Reason::kWrongContent);
  EXPECT_EQ(f.step, 2u);
  EXPECT_EQ(f.step_kind, "expect");
  EXPECT_EQ(f.loc.file, "accepts.yaml");
  // The line of the `- expect:` step in the file.
  std::size_t at = yaml.find("  - expect:");
  EXPECT_EQ(f.loc.line, 1 + std::count(yaml.begin(), yaml.begin() + at, '\n'));
  ASSERT_TRUE(f.frame);
  EXPECT_EQ(*f.frame, 1u);
  EXPECT_NE(f.expected.find("pluginId"), std::string::npos) << f.expected;
  EXPECT_NE(f.actual.find("dev.example.other"), std::string::npos) << f.actual;
}

TEST_F(PlayerTest, FailsAPluginThatStaysSilentPastTheStepsDeadline) {
  ScenarioResult r = Play(AfterHandshake(R"(  - send: {method: rim.heartbeat}
    as: heartbeat
  - expect: {reply_to: heartbeat}
    within: 200ms
)"),
                          Accepting());
  EXPECT_EQ(r.status, Status::kFail);
  ASSERT_FALSE(r.failures.empty());
  EXPECT_EQ(r.failures[0].step, 4u);
  EXPECT_EQ(r.failures[0].reason, Reason::kDeadlinePassed);
  EXPECT_NE(r.failures[0].message.find("200 ms"), std::string::npos) << r.failures[0].message;
}

// A step that waits for a frame that can no longer come says why, as data: the plugin exited.
TEST_F(PlayerTest, AStepWaitingWhenThePluginExitsMissesForThatReason) {
  ScenarioResult r = Play(
      AfterHandshake(R"(  - send: {method: rim.heartbeat}
    as: heartbeat
  - expect: {reply_to: heartbeat}
)"),
      [&](const rapidjson::Document& m) {
        const rapidjson::Value* method = json::Find(m, "method");
        if (method && method->IsString() && std::string(method->GetString()) == "rim.heartbeat")
          child_->Exit(1);
        return Accepting()(m);
      });
  EXPECT_EQ(r.status, Status::kFail);
  ASSERT_FALSE(r.failures.empty());
  EXPECT_EQ(r.failures[0].step, 4u);
  EXPECT_EQ(r.failures[0].reason, Reason::kPluginExited) << r.failures[0].message;
  EXPECT_FALSE(r.failures[0].frame);
}

TEST_F(PlayerTest, AStepCutShortByTheHardLimitMissesForThatReason) {
  std::string yaml = AfterHandshake(R"(  - send: {method: rim.heartbeat}
    as: heartbeat
  - expect: {reply_to: heartbeat}
)");
  yaml.replace(yaml.find("steps:"), 6, "timeout: 300ms\nsteps:");
  ScenarioResult r = Play(yaml, Accepting());
  EXPECT_EQ(r.status, Status::kFail);
  ASSERT_EQ(r.failures.size(), 1u) << "a must-level miss ends the steps: no unanswered check";
  EXPECT_EQ(r.failures[0].step, 4u);
  EXPECT_EQ(r.failures[0].reason, Reason::kHardLimit);
  EXPECT_FALSE(r.failures[0].harness_error);
}

// One owner decides who answers a plugin's request: a request the scenario answers in an
// `answer` step is held from the start, so the fake host never answers it first.
TEST_F(PlayerTest, LetsTheScenarioAnswerAPluginRequestAndTheHostNeverAnswersItFirst) {
  ScenarioResult r;
  std::vector<std::string> answers =
      ChatRead(&r, "    as: call\n  - answer: {to: call, result: {late: true}}\n");
  EXPECT_EQ(r.status, Status::kPass) << (r.failures.empty() ? "" : r.failures[0].message);
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_NE(answers[0].find(R"("result":{"late":true})"), std::string::npos) << answers[0];
}

TEST_F(PlayerTest, AnswersAPluginRequestNoStepAnswersTheProfilesWay) {
  ScenarioResult r;
  std::vector<std::string> answers = ChatRead(&r, "");
  EXPECT_EQ(r.status, Status::kPass) << (r.failures.empty() ? "" : r.failures[0].message);
  ASSERT_EQ(answers.size(), 1u);
  // Not granted in the handshake (grantedCapabilities: []): denied, RIM §12.
  EXPECT_NE(answers[0].find("capability denied: chat.read"), std::string::npos) << answers[0];
}

TEST_F(PlayerTest, ReportsAHostRequestThePluginNeverAnswered) {
  ScenarioResult r = Play(AfterHandshake("  - send: {method: rim.heartbeat}\n"), Accepting());
  EXPECT_EQ(r.status, Status::kFail);
  bool unanswered = false;
  for (const Failure& f : r.failures)
    unanswered = unanswered || (f.check == "unanswered" && f.reason == Reason::kUnanswered);
  EXPECT_TRUE(unanswered);
}

TEST_F(PlayerTest, APluginThatCannotStartIsAHarnessErrorNotAFailure) {
  LoadContext context;
  context.fragment_dirs = {kSource + "/scenarios/rim-v1/fragments"};
  Scenario scenario;
  std::vector<LoadError> errors;
  ASSERT_TRUE(LoadScenarioText(ReadFile(kSource + kAcceptsOffered), "t.yaml", "t", context,
                               &scenario, &errors));
  PlayOptions options;
  options.spawn = session::testing::FailingChildFactory("no such file");
  ScenarioResult r = interpreter::Play(scenario, *profile_, schema_.get(), target_, options);
  EXPECT_EQ(r.status, Status::kError);
  ASSERT_FALSE(r.failures.empty());
  EXPECT_TRUE(r.failures[0].harness_error);
  EXPECT_EQ(r.failures[0].reason, Reason::kHarnessFault);
  EXPECT_NE(r.failures[0].message.find("no such file"), std::string::npos);
}

// What a plugin sends on its own while serving a request may come at any time before that
// request's deadline: a host call 4x the default deadline into a command is waited for, whether
// the step waits for a request or for any frame (a log sent as a request or a notification).
TEST_F(PlayerTest, APluginsCallWhileItServesARequestIsWaitedForUntilThatRequestsDeadline) {
  ShortDeadlines(/*default_ms=*/200, /*command_ms=*/3000);
  std::string any = kCallWhileServing;
  any.replace(any.find("{request: rim.log}"), 18, "{any: true, message: {method: rim.log}}");
  for (const std::string& steps : {kCallWhileServing, any}) {
    ScenarioResult r = Play(AfterHandshake(steps), [&](const rapidjson::Document& m) {
      if (!IsCommand(m)) return Accepting()(m);
      Later(800, kLog);
      Later(1000, CommandAnswer(m));
      return std::vector<std::string>{};
    });
    EXPECT_EQ(r.status, Status::kPass)
        << steps << (r.failures.empty() ? "" : r.failures[0].message);
  }
}

// Once the request is answered, the plugin has the default deadline for what it still sends.
TEST_F(PlayerTest, AfterItsAnswerThePluginHasTheDefaultDeadlineForItsOwnFrames) {
  ShortDeadlines(/*default_ms=*/200, /*command_ms=*/3000);
  ScenarioResult r = Play(AfterHandshake(kCallWhileServing), [&](const rapidjson::Document& m) {
    if (!IsCommand(m)) return Accepting()(m);
    Later(800, kLog);
    return std::vector<std::string>{CommandAnswer(m)};
  });
  EXPECT_EQ(r.status, Status::kFail);
  ASSERT_FALSE(r.failures.empty());
  // Step 4 is `expect: {request: rim.log}`: it waited in vain, and no frame matched it.
  EXPECT_EQ(r.failures[0].step, 4u);
  EXPECT_EQ(r.failures[0].step_kind, "expect");
  EXPECT_EQ(r.failures[0].reason, Reason::kDeadlinePassed) << r.failures[0].message;
  EXPECT_FALSE(r.failures[0].frame) << r.failures[0].message;
}

// How many items a for_each walks is the plugin's: each gets the whole hard limit, so eight
// commands answered well inside their deadline (300 ms of a 2 s limit: a loaded machine has
// 1.7 s to spare on each) are not cut short, though together they take longer than the limit.
TEST_F(PlayerTest, EachItemOfAForEachGetsTheWholeHardLimit) {
  ShortDeadlines(/*default_ms=*/200, /*command_ms=*/3000);
  std::string yaml = CommandsEachInTurn(8, "2s");
  ScenarioResult r = Play(yaml, [&](const rapidjson::Document& m) {
    if (!IsCommand(m)) return Accepting()(m);
    Later(300, CommandAnswer(m));
    return std::vector<std::string>{};
  });
  EXPECT_EQ(r.status, Status::kPass) << (r.failures.empty() ? "" : r.failures[0].message);
}

// ... but never past the profile's ceiling for a whole scenario: with 1.5 s at most, the third
// command (each answered after 600 ms) is cut by the hard limit, however many items there are.
TEST_F(PlayerTest, AForEachNeverRunsPastTheProfilesCeiling) {
  ShortDeadlines(/*default_ms=*/200, /*command_ms=*/3000, /*scenario_max_ms=*/1500);
  std::string yaml = CommandsEachInTurn();
  const auto t0 = std::chrono::steady_clock::now();
  ScenarioResult r = Play(yaml, [&](const rapidjson::Document& m) {
    if (!IsCommand(m)) return Accepting()(m);
    Later(600, CommandAnswer(m));
    return std::vector<std::string>{};
  });
  EXPECT_EQ(r.status, Status::kFail);
  ASSERT_FALSE(r.failures.empty());
  EXPECT_EQ(r.failures[0].reason, Reason::kHardLimit) << r.failures[0].message;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
}

// A miss that came before the fake host made up any answer is the plugin's: the stand-in the
// plugin received afterwards cannot have caused it, so the scenario fails (under --strict, as a
// should-level miss does) rather than being untested.
TEST_F(PlayerTest, AMissBeforeAnyStandInAnswerStaysAFailure) {
  strict_ = true;
  std::string chat_read =
      R"({"jsonrpc":"2.0","id":"c1","method":"rim.chat.read","params":{"chatId":"x"}})";
  auto scenario = [](const std::string& when) {
    return R"(title: t
spec: "§12"
requirement: r
steps:
  - send:
      method: rim.handshake
      params: {protocolVersion: 1, supportedVersions: [1], pluginId: "${plugin.id}", hostVersion: "${host.version}", grantedCapabilities: [chat.read], principal: "${principal}"}
    as: hs
  - expect: {reply_to: hs, result: {accepted: true}}
)" + when;
  };
  const std::string miss = R"(  - send: {method: rim.heartbeat}
    as: hb
  - expect: {reply_to: hb, result: {fakehostNeverThere: true}}
    level: should
)";
  const std::string wait = "  - sleep: 300ms\n";
  // The miss first, the stand-in 100 ms later: a failure.
  ScenarioResult before = Play(scenario(miss + wait), [&](const rapidjson::Document& m) {
    const rapidjson::Value* method = json::Find(m, "method");
    std::string name = method && method->IsString() ? method->GetString() : "";
    if (name == "rim.heartbeat") {
      Later(100, chat_read);
      return std::vector<std::string>{R"({"jsonrpc":"2.0","id":)" + json::ToCompact(m["id"]) +
                                      R"(,"result":{}})"};
    }
    return Accepting()(m);
  });
  EXPECT_EQ(before.status, Status::kFail)
      << before.skip_reason << (before.failures.empty() ? "" : before.failures[0].message);
  // The stand-in first, then the miss: untested, with the YAML to add.
  ScenarioResult after = Play(scenario(wait + miss), [&](const rapidjson::Document& m) {
    const rapidjson::Value* method = json::Find(m, "method");
    std::string name = method && method->IsString() ? method->GetString() : "";
    if (name == "rim.handshake") {
      std::vector<std::string> out = Accepting()(m);
      out.push_back(chat_read);
      return out;
    }
    if (name == "rim.heartbeat")
      return std::vector<std::string>{R"({"jsonrpc":"2.0","id":)" + json::ToCompact(m["id"]) +
                                      R"(,"result":{}})"};
    return std::vector<std::string>{};
  });
  EXPECT_EQ(after.status, Status::kUntested);
  EXPECT_NE(after.skip_reason.find("rim.chat.read"), std::string::npos) << after.skip_reason;
}

TEST_F(PlayerTest, ANamedRequestsIdIsAVariable) {
  Play(AfterHandshake(R"(  - send:
      method: rim.command.execute
      params: {commandId: first, args: {}, invoker: "${principal}", initiator: user, confirmed: false}
    as: first
  - send:
      method: rim.command.execute
      params: {commandId: second, args: {names: "${first.id}"}, invoker: "${principal}", initiator: user, confirmed: false}
    as: second
)"),
       // Both answered: nothing is owed when the steps end, so no command deadline is waited.
       [](const rapidjson::Document& m) {
         if (!IsCommand(m)) return Accepting()(m);
         return std::vector<std::string>{CommandAnswer(m)};
       });
  std::vector<rapidjson::Document> commands;
  for (const std::string& p : received_) {
    rapidjson::Document d;
    if (json::Parse(p, &d).ok && IsCommand(d)) commands.push_back(std::move(d));
  }
  ASSERT_EQ(commands.size(), 2u);
  EXPECT_TRUE(json::StrictEqual(commands[1]["params"]["args"]["names"], commands[0]["id"]))
      << json::ToCompact(commands[1]);
}

// expect_none since: NAME judges what came after NAME's answer, not what the plugin sent before
// it (MCP: log messages from before a logging/setLevel answer are not held to the new level).
TEST_F(PlayerTest, ExpectNoneSinceANamedAnswerJudgesOnlyTheFramesAfterIt) {
  const std::string steps = R"(  - send:
      method: rim.command.execute
      params: {commandId: sync, args: {}, invoker: "${principal}", initiator: user, confirmed: false}
    as: command
  - expect: {reply_to: command, result: {$type: object}}
  - expect_none: {request: rim.log}
    since: command
    for: 200ms
)";
  auto plugin = [](bool log_first) {
    return [log_first](const rapidjson::Document& m) {
      if (!IsCommand(m)) return Accepting()(m);
      return log_first ? std::vector<std::string>{kLog, CommandAnswer(m)}
                       : std::vector<std::string>{CommandAnswer(m), kLog};
    };
  };
  ScenarioResult before = Play(AfterHandshake(steps), plugin(true));
  EXPECT_EQ(before.status, Status::kPass)
      << (before.failures.empty() ? "" : before.failures[0].message);
  ScenarioResult after = Play(AfterHandshake(steps), plugin(false));
  ASSERT_EQ(after.status, Status::kFail);
  EXPECT_EQ(after.failures[0].reason, Reason::kForbiddenFrame);
  ScenarioResult all = Play(Without(AfterHandshake(steps), "    since: command\n"), plugin(true));
  EXPECT_EQ(all.status, Status::kFail) << "without since, the log before the answer is judged";
}

// expect after: NAME takes only what the plugin sent after NAME: a log it sent while serving an
// earlier command is not the log this command was to make it send.
TEST_F(PlayerTest, ExpectAfterANamedSendTakesOnlyTheFramesSentAfterIt) {
  const std::string command = R"(
      method: rim.command.execute
      params: {commandId: sync, args: {}, invoker: "${principal}", initiator: user, confirmed: false}
)";
  const std::string steps = "  - send:" + command + "    as: first\n" +
                            "  - expect: {reply_to: first, result: {$type: object}}\n" +
                            "  - send:" + command + "    as: second\n" + R"(  - expect:
      any: true
      message: {method: rim.log}
    after: second
    within: 300ms
  - expect: {reply_to: second, result: {$type: object}}
)";
  auto plugin = [](bool logs_when_asked) {
    return [logs_when_asked, commands = 0](const rapidjson::Document& m) mutable {
      if (!IsCommand(m)) return Accepting()(m);
      if (++commands == 1) return std::vector<std::string>{kLog, CommandAnswer(m)};
      std::string log = kLog;
      log.replace(log.find("log-1"), 5, "log-2");
      return logs_when_asked ? std::vector<std::string>{log, CommandAnswer(m)}
                             : std::vector<std::string>{CommandAnswer(m)};
    };
  };
  ScenarioResult asked = Play(AfterHandshake(steps), plugin(true));
  EXPECT_EQ(asked.status, Status::kPass)
      << (asked.failures.empty() ? "" : asked.failures[0].message);
  ScenarioResult silent = Play(AfterHandshake(steps), plugin(false));
  ASSERT_EQ(silent.status, Status::kFail);
  EXPECT_EQ(silent.failures[0].reason, Reason::kDeadlinePassed);
  EXPECT_NE(silent.failures[0].actual.find("sent before second"), std::string::npos)
      << silent.failures[0].actual;
  ScenarioResult any = Play(Without(AfterHandshake(steps), "    after: second\n"), plugin(false));
  EXPECT_EQ(any.status, Status::kPass) << "without after, the earlier log is taken";
}

}  // namespace
}  // namespace fakehost::interpreter
