// The player's test fixture, shared by player_test.cpp, player_announce_test.cpp and
// player_revision_test.cpp: the real RIM profile, frame schema and scenario files, a FakeChild in
// place of the process (no fork, no pipes), and a scripted plugin behind it.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>

#include <boost/asio/steady_timer.hpp>

#include "harness/interpreter/interpreter.hpp"
#include "harness/json/json.hpp"
#include "harness/scenario/loader.hpp"
#include "harness/schema/schema.hpp"
#include "harness/session/test_support/fake_child.hpp"
#include "harness/wire/codec.hpp"

namespace fakehost::interpreter::player_testing {

// The scenario layer's names the player's tests load and judge scenarios with.
using result::Failure;
using result::Level;
using result::Reason;
using result::ScenarioResult;
using result::Status;
using scenario::LoadContext;
using scenario::LoadError;
using scenario::LoadScenarioText;
using scenario::Scenario;
using session::testing::FakeChild;

inline const std::string kSource = FAKEHOST_SOURCE_DIR;
inline const std::string kPluginId = "dev.example.hello";

// What the scripted plugin does with one message from the host: the payloads it writes back.
using Script = std::function<std::vector<std::string>(const rapidjson::Document& message)>;

// A plugin that accepts the handshake as RIM §7 asks, sends `after` once it has, and exits when
// told to shut down; anything else it leaves unanswered.
inline Script Accepting(std::string plugin_id = kPluginId, std::vector<std::string> after = {}) {
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
inline std::string AfterHandshake(const std::string& steps) {
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

  // How many messages with method `method` the plugin read.
  std::size_t Received(const std::string& method) const {
    return static_cast<std::size_t>(
        std::count_if(received_.begin(), received_.end(), [&](const std::string& p) {
          return p.find(R"("method":")" + method + R"(")") != std::string::npos;
        }));
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
    options.revision = revision_;
    options.spawn = [this, script](boost::asio::io_context& io, const process::SpawnSpec& spec,
                                   process::Callbacks callbacks, std::string* error) {
      std::this_thread::sleep_for(spawn_delay_);  // a machine busy spawning
      io_ = &io;
      auto child =
          session::testing::FakeChildFactory(&child_)(io, spec, std::move(callbacks), error);
      Run(script);
      return child;
    };
    return interpreter::Play(scenario, *profile_, schema_.get(), target_, options);
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
  void ShortDeadlines(int default_ms, int command_ms, int scenario_max_ms = 0) {
    std::string path = kSource + "/schema/rim-v1/profile.json";
    rapidjson::Document d;
    ASSERT_TRUE(json::Parse(ReadFile(path), &d).ok);
    d["deadlines_ms"]["default"].SetInt(default_ms);
    d["deadlines_ms"]["by_method"]["rim.command.execute"].SetInt(command_ms);
    if (scenario_max_ms) d.AddMember("scenario_timeout_max_ms", scenario_max_ms, d.GetAllocator());
    std::string error;
    profile_ = protocol::Profile::LoadText(json::ToCompact(d), path, &error);
    ASSERT_TRUE(profile_) << error;
  }

  // A manifest of `count` commands, and a scenario (hard limit `timeout`) that runs each in turn.
  std::string CommandsEachInTurn(int count = 3, const char* timeout = "1s") {
    std::string commands;
    for (int i = 0; i < count; ++i)
      commands += std::string(i ? "," : "") + R"({"id":"c)" + std::to_string(i) + R"("})";
    rapidjson::Document manifest;
    EXPECT_TRUE(json::Parse(R"({"commands":[)" + commands + "]}", &manifest).ok);
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
    yaml.replace(yaml.find("steps:"), 6, std::string("timeout: ") + timeout + "\nsteps:");
    return yaml;
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
  std::string revision_;  // --revision R: offer R and judge only a plugin that speaks it
  bool strict_ = false;   // --strict: a should-level miss fails
};

// A command, then the plugin's own request while it serves that command, then its answer.
inline const std::string kCallWhileServing = R"(  - send:
      method: rim.command.execute
      params: {commandId: sync, args: {}, invoker: "${principal}", initiator: user, confirmed: false}
    as: command
  - expect: {request: rim.log}
  - expect: {reply_to: command, result: {$type: object}}
)";
inline const std::string kLog =
    R"({"jsonrpc":"2.0","id":"log-1","method":"rim.log","params":{"level":"info","message":"x"}})";

/// `yaml` without the first occurrence of `line` (a step's option): the scenario as it would be
/// without that option, to show what the option changes.
inline std::string Without(std::string yaml, std::string_view line) {
  yaml.erase(yaml.find(line), line.size());
  return yaml;
}

inline std::string CommandAnswer(const rapidjson::Document& m) {
  return R"({"jsonrpc":"2.0","id":)" + json::ToCompact(m["id"]) + R"(,"result":{"payload":"ok"}})";
}

inline bool IsCommand(const rapidjson::Document& m) {
  const rapidjson::Value* method = json::Find(m, "method");
  return method && method->IsString() && std::string(method->GetString()) == "rim.command.execute";
}

}  // namespace fakehost::interpreter::player_testing
