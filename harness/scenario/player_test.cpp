// The player against a scripted plugin: the real RIM profile, frame schema and scenario files, a
// FakeChild in place of the process (no fork, no pipes). What a scenario's result says about a
// plugin is decided here; these tests pin it without an end-to-end run.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include <boost/asio/steady_timer.hpp>

#include "harness/json/json.hpp"
#include "harness/scenario/interpreter.hpp"
#include "harness/scenario/loader.hpp"
#include "harness/schema/schema.hpp"
#include "harness/session/test_support/fake_child.hpp"
#include "harness/wire/codec.hpp"

namespace fakehost::scenario {
namespace {

using session::Reason;
using session::testing::FakeChild;

const std::string kSource = FAKEHOST_SOURCE_DIR;
const std::string kPluginId = "dev.example.hello";

// What the scripted plugin does with one message from the host: the payloads it writes back.
using Script = std::function<std::vector<std::string>(const rapidjson::Document& message)>;

// A plugin that accepts the handshake as RIM §7 asks, sends `after` once it has, and exits when
// told to shut down; anything else it leaves unanswered.
Script Accepting(std::string plugin_id = kPluginId, std::vector<std::string> after = {}) {
  return [plugin_id, after](const rapidjson::Document& m) -> std::vector<std::string> {
    const rapidjson::Value* method = json::Find(m, "method");
    if (!method || !method->IsString() || std::string(method->GetString()) != "rim.handshake")
      return {};
    std::vector<std::string> out = {
        R"({"jsonrpc":"2.0","id":)" + json::ToCompact(m["id"]) +
        R"(,"result":{"accepted":true,"protocolVersion":1,"pluginId":")" + plugin_id + R"("}})"};
    out.insert(out.end(), after.begin(), after.end());
    return out;
  };
}

// A scenario whose steps are the suite's handshake, then `steps` (YAML lines).
std::string AfterHandshake(const std::string& steps) {
  return "title: t\nspec: \"§7\"\nrequirement: r\nsteps:\n  - use: handshake\n" + steps;
}

class PlayerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    profile_ = protocol::Profile::Load(kSource + "/schema/rim-v1/profile.json", &error);
    ASSERT_TRUE(profile_) << error;
    schema_ = schema::FrameSchema::Load(profile_->schema_path(), &error);
    ASSERT_TRUE(schema_) << error;
    target_.spawn.argv = {"fake-plugin"};
    target_.id = kPluginId;
    target_.version = "1.0.0";
  }

  // Plays `yaml` (as the file `file`) against a FakeChild running `script`.
  ScenarioResult Play(const std::string& yaml, Script script, const std::string& file = "t.yaml") {
    LoadContext context;
    context.fragment_dirs = {kSource + "/scenarios/rim-v1/fragments"};
    Scenario scenario;
    std::vector<LoadError> errors;
    EXPECT_TRUE(LoadScenarioText(yaml, file, "test/scenario", context, &scenario, &errors))
        << (errors.empty() ? "" : errors[0].message);
    PlayOptions options;
    options.strict = strict_;
    options.spawn = [this, script](boost::asio::io_context& io, const process::SpawnSpec& spec,
                                   process::Callbacks callbacks, std::string* error) {
      std::this_thread::sleep_for(spawn_delay_);  // a machine busy spawning
      io_ = &io;
      auto child =
          session::testing::FakeChildFactory(&child_)(io, spec, std::move(callbacks), error);
      Run(script);
      return child;
    };
    return scenario::Play(scenario, *profile_, schema_.get(), target_, options);
  }

  // The plugin's side: decode what reaches its stdin, answer each message by `script`, exit on
  // the shutdown notification (RIM §13).
  void Run(Script script) {
    decoder_ = profile_->framing().MakeDecoder(profile_->max_payload());
    child_->OnStdin([this, script](std::string_view bytes) {
      std::vector<wire::Event> events;
      decoder_->Feed(bytes, &events);
      for (auto& event : events) {
        auto* frame = std::get_if<wire::Frame>(&event);
        rapidjson::Document m;
        if (!frame || !json::Parse(frame->payload, &m).ok || !m.IsObject()) continue;
        received_.push_back(frame->payload);
        for (const std::string& reply : script(m))
          child_->PushStdout(profile_->framing().Encode(reply));
        const rapidjson::Value* method = json::Find(m, "method");
        if (method && method->IsString() && std::string(method->GetString()) == "rim.shutdown")
          child_->Exit(0);
      }
    });
  }

  // The plugin calls rim.chat.read (guarded by chat.read, RIM §12) once the handshake is
  // accepted; the scenario expects that call, then `then` (YAML lines). Returns what the plugin
  // read back under the call's id.
  std::vector<std::string> ChatRead(ScenarioResult* r, const std::string& then) {
    *r = Play(
        "title: t\nspec: \"§12\"\nrequirement: r\nsteps:\n  - use: handshake\n"
        "  - expect: {request: rim.chat.read}\n" +
            then,
        Accepting(kPluginId,
                  {R"({"jsonrpc":"2.0","id":"c1","method":"rim.chat.read","params":{}})"}));
    std::vector<std::string> answers;
    for (const std::string& p : received_)
      if (p.find(R"("id":"c1")") != std::string::npos) answers.push_back(p);
    return answers;
  }

  // The plugin writes `payload` `ms` after now (a plugin that takes its time).
  void Later(int ms, std::string payload) {
    auto timer = std::make_shared<boost::asio::steady_timer>(*io_, std::chrono::milliseconds(ms));
    timer->async_wait([this, timer, payload](const boost::system::error_code& e) {
      if (!e) child_->PushStdout(profile_->framing().Encode(payload));
    });
  }

  // The RIM profile with short deadlines, so a test of the waits waits little: `default_ms`
  // for any request without its own and for frames the plugin sends on its own, `command_ms`
  // for rim.command.execute.
  void ShortDeadlines(int default_ms, int command_ms) {
    std::string path = kSource + "/schema/rim-v1/profile.json";
    rapidjson::Document d;
    ASSERT_TRUE(json::Parse(ReadFile(path), &d).ok);
    d["deadlines_ms"]["default"].SetInt(default_ms);
    d["deadlines_ms"]["by_method"]["rim.command.execute"].SetInt(command_ms);
    std::string error;
    profile_ = protocol::Profile::LoadText(json::ToCompact(d), path, &error);
    ASSERT_TRUE(profile_) << error;
  }

  // The RIM profile, told that a plugin announces what it has in its handshake answer's result
  // (RIM itself does not: its plugins declare in the manifest).
  void AnnouncesInResult() {
    std::string path = kSource + "/schema/rim-v1/profile.json";
    rapidjson::Document d;
    ASSERT_TRUE(json::Parse(ReadFile(path), &d).ok);
    d["handshake"].AddMember("announcements", "/result", d.GetAllocator());
    std::string error;
    profile_ = protocol::Profile::LoadText(json::ToCompact(d), path, &error);
    ASSERT_TRUE(profile_) << error;
    ASSERT_NE(profile_->announcements_pointer(), nullptr);
  }

  // How many messages with method `method` the plugin read.
  std::size_t Received(const std::string& method) const {
    return static_cast<std::size_t>(
        std::count_if(received_.begin(), received_.end(), [&](const std::string& p) {
          return p.find(R"("method":")" + method + R"(")") != std::string::npos;
        }));
  }

  static std::string ReadFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  std::unique_ptr<protocol::Profile> profile_;
  std::unique_ptr<schema::FrameSchema> schema_;
  PluginTarget target_;
  FakeChild* child_ = nullptr;
  std::unique_ptr<wire::Decoder> decoder_;
  std::vector<std::string> received_;  // payloads the plugin read, in order
  std::chrono::milliseconds spawn_delay_{0};
  boost::asio::io_context* io_ = nullptr;
  bool strict_ = false;  // --strict: a should-level miss fails
};

// A command, then the plugin's own request while it serves that command, then its answer.
const std::string kCallWhileServing = R"(  - send:
      method: rim.command.execute
      params: {commandId: sync, args: {}, invoker: "${principal}", initiator: user, confirmed: false}
    as: command
  - expect: {request: rim.log}
  - expect: {reply_to: command, result: {$type: object}}
)";
const std::string kLog =
    R"({"jsonrpc":"2.0","id":"log-1","method":"rim.log","params":{"level":"info","message":"x"}})";

std::string CommandAnswer(const rapidjson::Document& m) {
  return R"({"jsonrpc":"2.0","id":)" + json::ToCompact(m["id"]) + R"(,"result":{"payload":"ok"}})";
}

bool IsCommand(const rapidjson::Document& m) {
  const rapidjson::Value* method = json::Find(m, "method");
  return method && method->IsString() && std::string(method->GetString()) == "rim.command.execute";
}

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
  EXPECT_EQ(r.transcript[1].kind, session::EntryKind::kResponse);
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
  ScenarioResult r = scenario::Play(scenario, *profile_, schema_.get(), target_, options);
  EXPECT_EQ(r.status, Status::kError);
  ASSERT_FALSE(r.failures.empty());
  EXPECT_TRUE(r.failures[0].harness_error);
  EXPECT_EQ(r.failures[0].reason, Reason::kHarnessFault);
  EXPECT_NE(r.failures[0].message.find("no such file"), std::string::npos);
}

}  // namespace
}  // namespace fakehost::scenario

namespace fakehost::scenario {
namespace {

// What a plugin sends on its own while serving a request may come at any time before that
// request's deadline: a host call 4x the default deadline into a command is waited for.
TEST_F(PlayerTest, APluginsCallWhileItServesARequestIsWaitedForUntilThatRequestsDeadline) {
  ShortDeadlines(/*default_ms=*/200, /*command_ms=*/3000);
  ScenarioResult r = Play(AfterHandshake(kCallWhileServing), [&](const rapidjson::Document& m) {
    if (!IsCommand(m)) return Accepting()(m);
    Later(800, kLog);
    Later(1000, CommandAnswer(m));
    return std::vector<std::string>{};
  });
  EXPECT_EQ(r.status, Status::kPass) << (r.failures.empty() ? "" : r.failures[0].message);
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
  EXPECT_EQ(r.failures[0].step, 4u);
  EXPECT_EQ(r.failures[0].reason, Reason::kDeadlinePassed);
  EXPECT_NE(r.failures[0].message.find("no rim.log request"), std::string::npos)
      << r.failures[0].message;
}

// How many items a for_each walks is the plugin's: each gets the whole hard limit, so three
// commands answered well inside their deadline are not cut short by the scenario's limit.
TEST_F(PlayerTest, EachItemOfAForEachGetsTheWholeHardLimit) {
  ShortDeadlines(/*default_ms=*/200, /*command_ms=*/3000);
  rapidjson::Document manifest;
  ASSERT_TRUE(json::Parse(R"({"commands":[{"id":"a"},{"id":"b"},{"id":"c"}]})", &manifest).ok);
  target_.manifest = std::make_shared<const rapidjson::Document>(std::move(manifest));
  std::string yaml = AfterHandshake(R"(  - for_each:
      items: /commands
      steps:
        - send:
            method: rim.command.execute
            params: {commandId: "${item.id}", args: {}, invoker: "${principal}", initiator: user, confirmed: false}
          as: command
        - expect: {reply_to: command, result: {$type: object}}
)");
  yaml.replace(yaml.find("steps:"), 6, "timeout: 1s\nsteps:");
  ScenarioResult r = Play(yaml, [&](const rapidjson::Document& m) {
    if (!IsCommand(m)) return Accepting()(m);
    Later(600, CommandAnswer(m));
    return std::vector<std::string>{};
  });
  EXPECT_EQ(r.status, Status::kPass) << (r.failures.empty() ? "" : r.failures[0].message);
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

// After the handshake, one command the Accepting plugin never answers: a scenario that got as
// far as sending it would fail (unanswered), so a pass or a skip shows where the steps stopped.
const std::string kUnansweredCommand = R"(  - send:
      method: rim.command.execute
      params: {commandId: sync, args: {}, invoker: "${principal}", initiator: user, confirmed: false}
    as: command
  - expect: {reply_to: command}
    within: 300ms
)";

// A step that checks the plugin and passes with the Accepting plugin: nothing it never sends.
const std::string kQuietCheck = "  - expect_none: {notification: fakehost.never}\n    for: 50ms\n";

std::string Requiring(const std::string& requirement, const std::string& steps) {
  std::string yaml = AfterHandshake(steps);
  yaml.replace(yaml.find("steps:"), 6, "requires: [" + requirement + "]\nsteps:");
  return yaml;
}

TEST_F(PlayerTest, AnUnmetAnnouncedRequirementEndsTheScenarioAsNotApplicable) {
  AnnouncesInResult();
  ScenarioResult r =
      Play(Requiring("{announced: /capabilities/tools}", kUnansweredCommand), Accepting());
  EXPECT_EQ(r.status, Status::kSkip) << (r.failures.empty() ? "" : r.failures[0].message);
  EXPECT_TRUE(r.failures.empty());
  EXPECT_NE(r.skip_reason.find("/capabilities/tools"), std::string::npos) << r.skip_reason;
  EXPECT_EQ(Received("rim.handshake"), 1u) << "the handshake is played: its answer decides";
  EXPECT_EQ(Received("rim.command.execute"), 0u) << "no step after the handshake answer ran";
  EXPECT_EQ(Received("rim.shutdown"), 1u) << "the scenario ends with the teardown sequence";
  // The handshake as the last step: its answer settles the scenario all the same.
  ScenarioResult last = Play(Requiring("{announced: /capabilities/tools}", ""), Accepting());
  EXPECT_EQ(last.status, Status::kSkip);
  EXPECT_NE(last.skip_reason.find("/capabilities/tools"), std::string::npos) << last.skip_reason;
}

TEST_F(PlayerTest, AMetAnnouncedRequirementPlaysTheSteps) {
  AnnouncesInResult();
  ScenarioResult met = Play(Requiring("{announced: /accepted}", kUnansweredCommand), Accepting());
  EXPECT_EQ(met.status, Status::kFail) << "the steps after the handshake ran, and missed";
  EXPECT_EQ(Received("rim.command.execute"), 1u);
  received_.clear();
  ScenarioResult passes = Play(Requiring("{announced: /accepted}", kQuietCheck), Accepting());
  EXPECT_EQ(passes.status, Status::kPass)
      << passes.skip_reason << (passes.failures.empty() ? "" : passes.failures[0].message);
}

TEST_F(PlayerTest, NotAnnouncedIsTheInverse) {
  AnnouncesInResult();
  ScenarioResult announced =
      Play(Requiring("{not_announced: /accepted}", kUnansweredCommand), Accepting());
  EXPECT_EQ(announced.status, Status::kSkip);
  EXPECT_NE(announced.skip_reason.find("/accepted"), std::string::npos) << announced.skip_reason;
  ScenarioResult absent =
      Play(Requiring("{not_announced: /capabilities/tools}", kQuietCheck), Accepting());
  EXPECT_EQ(absent.status, Status::kPass) << absent.skip_reason;
}

TEST_F(PlayerTest, AnAnnouncedRequirementWithoutTheProfilesPointerIsAScenarioError) {
  // The RIM profile names no handshake.announcements.
  ScenarioResult r = Play(Requiring("{announced: /accepted}", kQuietCheck), Accepting());
  EXPECT_EQ(r.status, Status::kError);
  ASSERT_FALSE(r.failures.empty());
  EXPECT_TRUE(r.failures[0].harness_error);
  EXPECT_EQ(Received("rim.handshake"), 0u) << "nothing was spawned";
}

TEST_F(PlayerTest, AMissingTriggerOfAScenarioThatDoesNotApplyIsNotApplicableNotUntested) {
  AnnouncesInResult();
  const std::string steps =
      "  - send: {trigger: never_given}\n    as: t\n  - expect: {reply_to: t}\n";
  ScenarioResult unmet = Play(Requiring("{announced: /capabilities/tools}", steps), Accepting());
  EXPECT_EQ(unmet.status, Status::kSkip) << unmet.skip_reason;
  ScenarioResult met = Play(Requiring("{announced: /accepted}", steps), Accepting());
  EXPECT_EQ(met.status, Status::kUntested) << met.skip_reason;
  EXPECT_NE(met.skip_reason.find("never_given"), std::string::npos) << met.skip_reason;
}

TEST_F(PlayerTest, AForEachOverACapturedListRunsOncePerItemTheFrameHeld) {
  ShortDeadlines(/*default_ms=*/200, /*command_ms=*/3000);
  std::string yaml = AfterHandshake(R"(  - send:
      method: rim.command.execute
      params: {commandId: list, args: {}, invoker: "${principal}", initiator: user, confirmed: false}
    as: ask
  - expect: {reply_to: ask}
    as: list
  - for_each:
      items: "${list.result.payload}"
      where: {skip: {$not: true}}
      steps:
        - send:
            method: rim.command.execute
            params: {commandId: "${item.id}", args: {}, invoker: "${principal}", initiator: user, confirmed: false}
          as: command
        - expect: {reply_to: command, result: {payload: "${item.id}"}}
)");
  // Each item's command is answered 600 ms late: three of them outlast a 1 s hard limit, which
  // each item gets anew, as a manifest item does.
  yaml.replace(yaml.find("steps:"), 6, "timeout: 1s\nsteps:");
  std::vector<std::string> commands;
  ScenarioResult r = Play(yaml, [&](const rapidjson::Document& m) {
    if (!IsCommand(m)) return Accepting()(m);
    const std::string id = m["params"]["commandId"].GetString();
    const std::string reply_id = json::ToCompact(m["id"]);
    if (id == "list")
      return std::vector<std::string>{
          R"({"jsonrpc":"2.0","id":)" + reply_id +
          R"(,"result":{"payload":[{"id":"a"},{"id":"b","skip":true},{"id":"c"},{"id":"d"}]}})"};
    commands.push_back(id);
    Later(600,
          R"({"jsonrpc":"2.0","id":)" + reply_id + R"(,"result":{"payload":")" + id + R"("}})");
    return std::vector<std::string>{};
  });
  EXPECT_EQ(r.status, Status::kPass) << (r.failures.empty() ? "" : r.failures[0].message);
  EXPECT_EQ(commands, (std::vector<std::string>{"a", "c", "d"}));
}

TEST_F(PlayerTest, AForEachOverACapturedFrameWithoutTheListMisses) {
  std::string yaml = AfterHandshake(R"(  - send:
      method: rim.command.execute
      params: {commandId: list, args: {}, invoker: "${principal}", initiator: user, confirmed: false}
    as: ask
  - expect: {reply_to: ask}
    as: list
  - for_each:
      items: "${list.result.payload}"
      steps:
        - sleep: 1ms
)");
  ScenarioResult r = Play(yaml, [&](const rapidjson::Document& m) {
    if (!IsCommand(m)) return Accepting()(m);
    return std::vector<std::string>{R"({"jsonrpc":"2.0","id":)" + json::ToCompact(m["id"]) +
                                    R"(,"result":{"payload":"not a list"}})"};
  });
  EXPECT_EQ(r.status, Status::kFail);
  ASSERT_FALSE(r.failures.empty());
  EXPECT_EQ(r.failures[0].step_kind, "for_each");
  EXPECT_EQ(r.failures[0].reason, Reason::kWrongContent);
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
       Accepting());
  std::vector<rapidjson::Document> commands;
  for (const std::string& p : received_) {
    rapidjson::Document d;
    if (json::Parse(p, &d).ok && IsCommand(d)) commands.push_back(std::move(d));
  }
  ASSERT_EQ(commands.size(), 2u);
  EXPECT_TRUE(json::StrictEqual(commands[1]["params"]["args"]["names"], commands[0]["id"]))
      << json::ToCompact(commands[1]);
}

}  // namespace
}  // namespace fakehost::scenario
