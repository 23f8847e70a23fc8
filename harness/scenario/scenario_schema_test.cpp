// schema/scenario.schema.json (for editors) against the loader: what one accepts, so does the
// other, on a scenario that uses every step kind.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/protocol/registry.hpp"
#include "harness/scenario/loader.hpp"
#include "harness/scenario/yaml_json.hpp"
#include "harness/schema/schema.hpp"

namespace fakehost::scenario {
namespace {

constexpr const char* kEverything = R"(title: Every step kind
spec: "§0"
requirement: The schema and the loader agree.
level: should
tags: [a, b]
requires: [/commands, {announced: /capabilities/tools}, {not_announced: /capabilities/x}]
vars: {who: me, n: 2}
host:
  replies:
    host.ping: {result: {ok: true}}
    rim.chat.read: {error: {code: -32000, message: denied}}
    host.fetch: hold
config: {verbose: true}
timeout: 30s
steps:
  - send: {method: rim.handshake, params: {v: "${n}"}}
    as: hs
  - send: {method: m, id: "1", params: {data: ""}}
    pad_to: 1000
    pad_at: /params/data
    level: may
    note: padded
  - send: {method: m, id: null, params: []}
    invalid: true
  - notify: {method: rim.principal.changed, params: {}}
  - send_raw: {hex: "0a ff", framed: false}
  - send_raw: {text: "{}", length: 99, repeat: 2, chunk: 1, delay: 1ms}
  - expect:
      reply_to: hs
      result:
        accepted: false
        protocolVersion: {$type: integer}
        error: {$type: [string, "null"], $min_length: 1, $regex: "^v"}
        list: [1, {$any: true}]
        items: {$each: {$not: {$absent: true}}, $contains: 1, $len: 3}
        n: {$min: 0, $max: "${n}", $one_of: [1, 2]}
    within: 10s
    not_before: 1s
  - expect: {request: rim.log, params: {level: info}}
    as: log
    reply: {result: {ok: true}}
  - expect: {notification: progress}
  - expect: {response: true, error: {code: -32601}}
  - expect: {any: true, message: {id: 3}}
  - expect_none: {any: true}
    for: 100ms
    since: hs
  - expect_none: {notification: x}
    barrier: true
  - expect: {request: rim.host.call}
    as: call
  - for_each:
      items: "${call.params.list}"
      steps:
        - sleep: 1ms
  - answer: {to: call, result: {ok: true}}
  - close_stdin: {}
  - close_stdin:
  - kill_parent: {}
  - signal: TERM
  - signal: 10
  - sleep: 1.5s
  - expect_exit: {code: 0}
    within: 1s
  - expect_exit: {signal: SIGKILL}
    within: 1s
  - shutdown: {}
  - shutdown: {sequence: polite, grace: 2s}
  - for_each:
      items: /commands
      where: {dangerous: {$not: true}}
      steps:
        - send: {method: rim.command.execute, params: {commandId: "${item.id}"}}
          as: run
        - expect: {reply_to: run}
  - use: greet
)";

class ScenarioSchema : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string error;
    schema_ = schema::FrameSchema::Load("schema/scenario.schema.json", &error).release();
    ASSERT_NE(schema_, nullptr) << error;
  }
  static void TearDownTestSuite() { delete schema_; }

  // Violations of the YAML text against the schema entry `def`, joined into one string.
  static std::string Violations(const std::string& yaml, const char* def = "scenario") {
    std::vector<LoadError> errors;
    rapidjson::Document doc;
    EXPECT_TRUE(ParseYamlToJson(yaml, "s.yaml", &doc, nullptr, &errors));
    std::string out;
    for (const auto& v : schema_->Validate(def, doc)) out += v.pointer + ": " + v.message + "\n";
    return out;
  }

  static schema::FrameSchema* schema_;
};
schema::FrameSchema* ScenarioSchema::schema_ = nullptr;

TEST_F(ScenarioSchema, AcceptsAScenarioThatTheLoaderAccepts) {
  LoadContext context;
  context.fragments["greet"] = "- sleep: 1ms\n";
  Scenario scenario;
  std::vector<LoadError> errors;
  ASSERT_TRUE(LoadScenarioText(kEverything, "s.yaml", "s", context, &scenario, &errors))
      << errors[0].ToString();
  EXPECT_EQ(Violations(kEverything), "");
  EXPECT_EQ(Violations("- sleep: 1ms\n- use: other\n", "fragment"), "");
}

TEST_F(ScenarioSchema, RejectsWhatTheLoaderRejects) {
  const std::string head = "title: T\nspec: S\nrequirement: R\n";
  const char* bad_steps[] = {
      "  - sned: {method: m}\n",
      "  - sleep: 10\n",
      "  - sleep: 5 sec\n",
      "  - sleep: 1s\n    within: 1s\n",
      "  - expect: {response: true, any: true}\n",
      "  - expect: {response: true, result: {$typo: 1}}\n",
      "  - expect: {response: true, result: {$type: string, a: 1}}\n",
      "  - expect_none: {any: true}\n",
      "  - expect_exit: {}\n",
      "  - send_raw: {hex: 0g}\n",
      "  - signal: TERMINATE\n",
      "  - send: {method: m}\n    level: MUST\n",
      "  - for_each: {items: \"${a}${b}\", steps: [{sleep: 1ms}]}\n",
  };
  for (const char* steps : bad_steps) {
    EXPECT_NE(Violations(head + "steps:\n" + steps), "") << steps;
  }
  EXPECT_NE(Violations("title: T\nspec: S\nsteps: [{sleep: 1s}]\n"), "");  // no requirement
  EXPECT_NE(Violations(head + "colour: red\nsteps: [{sleep: 1s}]\n"), "");
  EXPECT_NE(Violations(head + "requires: [{declared: /a}]\nsteps: [{sleep: 1s}]\n"), "");
  EXPECT_NE(Violations(head + "requires: [{announced: a}]\nsteps: [{sleep: 1s}]\n"), "");
}

// The schema editors check scenario files with must accept every scenario fakehost ships: a step
// kind the loader knows but the schema does not would flag a correct file.
TEST_F(ScenarioSchema, AcceptsEveryShippedScenarioAndFragment) {
  std::size_t files = 0;
  for (const std::string& protocol : protocol::ProtocolNames(".")) {
    for (const auto& entry :
         std::filesystem::recursive_directory_iterator("scenarios/" + protocol)) {
      if (entry.path().extension() != ".yaml") continue;
      std::ifstream in(entry.path());
      std::stringstream text;
      text << in.rdbuf();
      bool fragment = entry.path().parent_path().filename() == "fragments";
      EXPECT_EQ(Violations(text.str(), fragment ? "fragment" : "scenario"), "") << entry.path();
      ++files;
    }
  }
  EXPECT_GT(files, 90u);
}

}  // namespace
}  // namespace fakehost::scenario
