#include "harness/fuzz/generator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "harness/fuzz/plan.hpp"
#include "harness/fuzz/rng.hpp"
#include "harness/fuzz/test_support.hpp"
#include "harness/json/json.hpp"
#include "harness/protocol/registry.hpp"
#include "harness/scenario/loader.hpp"

namespace fakehost::fuzz {
namespace {

class GeneratorTest : public ::testing::TestWithParam<std::string> {};

std::string Sessions(const testing::Protocol& p, std::uint64_t seed, int n) {
  std::string out;
  for (int i = 0; i < n; ++i)
    out += Render(Generate(p.catalog, *p.profile, SessionSeed(seed, static_cast<std::uint64_t>(i))),
                  *p.profile, p.schema.get(), {}) +
           "---\n";
  return out;
}

TEST_P(GeneratorTest, TheSameSeedGeneratesTheSameSessions) {
  testing::Protocol p = testing::LoadProtocol(GetParam());
  ASSERT_TRUE(p.profile && p.schema);
  std::string a = Sessions(p, 42, 60);
  std::string b = Sessions(p, 42, 60);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, Sessions(p, 43, 60));
}

TEST_P(GeneratorTest, EveryGeneratedSessionLoadsAsAScenario) {
  testing::Protocol p = testing::LoadProtocol(GetParam());
  ASSERT_TRUE(p.profile && p.schema);
  std::set<std::string> kinds;
  for (std::uint64_t i = 0; i < 300; ++i) {
    Plan plan = Generate(p.catalog, *p.profile, SessionSeed(7, i));
    for (const Action& a : plan.actions) kinds.insert(a.what);
    std::string yaml = Render(plan, *p.profile, p.schema.get(), {});
    scenario::Scenario sc;
    std::vector<scenario::LoadError> errors;
    ASSERT_TRUE(scenario::LoadScenarioText(yaml, "s.yaml", "s", {}, &sc, &errors))
        << (errors.empty() ? "" : errors.front().ToString()) << "\n"
        << yaml;
  }
  // The mix is broad: boundary values, id faults, framing faults, timing.
  for (const char* k : {"example", "burst", "pause", "sync", "long string", "id true",
                        "invalid JSON", "invalid UTF-8", "empty frame", "trigger slow"})
    EXPECT_TRUE(kinds.count(k)) << k;
}

TEST_P(GeneratorTest, ValidSessionsEndWithABarrierAndAGradedShutdown) {
  testing::Protocol p = testing::LoadProtocol(GetParam());
  ASSERT_TRUE(p.profile && p.schema);
  int checked = 0;
  for (std::uint64_t i = 0; i < 100; ++i) {
    Plan plan = Generate(p.catalog, *p.profile, SessionSeed(3, i));
    bool terminal = !plan.actions.empty() && plan.actions.back().terminal;
    if (!plan.handshake_mutations.empty() || terminal) continue;
    std::string yaml = Render(plan, *p.profile, p.schema.get(), {});
    EXPECT_NE(yaml.find("{\"send\":{\"method\":\"" + p.profile->barrier_method() + "\"}"),
              std::string::npos);
    const std::string last = "  - {\"shutdown\":{}}\n";
    EXPECT_EQ(yaml.substr(yaml.size() - last.size()), last);
    ++checked;
  }
  EXPECT_GT(checked, 50);
}

// Every protocol of the source tree (protocol/registry.hpp); none would be a failure of its own
// (GoogleTest reports a suite instantiated with no parameter).
INSTANTIATE_TEST_SUITE_P(Protocols, GeneratorTest,
                         ::testing::ValuesIn(protocol::ProtocolNames(FAKEHOST_SOURCE_DIR)),
                         [](const auto& param) {
                           std::string name = param.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

TEST(Render, AwaitsAnAnswerOnlyToRequestsTheProtocolAccepts) {
  testing::Protocol p = testing::LoadProtocol("rim-v1");
  ASSERT_TRUE(p.profile && p.schema);
  Plan plan;
  plan.handshake = p.catalog.handshake;
  Action ok;
  ok.kind = Action::Kind::kRequest;
  ok.message = JsonFromText(R"({"method":"rim.heartbeat"})");
  Action odd = ok;
  odd.id = Action::Id::kExplicit;
  odd.id_value = JsonFromText("true");  // a boolean id: not a request the plugin owes
  Action null_id = ok;
  null_id.id = Action::Id::kNull;  // id null: a notification in RIM
  plan.actions = {ok, odd, null_id};
  plan.barrier = false;
  std::string yaml = Render(plan, *p.profile, p.schema.get(), {});
  EXPECT_NE(yaml.find(R"({"send":{"method":"rim.heartbeat"},"as":"r1"})"), std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find(R"({"send":{"method":"rim.heartbeat","id":true},"invalid":true})"),
            std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find(R"({"expect":{"reply_to":"r1"},"within":"5000ms"})"), std::string::npos);
  EXPECT_EQ(yaml.find("\"r2\""), std::string::npos) << yaml;
  // The unowed frame may still be answered within its method's deadline (kept within the
  // options' bounds), so the shutdown waits that long, not a guessed pause.
  const std::string pause =
      R"({"sleep":")" +
      std::to_string(std::clamp(p.profile->DeadlineFor("rim.heartbeat"),
                                RenderOptions{}.answer_floor, RenderOptions{}.answer_cap)
                         .count()) +
      R"(ms"})";
  EXPECT_NE(yaml.find(pause), std::string::npos) << yaml;
  EXPECT_LT(yaml.find(pause), yaml.find(R"({"shutdown":{}})")) << yaml;
}

// A trigger may use a variable only a scenario gives (`${text}`); the fuzzer's sessions give it
// one, and leave alone what the player fills (the profile's vars, ${plugin.id}) and escapes.
TEST(ScenarioOnlyVariables, AreTheTriggersVariablesThePlayerDoesNotFill) {
  testing::Protocol p = testing::LoadProtocol("rim-v1");
  ASSERT_TRUE(p.profile && p.schema);
  ASSERT_TRUE(p.profile->vars().IsObject() && p.profile->vars().MemberCount() > 0);
  const std::string profile_var = p.profile->vars().MemberBegin()->name.GetString();
  Json echo = JsonFromText(R"({"method":"m","params":{"t":"${text}","n":["${token.id}"]}})");
  Json known = JsonFromText(R"({"method":"m","params":{"a":"${plugin.id} ${)" + profile_var +
                            R"(}","b":"$${literal}"}})");
  auto vars = ScenarioOnlyVariables(*p.profile, {&*known, &*echo});
  EXPECT_EQ(vars, (std::vector<std::pair<std::string, std::string>>{
                      {"text", "fakehost-fuzz-text"}, {"token", "fakehost-fuzz-token"}}));
  // A session rendered with them declares them, and loads.
  Plan plan;
  plan.handshake = p.catalog.handshake;
  Header header;
  header.vars = vars;
  std::string yaml = Render(plan, *p.profile, p.schema.get(), header);
  EXPECT_NE(yaml.find("vars:\n  \"text\": \"fakehost-fuzz-text\"\n"), std::string::npos) << yaml;
  scenario::Scenario sc;
  std::vector<scenario::LoadError> errors;
  EXPECT_TRUE(scenario::LoadScenarioText(yaml, "s.yaml", "s", {}, &sc, &errors))
      << (errors.empty() ? yaml : errors.front().ToString());
}

TEST(ApplyMutations, SetsAddsAndRemovesMembersAndIgnoresEditsBelowMissingParents) {
  Json msg = JsonFromText(R"({"method":"m","params":{"a":1,"b":[1,2],"c~/d":0}})");
  std::vector<Mutation> edits = {{"/params/a", false, JsonFromText("\"x\""), ""},
                                 {"/params/new", false, JsonFromText("null"), ""},
                                 {"/params/b/1", true, nullptr, ""},
                                 {"/params/c~0~1d", true, nullptr, ""},
                                 {"/params/nothing/here", false, JsonFromText("1"), ""}};
  EXPECT_EQ(json::ToCompact(ApplyMutations(*msg, edits)),
            R"({"method":"m","params":{"a":"x","b":[1],"new":null}})");
}

}  // namespace
}  // namespace fakehost::fuzz
