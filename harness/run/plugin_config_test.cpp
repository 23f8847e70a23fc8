#include "harness/run/plugin_config.hpp"

#include <gtest/gtest.h>

#include <set>

#include "harness/json/json.hpp"
#include "harness/json/text_file.hpp"
#include "harness/protocol/registry.hpp"
#include "harness/schema/schema.hpp"

namespace fakehost::run {
namespace {

std::string Errors(const std::vector<scenario::LoadError>& errors) {
  std::string out;
  for (const auto& e : errors) out += e.ToString() + "\n";
  return out;
}

std::unique_ptr<protocol::Profile> LoadProfile(const std::string& name) {
  std::string error;
  auto p = protocol::Profile::Load(protocol::ProfilePath(".", name), &error);
  EXPECT_TRUE(p) << error;
  return p;
}

TEST(PluginConfig, ReadsEnvConfigAndTriggers) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  ASSERT_TRUE(ParsePluginConfig(R"(protocol: flash-v1
env: {NOTES_LOG: debug, RETRIES: 3}
config: {units: metric}
triggers:
  slow: {method: perform, params: {kind: command, command: notes, subcommand: sync, args: [], raw: "notes sync"}}
)",
                                "fakehost.yaml", &c, &errors))
      << Errors(errors);
  EXPECT_EQ(c.protocol, "flash-v1");
  EXPECT_EQ(c.env, (std::vector<std::string>{"NOTES_LOG=debug", "RETRIES=3"}));
  ASSERT_TRUE(c.config);
  EXPECT_EQ(json::ToCompact(*c.config), R"({"units":"metric"})");
  ASSERT_TRUE(c.triggers.count("slow"));
  EXPECT_EQ(json::ToCompact(*json::Find(*c.triggers["slow"], "method")), R"("perform")");
  auto profile = LoadProfile("flash-v1");
  EXPECT_TRUE(CheckPluginConfig(c, *profile, &errors)) << Errors(errors);
}

// An env value may name ${scenario.data_dir} (filled per scenario, so parallel scenarios never
// share the plugin's files); "$${" is a literal "${"; any other placeholder is an error at its
// line.
TEST(PluginConfig, EnvNamesTheScenariosDataDirectoryAndNothingElse) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  ASSERT_TRUE(ParsePluginConfig(
      "env:\n  DATA: ${scenario.data_dir}/notes\n  LITERAL: \"$${HOME}\"\n  PLAIN: x\n",
      "fakehost.yaml", &c, &errors))
      << Errors(errors);
  EXPECT_EQ(c.env, (std::vector<std::string>{"LITERAL=${HOME}", "PLAIN=x"}));
  EXPECT_EQ(c.scenario_env, (std::vector<std::string>{"DATA=${scenario.data_dir}/notes"}));

  EXPECT_FALSE(ParsePluginConfig("env:\n  HOME_DIR: ${HOME}\n", "fakehost.yaml", &c, &errors));
  ASSERT_EQ(errors.size(), 1u) << Errors(errors);
  EXPECT_EQ(errors[0].loc.line, 2);
  EXPECT_NE(errors[0].message.find("${scenario.data_dir}"), std::string::npos) << Errors(errors);
}

TEST(PluginConfig, JsonIsValidYamlToo) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  ASSERT_TRUE(ParsePluginConfig(R"({"triggers": {"log": {"method": "perform", "params": {}}}})",
                                "fakehost.yaml", &c, &errors))
      << Errors(errors);
  EXPECT_TRUE(c.triggers.count("log"));
}

TEST(PluginConfig, UnknownKeysAndWrongTypesAreErrorsWithLineAndColumn) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  EXPECT_FALSE(ParsePluginConfig("env: {A: [1]}\ntriggers:\n  slow: {methd: x}\ncolour: red\n",
                                 "f.yaml", &c, &errors));
  std::string all = Errors(errors);
  EXPECT_NE(all.find("f.yaml:1:"), std::string::npos) << all;
  EXPECT_NE(all.find("env values are strings"), std::string::npos) << all;
  EXPECT_NE(all.find("f.yaml:3:10: unknown key 'methd' in a trigger"), std::string::npos) << all;
  EXPECT_NE(all.find("a trigger needs method"), std::string::npos) << all;
  EXPECT_NE(all.find("f.yaml:4:1: unknown key 'colour'"), std::string::npos) << all;
}

TEST(PluginConfig, AnUnknownTriggerNameListsTheProtocolsNames) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  ASSERT_TRUE(ParsePluginConfig("triggers:\n  slowly: {method: rim.command.execute}\n", "f.yaml",
                                &c, &errors))
      << Errors(errors);
  auto profile = LoadProfile("rim-v1");
  EXPECT_FALSE(CheckPluginConfig(c, *profile, &errors));
  std::string all = Errors(errors);
  EXPECT_NE(all.find("f.yaml:2:3: unknown trigger 'slowly' for rim-v1 (known: "), std::string::npos)
      << all;
  EXPECT_NE(all.find("slow"), std::string::npos) << all;
}

TEST(PluginConfig, ConfigIsRefusedWhereTheHostPassesNone) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  ASSERT_TRUE(ParsePluginConfig("config: {a: 1}\nprotocol: flash-v1\n", "f.yaml", &c, &errors));
  auto rim = LoadProfile("rim-v1");
  EXPECT_FALSE(CheckPluginConfig(c, *rim, &errors));
  std::string all = Errors(errors);
  EXPECT_NE(all.find("config: is not passed to a rim-v1 plugin"), std::string::npos) << all;
  EXPECT_NE(all.find("protocol: flash-v1, but the run is rim-v1"), std::string::npos) << all;
}

TEST(PluginConfig, ReadsHostRepliesAndChecksThemAgainstTheProtocol) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  ASSERT_TRUE(ParsePluginConfig(R"(host:
  replies:
    host.process_table: {result: {ok: true, processes: [{pid: 7, comm: notesd}]}}
    host.fetch: {result: {ok: true, body: "[]"}}
)",
                                "f.yaml", &c, &errors))
      << Errors(errors);
  ASSERT_TRUE(c.host_replies.count("host.process_table"));
  EXPECT_EQ(json::ToCompact(*c.host_replies["host.fetch"]),
            R"({"result":{"ok":true,"body":"[]"}})");
  EXPECT_TRUE(CheckPluginConfig(c, *LoadProfile("flash-v1"), &errors)) << Errors(errors);
}

TEST(PluginConfig, AHostReplyForAMethodTheProtocolLacksIsAnErrorAtItsLine) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  ASSERT_TRUE(
      ParsePluginConfig("host:\n  replies:\n    host.proces_table: {result: {ok: true}}\n"
                        "    host.fetch: {result: {body: x}}\n"
                        "    host.open: {error: {code: 1, message: x}}\n",
                        "f.yaml", &c, &errors))
      << Errors(errors);
  EXPECT_FALSE(CheckPluginConfig(c, *LoadProfile("flash-v1"), &errors));
  std::string all = Errors(errors);
  EXPECT_NE(all.find("f.yaml:3:5: host: replies: flash-v1 has no plugin->host method "
                     "'host.proces_table' (known: host.activate"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("f.yaml:4:5: a flash-v1 result is a map carrying boolean ok"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("f.yaml:5:5: a flash-v1 host never answers with error"), std::string::npos)
      << all;
}

TEST(PluginConfig, RimRepliesMayBeErrorsAndGuardedPrefixesAreMethods) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  ASSERT_TRUE(ParsePluginConfig(R"(host:
  replies:
    rim.chat.get_messages: {result: {messages: []}}
    rim.ui.update_panel: {error: {code: -32002, message: "panel closed"}}
    rim.event.typing: {result: {}}
)",
                                "f.yaml", &c, &errors))
      << Errors(errors);
  EXPECT_TRUE(CheckPluginConfig(c, *LoadProfile("rim-v1"), &errors)) << Errors(errors);
  PluginConfig bad;
  ASSERT_TRUE(ParsePluginConfig("host: {replies: {rim.chat.delete_message: {result: {}}}}\n",
                                "g.yaml", &bad, &errors));
  EXPECT_FALSE(CheckPluginConfig(bad, *LoadProfile("rim-v1"), &errors));
  EXPECT_NE(Errors(errors).find("g.yaml:1:18: host: replies: rim-v1 has no plugin->host method"),
            std::string::npos)
      << Errors(errors);
}

TEST(PluginConfig, AHostReplyIsOneResultOrErrorAndHostHasOnlyReplies) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  EXPECT_FALSE(
      ParsePluginConfig("host:\n  replies:\n    host.open: {result: {ok: true}, "
                        "stand_in: x}\n    host.ping: 3\n  answers: {}\n",
                        "f.yaml", &c, &errors));
  std::string all = Errors(errors);
  EXPECT_NE(all.find("f.yaml:3:5: a reply is a map with one key, result"), std::string::npos)
      << all;
  EXPECT_NE(all.find("f.yaml:4:5: a reply is a map with one key"), std::string::npos) << all;
  EXPECT_NE(all.find("f.yaml:5:3: unknown key 'answers' in host (known: replies)"),
            std::string::npos)
      << all;
  EXPECT_TRUE(c.host_replies.empty());
}

TEST(PluginConfig, ATriggerThePluginCannotHaveCarriesItsReason) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  ASSERT_TRUE(ParsePluginConfig("triggers:\n  poll: {none: \"this plugin never polls\"}\n",
                                "f.yaml", &c, &errors))
      << Errors(errors);
  EXPECT_EQ(c.triggers_none["poll"], "this plugin never polls");
  EXPECT_FALSE(c.triggers.count("poll"));
  EXPECT_TRUE(CheckPluginConfig(c, *LoadProfile("flash-v1"), &errors)) << Errors(errors);
  // The name is still checked against the protocol's.
  EXPECT_FALSE(CheckPluginConfig(c, *LoadProfile("rim-v1"), &errors));
  EXPECT_NE(Errors(errors).find("f.yaml:2:3: unknown trigger 'poll' for rim-v1"), std::string::npos)
      << Errors(errors);
}

TEST(PluginConfig, NoneIsAReasonAlone) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  EXPECT_FALSE(
      ParsePluginConfig("triggers:\n  poll: {none: \"\"}\n  slow: {none: x, method: "
                        "perform}\n",
                        "f.yaml", &c, &errors));
  std::string all = Errors(errors);
  EXPECT_NE(all.find("f.yaml:2:"), std::string::npos) << all;
  EXPECT_NE(all.find("none: says why"), std::string::npos) << all;
  EXPECT_NE(all.find("f.yaml:3:3: a trigger the plugin cannot have is {none: \"why\"} alone"),
            std::string::npos)
      << all;
  EXPECT_TRUE(c.triggers_none.empty());
}

TEST(PluginConfig, AnEmptyFileSaysNothing) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  EXPECT_TRUE(ParsePluginConfig("", "f.yaml", &c, &errors)) << Errors(errors);
  EXPECT_TRUE(c.triggers.empty());
}

}  // namespace
}  // namespace fakehost::run

namespace fakehost::run {
namespace {

// schema/fakehost.schema.json is for editors; it must name exactly the protocols there are and
// the triggers their profiles define, or an editor would flag a valid file (or pass a wrong one).
TEST(FakehostSchema, NamesExactlyTheProtocolsAndTheTriggersTheirProfilesDefine) {
  std::string text, error;
  ASSERT_TRUE(
      json::ReadFileCapped("schema/fakehost.schema.json", json::kInputFileCap, &text, &error))
      << error;
  rapidjson::Document schema;
  ASSERT_TRUE(json::Parse(text, &schema).ok);
  const rapidjson::Value* names = json::Resolve(schema, "/properties/triggers/propertyNames/enum");
  ASSERT_TRUE(names && names->IsArray());
  std::set<std::string> in_schema, in_profiles;
  for (const auto& n : names->GetArray()) in_schema.insert(n.GetString());
  std::vector<std::string> protocols = protocol::ProtocolNames(".");
  ASSERT_FALSE(protocols.empty());
  for (const std::string& protocol : protocols) {
    auto profile = LoadProfile(protocol);
    ASSERT_TRUE(profile);
    for (const auto& n : profile->trigger_names()) in_profiles.insert(n);
  }
  EXPECT_EQ(in_schema, in_profiles);
  const rapidjson::Value* names_of = json::Resolve(schema, "/properties/protocol/enum");
  ASSERT_TRUE(names_of && names_of->IsArray());
  std::set<std::string> in_enum;
  for (const auto& n : names_of->GetArray()) in_enum.insert(n.GetString());
  EXPECT_EQ(in_enum, std::set<std::string>(protocols.begin(), protocols.end()));
}

}  // namespace
}  // namespace fakehost::run

namespace fakehost::run {
namespace {

TEST(PluginConfigCommand, ReadsTheProgramAndItsArgumentsNumbersAsWritten) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  ASSERT_TRUE(ParsePluginConfig("protocol: mcp-stdio\ncommand: [./server, --port, 8080, -y]\n",
                                "f.yaml", &c, &errors))
      << Errors(errors);
  EXPECT_EQ(c.command, (std::vector<std::string>{"./server", "--port", "8080", "-y"}));
  auto profile = LoadProfile("mcp-stdio");
  ASSERT_TRUE(profile);
  EXPECT_TRUE(CheckPluginConfig(c, *profile, &errors)) << Errors(errors);
}

TEST(PluginConfigCommand, ABadCommandIsAnErrorAtItsLineAndColumn) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"protocol: mcp-stdio\ncommand: []\n", "f.yaml:2:10:"},
      {"protocol: mcp-stdio\ncommand: ./server\n", "f.yaml:2:10:"},
      {"protocol: mcp-stdio\ncommand:\n  - ./server\n  - {a: 1}\n", "f.yaml:4:5:"},
      {"command: [\"\", x]\n", "f.yaml:1:11:"},
  };
  for (const auto& [text, where] : cases) {
    PluginConfig c;
    std::vector<scenario::LoadError> errors;
    EXPECT_FALSE(ParsePluginConfig(text, "f.yaml", &c, &errors)) << text;
    EXPECT_TRUE(c.command.empty()) << text;
    std::string all = Errors(errors);
    EXPECT_EQ(all.rfind(where, 0), 0u) << text << "\n" << all;
  }
}

TEST(PluginConfigCommand, IsRefusedWhereTheProfileHasAManifest) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  ASSERT_TRUE(ParsePluginConfig("env: {A: b}\ncommand: [./plugin]\n", "f.yaml", &c, &errors))
      << Errors(errors);
  for (const std::string& name : protocol::ProtocolNames(".")) {
    auto profile = LoadProfile(name);
    ASSERT_TRUE(profile);
    std::vector<scenario::LoadError> found;
    EXPECT_EQ(CheckPluginConfig(c, *profile, &found), !profile->has_manifest()) << name;
    if (profile->has_manifest()) {
      ASSERT_EQ(found.size(), 1u) << name << "\n" << Errors(found);
      EXPECT_EQ(found[0].loc.line, 2) << name;
    }
  }
}

TEST(PluginConfigTools, ReadsThePluginIdAndTheToolsFakehostMayCall) {
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  ASSERT_TRUE(ParsePluginConfig("plugin_id: weather\ntools: {call: [get_time, search]}\n", "f.yaml",
                                &c, &errors))
      << Errors(errors);
  EXPECT_EQ(c.plugin_id, "weather");
  EXPECT_EQ(c.call_tools, (std::vector<std::string>{"get_time", "search"}));
  EXPECT_FALSE(c.call_all_tools);
  EXPECT_TRUE(CheckPluginConfig(c, *LoadProfile("mcp-stdio"), &errors)) << Errors(errors);
  // Only where the profile makes triggers from the plugin's tools.
  EXPECT_FALSE(CheckPluginConfig(c, *LoadProfile("rim-v1"), &errors));
  EXPECT_NE(Errors(errors).find("f.yaml:2:8: tools: is for a protocol"), std::string::npos)
      << Errors(errors);
  PluginConfig all;
  ASSERT_TRUE(ParsePluginConfig("tools: {call: all}\n", "f.yaml", &all, &errors));
  EXPECT_TRUE(all.call_all_tools);
}

TEST(PluginConfigTools, ABadToolsOrPluginIdIsAnErrorAtItsLine) {
  for (const char* text : {"tools: {call: some}\n", "tools: {call: [1]}\n", "tools: {run: all}\n",
                           "tools: all\n", "plugin_id: \"\"\n", "plugin_id: [a]\n"}) {
    PluginConfig c;
    std::vector<scenario::LoadError> errors;
    EXPECT_FALSE(ParsePluginConfig(text, "f.yaml", &c, &errors)) << text;
    ASSERT_FALSE(errors.empty()) << text;
    EXPECT_EQ(errors[0].loc.line, 1) << text;
  }
}

// host: replies: are checked at load against the frame schema's answer to their method, at
// their line: a reply the host could never send is bad input, not a frame sent to the plugin.
TEST(PluginConfigHostReplies, AnAnswerTheFrameSchemaRefusesIsAnErrorAtItsLine) {
  auto profile = LoadProfile("mcp-stdio");
  std::string error;
  auto frames = schema::FrameSchema::Load(profile->schema_path(), &error);
  ASSERT_TRUE(frames) << error;
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  ASSERT_TRUE(
      ParsePluginConfig("host:\n  replies:\n    roots/list: {result: {roots: x}}\n"
                        "    sampling/createMessage: {error: {code: x}}\n",
                        "f.yaml", &c, &errors))
      << Errors(errors);
  EXPECT_TRUE(CheckPluginConfig(c, *profile, &errors)) << Errors(errors);  // shape alone
  EXPECT_FALSE(CheckPluginConfig(c, *profile, &errors, frames.get()));
  const std::string all = Errors(errors);
  EXPECT_NE(all.find("f.yaml:3:5: host: replies: roots/list: not an answer mcp-stdio allows "
                     "(/result/roots:"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("f.yaml:4:5: host: replies: sampling/createMessage"), std::string::npos)
      << all;
  PluginConfig good;
  errors.clear();
  ASSERT_TRUE(ParsePluginConfig(
      "host:\n  replies:\n    roots/list: {result: {roots: [{uri: \"file:///a\"}]}}\n", "f.yaml",
      &good, &errors));
  EXPECT_TRUE(CheckPluginConfig(good, *profile, &errors, frames.get())) << Errors(errors);
}

// A command word or environment entry execve would refuse (E2BIG past MAX_ARG_STRLEN) is bad
// input at its line, known before anything is spawned.
TEST(PluginConfigCommand, AWordExecveWouldRefuseIsAnErrorAtItsLine) {
  const std::string big(200 * 1024, 'x');
  PluginConfig c;
  std::vector<scenario::LoadError> errors;
  EXPECT_FALSE(ParsePluginConfig("command: [./server, " + big + "]\nenv: {A: " + big + "}\n",
                                 "f.yaml", &c, &errors));
  const std::string all = Errors(errors);
  EXPECT_NE(all.find("f.yaml:1:21: a word of command of 204800 bytes: execve takes at most"),
            std::string::npos)
      << all.substr(0, 300);
  EXPECT_NE(all.find("f.yaml:2:10: NAME=value of 204802 bytes"), std::string::npos)
      << all.substr(0, 300);
}

}  // namespace
}  // namespace fakehost::run
