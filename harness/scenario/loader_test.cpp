// The loader: top-level keys, error reporting, fragments and files.
#include "harness/scenario/loader.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace fakehost::scenario {
namespace {

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

namespace fs = std::filesystem;

std::vector<std::string> Errors(const std::string& yaml, const LoadContext& context = {}) {
  Scenario scenario;
  std::vector<LoadError> errors;
  const bool ok = LoadScenarioText(yaml, "s.yaml", "s", context, &scenario, &errors);
  EXPECT_EQ(ok, errors.empty());
  std::vector<std::string> out;
  for (const LoadError& e : errors) out.push_back(e.ToString());
  return out;
}

// The one error loading `yaml` gives.
std::string Error(const std::string& yaml, const LoadContext& context = {}) {
  const std::vector<std::string> errors = Errors(yaml, context);
  EXPECT_EQ(errors.size(), 1u) << ::testing::PrintToString(errors);
  return errors.empty() ? "" : errors[0];
}

Scenario Load(const std::string& yaml, const LoadContext& context = {}) {
  Scenario scenario;
  std::vector<LoadError> errors;
  EXPECT_TRUE(LoadScenarioText(yaml, "s.yaml", "s", context, &scenario, &errors))
      << (errors.empty() ? "" : errors[0].ToString());
  return scenario;
}

constexpr const char* kHead = "title: T\nspec: S\nrequirement: R\n";  // lines 1-3

TEST(LoadScenario, ReadsTheDesignDocumentExample) {
  const Scenario s = Load(R"(# scenarios/rim-v1/handshake/refuses-unoffered-version.yaml
title: Refuses a host that offers only versions it does not speak
spec: "§7 Negotiation rules"
requirement: >-
  A plugin that speaks none of the offered versions answers accepted false.
level: must
tags: [handshake, refusal]
steps:
  - send:
      method: rim.handshake
      params: {protocolVersion: 2, supportedVersions: [2], pluginId: "${plugin.id}",
               hostVersion: "0.1.0", grantedCapabilities: [], principal: null}
    as: hs
  - expect:
      reply_to: hs
      result:
        accepted: false
        protocolVersion: {$type: integer}
        error: {$type: string, $min_length: 1}
    within: 10s
  - expect_exit: {}
    within: 1s
    level: should
)");
  EXPECT_EQ(s.id, "s");
  EXPECT_EQ(s.title, "Refuses a host that offers only versions it does not speak");
  EXPECT_EQ(s.spec, "§7 Negotiation rules");
  EXPECT_EQ(s.requirement,
            "A plugin that speaks none of the offered versions answers accepted false.");
  EXPECT_EQ(s.level, result::Level::kMust);
  EXPECT_EQ(s.tags, (std::vector<std::string>{"handshake", "refusal"}));
  ASSERT_EQ(s.steps.size(), 3u);
  const auto& send = std::get<Send>(s.steps[0].body);
  EXPECT_EQ(send.method, "rim.handshake");
  EXPECT_EQ(send.as, "hs");
  EXPECT_EQ(send.id_mode, Send::IdMode::kAuto);
  EXPECT_TRUE((*send.params)["principal"].IsNull());
  EXPECT_EQ((*send.params)["protocolVersion"].GetInt64(), 2);
  EXPECT_STREQ((*send.params)["pluginId"].GetString(), "${plugin.id}");
  EXPECT_EQ(s.steps[0].loc.ToString(), "s.yaml:9:5");
  EXPECT_EQ(s.steps[0].kind, "send");
  const auto& expect = std::get<Expect>(s.steps[1].body);
  EXPECT_EQ(expect.filter.kind, Filter::Kind::kReplyTo);
  EXPECT_EQ(expect.filter.name, "hs");
  EXPECT_TRUE((*expect.filter.result)["accepted"].IsFalse());
  EXPECT_EQ(expect.within, Ms(10000));
  const auto& exit = std::get<ExpectExit>(s.steps[2].body);
  EXPECT_EQ(exit.within, Ms(1000));
  EXPECT_FALSE(exit.code.has_value());
  EXPECT_EQ(s.steps[2].level, result::Level::kShould);
  EXPECT_EQ(s.steps[1].level, result::Level::kMust);
}

TEST(LoadScenario, ReadsTheOptionalTopLevelKeys) {
  const Scenario s = Load(std::string(kHead) + R"(level: should
requires: [/commands, "/a~1b"]
vars: {greeting: hi, n: 3, obj: {a: [1]}}
host:
  replies:
    host.ping: {result: {ok: true}}
    rim.chat.read: {error: {code: -32000, message: denied}}
    host.fetch: hold
config: {debug: true}
timeout: 1.5s
steps:
  - sleep: 10ms
)");
  EXPECT_EQ(s.level, result::Level::kShould);
  ASSERT_EQ(s.requires_.size(), 2u);
  EXPECT_EQ(s.requires_[0].pointer, "/commands");
  EXPECT_EQ(s.requires_[0].source, Requirement::Source::kManifest);
  EXPECT_EQ(s.requires_[1].pointer, "/a~1b");
  ASSERT_EQ(s.vars.size(), 3u);
  EXPECT_STREQ(s.vars.at("greeting")->GetString(), "hi");
  EXPECT_EQ(s.vars.at("n")->GetInt64(), 3);
  EXPECT_TRUE(s.vars.at("obj")->IsObject());
  ASSERT_EQ(s.host_replies.size(), 3u);
  EXPECT_EQ(s.host_replies.at("host.fetch").kind, HostReply::Kind::kHold);
  EXPECT_TRUE((*s.host_replies.at("host.ping").reply)["result"]["ok"].IsTrue());
  EXPECT_EQ((*s.host_replies.at("rim.chat.read").reply)["error"]["code"].GetInt64(), -32000);
  EXPECT_TRUE((*s.config)["debug"].IsTrue());
  EXPECT_EQ(s.timeout, Ms(1500));
  EXPECT_EQ(s.steps.at(0).level, result::Level::kShould);  // steps default to the scenario's level
}

TEST(LoadScenario, ReadsRequirementsOnWhatThePluginAnnounces) {
  const Scenario s = Load(std::string(kHead) + R"(requires:
  - /commands
  - {announced: /capabilities/tools}
  - {not_announced: /capabilities/resources}
steps:
  - sleep: 10ms
)");
  ASSERT_EQ(s.requires_.size(), 3u);
  EXPECT_EQ(s.requires_[0].source, Requirement::Source::kManifest);
  EXPECT_EQ(s.requires_[1].source, Requirement::Source::kAnnounced);
  EXPECT_EQ(s.requires_[1].pointer, "/capabilities/tools");
  EXPECT_EQ(s.requires_[1].loc.ToString(), "s.yaml:6:5");
  EXPECT_EQ(s.requires_[2].source, Requirement::Source::kNotAnnounced);
  EXPECT_EQ(s.requires_[2].pointer, "/capabilities/resources");
}

TEST(LoadScenario, RejectsABadAnnouncedRequirementAtItsPlace) {
  const std::string steps = "steps:\n  - sleep: 1s\n";
  EXPECT_EQ(Error(std::string(kHead) + "requires: [{announced: tools}]\n" + steps),
            "s.yaml:4:24: announced must be a JSON pointer such as \"/commands\", not 'tools'");
  EXPECT_EQ(Error(std::string(kHead) + "requires: [{declared: /tools}]\n" + steps),
            "s.yaml:4:12: a requirement is a JSON pointer into the manifest, {announced: "
            "POINTER} or {not_announced: POINTER} (a pointer into what the plugin announces in "
            "its handshake answer)");
  EXPECT_PRED2(
      StartsWith,
      Error(std::string(kHead) + "requires: [{announced: /a, not_announced: /b}]\n" + steps),
      "s.yaml:4:12: a requirement is a JSON pointer into the manifest");
}

TEST(LoadScenario, RejectsAMissingRequiredKey) {
  EXPECT_EQ(Error("title: T\nspec: S\nsteps:\n  - sleep: 1s\n"),
            "s.yaml:1:1: missing required key 'requirement'");
  EXPECT_EQ(Errors("title: T\n").size(), 3u);  // spec, requirement, steps
}

TEST(LoadScenario, ReadsAHeldAfterHandshakeAndRefusesAnythingElse) {
  std::string steps = "steps:\n  - sleep: 1s\n";
  Scenario s = Load(std::string(kHead) + "host: {after_handshake: hold}\n" + steps);
  EXPECT_TRUE(s.hold_after_handshake);
  EXPECT_FALSE(Load(std::string(kHead) + steps).hold_after_handshake);
  EXPECT_EQ(Error(std::string(kHead) + "host: {after_handshake: later}\n" + steps),
            "s.yaml:4:25: after_handshake is hold (the scenario sends what the profile sends "
            "after the handshake itself), not 'later'");
}

TEST(LoadScenario, ReadsTriggersAnyAndRefusesAnythingElse) {
  std::string steps = "steps:\n  - sleep: 1s\n";
  EXPECT_EQ(Error(std::string(kHead) + "triggers: some\n" + steps),
            "s.yaml:4:11: triggers is any or all, not 'some'");
}

TEST(LoadScenario, RejectsAnUnknownTopLevelKey) {
  EXPECT_EQ(Error(std::string(kHead) + "stpes: []\nsteps:\n  - sleep: 1s\n"),
            "s.yaml:4:1: unknown key 'stpes' in a scenario (allowed: title, cites, judged_by, "
            "triggers, spec, "
            "requirement, level, tags, requires, vars, host, config, timeout, steps)");
}

TEST(LoadScenario, TakesALevelFromTheKeywordOfEachCitedSentence) {
  const Scenario s = Load(R"(title: T
cites:
  - revisions: [a, b]
    section: "Basic › Pings"
    sentence: "The receiver SHOULD NOT wait."
  - revisions: [c]
    section: "Basic › Pings"
    sentence: "The receiver MUST respond promptly, and MAY log it."
    level: must
requirement: R
steps:
  - sleep: 1s
  - sleep: 1s
    level: may
)");
  ASSERT_EQ(s.cites.size(), 2u);
  EXPECT_EQ(s.cites[0].level, result::Level::kShould);
  EXPECT_EQ(s.cites[1].level, result::Level::kMust);
  EXPECT_EQ(s.level, result::Level::kShould) << "the first cite's, until a revision is in play";
  EXPECT_EQ(s.CiteFor("c"), &s.cites[1]);
  EXPECT_EQ(s.CiteFor("z"), nullptr);
  EXPECT_FALSE(s.steps[0].level_given);
  EXPECT_TRUE(s.steps[1].level_given);
  EXPECT_EQ(KeywordLevels("MUST NOT, or NOT RECOMMENDED, or OPTIONAL"),
            (std::vector<result::Level>{result::Level::kMust, result::Level::kShould,
                                        result::Level::kMay}));
  EXPECT_TRUE(KeywordLevels("servers should, and may, but must-have lowercase").empty());
}

TEST(LoadScenario, RefusesACiteWhoseSentenceIsNoRequirement) {
  const std::string head = "title: T\nrequirement: R\ncites:\n  - revisions: [a]\n    section: S\n";
  const std::string steps = "steps:\n  - sleep: 1s\n";
  EXPECT_EQ(
      Error(head + "    sentence: \"Templates allow servers to expose resources.\"\n" + steps),
      "s.yaml:6:15: the sentence has no keyword (MUST, SHOULD, MAY, ...): a sentence without "
      "one states no requirement, so no verdict can cite it");
  EXPECT_EQ(Error(head + "    sentence: \"It MUST answer and SHOULD log.\"\n" + steps),
            "s.yaml:6:15: the sentence has keywords of more than one level: say which one the "
            "scenario checks with level:");
  EXPECT_EQ(Error(head + "    sentence: \"It MUST answer.\"\n    level: should\n" + steps),
            "s.yaml:7:12: the sentence has no should-level keyword: a cite's level is its "
            "sentence's keyword");
  EXPECT_EQ(Error(head + "    sentence: \"It MUST answer.\"\nlevel: must\n" + steps),
            "s.yaml:7:1: a scenario with cites takes its level from the keyword of the sentence it "
            "cites for the revision in play; it has no level of its own");
  EXPECT_EQ(Error(head + "    sentence: \"It MUST answer.\"\njudged_by: them\n" + steps),
            "s.yaml:7:12: judged_by is offered or negotiated, not 'them'");
  EXPECT_EQ(Error("title: T\nrequirement: R\nspec: S\njudged_by: offered\n" + steps),
            "s.yaml:4:1: judged_by needs cites (the revisions it judges by)");
  EXPECT_EQ(Error("title: T\nrequirement: R\ncites: []\n" + steps),
            "s.yaml:3:8: cites must be a non-empty list of {revisions, section, sentence}");
}

TEST(LoadScenario, RejectsABadLevel) {
  EXPECT_EQ(Error(std::string(kHead) + "level: must!\nsteps:\n  - sleep: 1s\n"),
            "s.yaml:4:8: bad level 'must!' (must, should or may)");
  EXPECT_EQ(Error(std::string(kHead) + "steps:\n  - sleep: 1s\n    level: MUST\n"),
            "s.yaml:6:12: bad level 'MUST' (must, should or may)");
}

TEST(LoadScenario, RejectsADuplicateKeyAtTheSecondOne) {
  EXPECT_EQ(Error("title: T\nspec: S\ntitle: U\nrequirement: R\nsteps:\n  - sleep: 1s\n"),
            "s.yaml:3:1: duplicate key 'title'");
  EXPECT_EQ(Error(std::string(kHead) + "steps:\n  - sleep: 1s\n    note: a\n    note: b\n"),
            "s.yaml:7:5: duplicate key 'note'");
}

TEST(LoadScenario, TurnsYamlSyntaxErrorsIntoLoadErrors) {
  EXPECT_EQ(Error(std::string(kHead) + "steps: [\n"),
            "s.yaml:5:1: YAML syntax: did not find expected node content (while parsing a flow "
            "node)");
}

TEST(LoadScenario, RejectsNonStringsWhereTextIsRequired) {
  EXPECT_EQ(Error("title: T\nspec: 7\nrequirement: R\nsteps:\n  - sleep: 1s\n"),
            "s.yaml:2:7: spec must be a string, not integer 7 (quote it to make it a string)");
  EXPECT_EQ(Error(std::string(kHead) + "tags: [a, 1]\nsteps:\n  - sleep: 1s\n"),
            "s.yaml:4:11: a tag must be a string, not integer 1 (quote it to make it a string)");
}

TEST(LoadScenario, RejectsBadTopLevelValues) {
  EXPECT_EQ(Error(std::string(kHead) + "requires: [commands]\nsteps:\n  - sleep: 1s\n"),
            "s.yaml:4:12: requires must be a JSON pointer such as \"/commands\", not 'commands'");
  EXPECT_EQ(Error(std::string(kHead) + "vars: {a.b: 1}\nsteps:\n  - sleep: 1s\n"),
            "s.yaml:4:8: bad name 'a.b' for a variable (letters, digits, '_' and '-', starting "
            "with a letter or '_')");
  EXPECT_EQ(Error(std::string(kHead) + "host: {replies: {m: {ok: true}}}\nsteps:\n  - sleep: 1s\n"),
            "s.yaml:4:21: a host reply is {result: ...}, {error: ...} or hold");
  EXPECT_EQ(Error(std::string(kHead) + "host: {heartbeat: 1s}\nsteps:\n  - sleep: 1s\n"),
            "s.yaml:4:8: unknown key 'heartbeat' in host (allowed: replies, after_handshake)");
  EXPECT_EQ(Error(std::string(kHead) + "config: [1]\nsteps:\n  - sleep: 1s\n"),
            "s.yaml:4:9: config must be a map (the plugin's configuration object)");
  EXPECT_EQ(Error(std::string(kHead) + "timeout: 10\nsteps:\n  - sleep: 1s\n"),
            "s.yaml:4:10: timeout: bad duration '10' (no unit): a duration is a non-negative "
            "decimal number and a unit (ms, s, m or h) with nothing between them, such as 250ms, "
            "1.5s or 2m, a whole number of milliseconds, at most 1h");
  EXPECT_EQ(Error(std::string(kHead) + "steps: []\n"), "s.yaml:4:8: steps must not be empty");
  EXPECT_EQ(Error(""), "s.yaml:1:1: the scenario file is empty");
  EXPECT_EQ(Error("- a\n"),
            "s.yaml:1:1: a scenario is a map with title, spec, requirement and steps");
}

TEST(LoadScenario, ReportsEveryErrorOfAFile) {
  const auto errors = Errors(std::string(kHead) + R"(level: sometimes
steps:
  - sleep: 5 sec
  - frobnicate: {}
  - send: {method: m}
    within: 1s
  - expect: {any: true, result: {$typ: string}}
)");
  ASSERT_EQ(errors.size(), 5u) << ::testing::PrintToString(errors);
  EXPECT_PRED2(StartsWith, errors[0], "s.yaml:4:8: ");
  EXPECT_PRED2(StartsWith, errors[1], "s.yaml:6:12: ");
  EXPECT_PRED2(StartsWith, errors[2], "s.yaml:7:5: ");
  EXPECT_PRED2(StartsWith, errors[3], "s.yaml:9:5: ");
  EXPECT_PRED2(StartsWith, errors[4], "s.yaml:10:34: ");
}

TEST(LoadScenario, RejectsBadDurationsNamingTheValue) {
  for (const char* bad : {"10", "5 sec", "-1s", "1.5", "s", "1.5ms", "10 s", "1e3ms", "\"\""}) {
    const std::string error = Error(std::string(kHead) + "steps:\n  - sleep: " + bad + "\n");
    EXPECT_NE(error.find("bad duration"), std::string::npos) << bad;
    EXPECT_PRED2(StartsWith, error, "s.yaml:5:12: ") << bad;
  }
  EXPECT_PRED2(StartsWith, Error(std::string(kHead) + "steps:\n  - sleep: 5 sec\n"),
               "s.yaml:5:12: sleep: bad duration '5 sec' (unknown unit): a duration is");
}

TEST(LoadScenario, ReadsDurationsInEveryUnit) {
  const Scenario s = Load(std::string(kHead) +
                          "steps:\n  - sleep: 250ms\n  - sleep: 10s\n  - sleep: 1.5s\n"
                          "  - sleep: 2m\n  - sleep: 0ms\n  - sleep: \"1h\"\n  - sleep: 0.25s\n");
  const Ms want[] = {Ms(250), Ms(10000), Ms(1500), Ms(120000), Ms(0), Ms(3600000), Ms(250)};
  ASSERT_EQ(s.steps.size(), 7u);
  for (std::size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(std::get<Sleep>(s.steps[i].body).duration, want[i]) << i;
  }
}

// --- use: fragments

LoadContext Fragments(std::map<std::string, std::string> fragments) {
  LoadContext context;
  context.fragments = std::move(fragments);
  return context;
}

TEST(LoadScenarioUse, ExpandsAFragmentInPlace) {
  const LoadContext context = Fragments({{"handshake",
                                          "- send: {method: rim.handshake, params: {}}\n  as: hs\n"
                                          "- expect: {reply_to: hs}\n  within: 1s\n"}});
  const Scenario s = Load(std::string(kHead) +
                              "steps:\n  - sleep: 1ms\n  - use: handshake\n"
                              "  - send: {method: rim.shutdown}\n  - expect: {reply_to: hs}\n",
                          context);
  ASSERT_EQ(s.steps.size(), 5u);
  EXPECT_EQ(s.steps[1].kind, "send");
  EXPECT_EQ(s.steps[1].loc.ToString(), "handshake.yaml:1:3");
  EXPECT_EQ(s.steps[2].kind, "expect");
  EXPECT_EQ(std::get<Expect>(s.steps[4].body).filter.name, "hs");  // names carry over
}

TEST(LoadScenarioUse, AppliesTheUseStepsLevelAndNote) {
  const LoadContext context = Fragments({{"f", "- sleep: 1ms\n- sleep: 2ms\n  note: own\n"}});
  const Scenario s = Load(
      std::string(kHead) + "steps:\n  - use: f\n    level: may\n    note: from use\n", context);
  ASSERT_EQ(s.steps.size(), 2u);
  EXPECT_EQ(s.steps[0].level, result::Level::kMay);
  EXPECT_EQ(s.steps[1].level, result::Level::kMay);
  EXPECT_EQ(s.steps[0].note, "from use");
  EXPECT_EQ(s.steps[1].note, "own");
}

TEST(LoadScenarioUse, NamesTheFragmentAndTheUseOfAnErrorInside) {
  const LoadContext context = Fragments({{"f", "- sleep: 1ms\n- sleep: forever\n"}});
  EXPECT_EQ(Error(std::string(kHead) + "steps:\n  - use: f\n", context),
            "f.yaml:2:10: sleep: bad duration 'forever': a duration is a non-negative decimal "
            "number and a unit (ms, s, m or h) with nothing between them, such as 250ms, 1.5s or "
            "2m, a whole number of milliseconds, at most 1h (used from s.yaml:5:10)");
}

TEST(LoadScenarioUse, ChainsTheUsesOfNestedFragments) {
  const LoadContext context =
      Fragments({{"outer", "- sleep: 1ms\n- use: inner\n"}, {"inner", "- bogus: 1\n"}});
  const std::string error = Error(std::string(kHead) + "steps:\n  - use: outer\n", context);
  EXPECT_PRED2(StartsWith, error, "inner.yaml:1:3:");
  EXPECT_NE(error.find("(used from outer.yaml:2:8, used from s.yaml:5:10)"), std::string::npos)
      << error;
}

TEST(LoadScenarioUse, ReportsSyntaxErrorsAndDuplicatesInsideAFragment) {
  EXPECT_EQ(Error(std::string(kHead) + "steps:\n  - use: f\n", Fragments({{"f", "- [\n"}})),
            "f.yaml:2:1: YAML syntax: did not find expected node content (while parsing a flow "
            "node) (used from s.yaml:5:10)");
  EXPECT_EQ(Error(std::string(kHead) + "steps:\n  - use: f\n",
                  Fragments({{"f", "- sleep: 1s\n  note: a\n  note: b\n"}})),
            "f.yaml:3:3: duplicate key 'note' (used from s.yaml:5:10)");
  EXPECT_EQ(Error(std::string(kHead) + "steps:\n  - use: f\n", Fragments({{"f", "a: 1\n"}})),
            "f.yaml:1:1: a fragment is a list of steps (used from s.yaml:5:10)");
}

TEST(LoadScenarioUse, RejectsAFragmentThatIsNotFound) {
  LoadContext context;
  context.fragment_dirs = {"/nonexistent/a", "/nonexistent/b"};
  EXPECT_EQ(Error(std::string(kHead) + "steps:\n  - use: nope\n", context),
            "s.yaml:5:10: fragment 'nope' not found (looked for nope.yaml in /nonexistent/a, "
            "/nonexistent/b)");
  EXPECT_PRED2(StartsWith, Error(std::string(kHead) + "steps:\n  - use: ../etc/x\n"),
               "s.yaml:5:10: bad fragment name '..");
}

TEST(LoadScenarioUse, GuardsAgainstRecursion) {
  const LoadContext context = Fragments({{"a", "- use: b\n"}, {"b", "- use: a\n"}});
  EXPECT_EQ(Error(std::string(kHead) + "steps:\n  - use: a\n", context),
            "b.yaml:1:8: fragment 'a' uses itself: a -> b -> a (used from a.yaml:1:8, used from "
            "s.yaml:5:10)");
}

// --- files

class ScenarioFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("fakehost-scenario-test-" + std::to_string(getpid()));
    fs::remove_all(root_);
    for (const char* dir : {"handshake", "commands/deep", "fragments", "commands/fragments"}) {
      fs::create_directories(root_ / dir);
    }
  }
  void TearDown() override { fs::remove_all(root_); }
  void Write(const std::string& relative, const std::string& text) {
    std::ofstream(root_ / relative) << text;
  }
  fs::path root_;
};

TEST_F(ScenarioFiles, FindsYamlFilesSortedSkippingFragments) {
  for (const char* f :
       {"handshake/b.yaml", "handshake/a.yaml", "commands/deep/c.yaml", "top.yaml",
        "fragments/f.yaml", "commands/fragments/g.yaml", "handshake/notes.md", "handshake/x.yml"}) {
    Write(f, "x: 1\n");
  }
  const std::string root = root_.string();
  EXPECT_EQ(FindScenarioFiles(root),
            (std::vector<std::string>{root + "/commands/deep/c.yaml", root + "/handshake/a.yaml",
                                      root + "/handshake/b.yaml", root + "/top.yaml"}));
  EXPECT_TRUE(FindScenarioFiles(root + "/missing").empty());
}

TEST_F(ScenarioFiles, DerivesIdsFromPaths) {
  const std::string root = root_.string();
  EXPECT_EQ(ScenarioIdFor(root, root + "/handshake/refuses-unoffered-version.yaml"),
            "handshake/refuses-unoffered-version");
  EXPECT_EQ(ScenarioIdFor(root + "/", root + "/top.yaml"), "top");
  EXPECT_EQ(ScenarioIdFor("scenarios/rim-v1", "scenarios/rim-v1/./a/b.yaml"), "a/b");
}

TEST_F(ScenarioFiles, LoadsAFileAndItsFragmentsFromDisk) {
  Write("fragments/hello.yaml", "- sleep: 1ms\n");
  Write("handshake/a.yaml", std::string(kHead) + "steps:\n  - use: hello\n  - sleep: 2ms\n");
  LoadContext context;
  context.fragment_dirs = {(root_ / "nothing-here").string(), (root_ / "fragments").string()};
  Scenario s;
  std::vector<LoadError> errors;
  const std::string path = (root_ / "handshake/a.yaml").string();
  ASSERT_TRUE(LoadScenarioFile(path, "handshake/a", context, &s, &errors));
  ASSERT_EQ(s.steps.size(), 2u);
  EXPECT_EQ(s.steps[0].loc.ToString(), (root_ / "fragments/hello.yaml").string() + ":1:3");
  EXPECT_EQ(s.loc.ToString(), path + ":1:1");
  EXPECT_EQ(s.id, "handshake/a");
}

TEST_F(ScenarioFiles, ReportsAFileThatCannotBeRead) {
  Scenario s;
  std::vector<LoadError> errors;
  const std::string path = (root_ / "absent.yaml").string();
  EXPECT_FALSE(LoadScenarioFile(path, "absent", {}, &s, &errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].ToString(), path + ": cannot open (No such file or directory)");
}

TEST(SourceLoc, FormatsOneBasedLocations) {
  EXPECT_EQ((result::SourceLoc{"a.yaml", 3, 7}).ToString(), "a.yaml:3:7");
  EXPECT_EQ((result::SourceLoc{"a.yaml", 0, 0}).ToString(), "a.yaml");
  EXPECT_STREQ(result::LevelName(result::Level::kShould), "should");
  EXPECT_STREQ(result::LevelName(result::Level::kMay), "may");
  EXPECT_STREQ(result::LevelName(result::Level::kMust), "must");
}

}  // namespace
}  // namespace fakehost::scenario
