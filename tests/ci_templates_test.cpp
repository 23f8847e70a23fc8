// The CI templates (ci/templates/): the GitHub composite action run the way GitHub's runner runs
// it (its action.yml's env mapping of inputs, its run line, GITHUB_* files in a temp directory),
// and the GitLab template's script run in sh with the template's variables, both against a
// reference plugin (passes) and a broken one (fails).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "harness/json/json.hpp"
#include "harness/scenario/yaml_json.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;
using Vars = std::map<std::string, std::string>;

const char* const kPath = "PATH=/usr/local/bin:/usr/bin:/bin";

rapidjson::Document Yaml(const std::string& path) {
  rapidjson::Document doc;
  std::vector<scenario::LoadError> errors;
  EXPECT_TRUE(scenario::ParseYamlToJson(ReadFile(path), path, &doc, nullptr, &errors));
  for (const auto& e : errors) ADD_FAILURE() << e.ToString();
  return doc;
}

std::string Str(const rapidjson::Value* v) { return v && v->IsString() ? v->GetString() : ""; }

// The top-level summary of a report.json, as the action reads it.
rapidjson::Document Summary(const std::string& report_json) {
  rapidjson::Document doc;
  doc.Parse(ReadFile(report_json).c_str());
  rapidjson::Document summary;
  if (doc.IsObject() && doc.HasMember("summary"))
    summary.CopyFrom(doc["summary"], summary.GetAllocator());
  return summary;
}

struct ActionRun {
  CommandResult r;
  Vars outputs;         ///< what the step wrote to $GITHUB_OUTPUT
  std::string summary;  ///< what it appended to $GITHUB_STEP_SUMMARY
  std::string reports;  ///< the report-dir input given
  std::string tmp;
  std::vector<std::string> declared;  ///< the outputs action.yml declares
};

// Runs action.yml's one step as GitHub's runner would: every env entry `${{ inputs.NAME }}`
// set from `inputs` (else the input's default), GITHUB_* pointing at temp files, the workspace
// the source tree (so the standard suite's files are workspace-relative), the run line in
// `bash --noprofile --norc -eo pipefail`.
ActionRun RunAction(Vars inputs) {
  ActionRun a;
  a.tmp = MakeTempDir();
  a.reports = a.tmp + "/reports";
  if (!inputs.count("fakehost")) inputs["fakehost"] = FakehostBin();
  inputs["report-dir"] = a.reports;
  const std::string action_dir = SourceDir() + "/ci/templates/github";
  rapidjson::Document action = Yaml(action_dir + "/action.yml");
  const rapidjson::Value* step = json::Resolve(action, "/runs/steps/0");
  EXPECT_TRUE(step && step->IsObject());
  if (!step || !step->IsObject()) return a;
  std::ofstream(a.tmp + "/output").flush();
  std::ofstream(a.tmp + "/summary").flush();
  std::vector<std::string> argv = {"/usr/bin/env",
                                   "-i",
                                   kPath,
                                   "HOME=" + a.tmp,
                                   "GITHUB_ACTIONS=true",
                                   "GITHUB_WORKSPACE=" + SourceDir(),
                                   "GITHUB_ACTION_PATH=" + action_dir,
                                   "GITHUB_OUTPUT=" + a.tmp + "/output",
                                   "GITHUB_STEP_SUMMARY=" + a.tmp + "/summary"};
  const std::regex input(R"(^\$\{\{ *inputs\.([A-Za-z0-9_-]+) *\}\}$)");
  for (const auto& m : (*step)["env"].GetObject()) {
    std::smatch match;
    std::string expr = m.value.GetString();
    EXPECT_TRUE(std::regex_match(expr, match, input)) << expr;
    std::string name = match[1];
    EXPECT_TRUE(json::Find(action["inputs"], name)) << "no input " << name;
    std::string value = inputs.count(name)
                            ? inputs[name]
                            : Str(json::Resolve(action, "/inputs/" + name + "/default"));
    argv.push_back(m.name.GetString() + std::string("=") + value);
  }
  for (const char* s : {"bash", "--noprofile", "--norc", "-eo", "pipefail", "-c"})
    argv.push_back(s);
  argv.push_back(Str(json::Find(*step, "run")));
  a.r = RunCommand(argv, std::chrono::seconds(120));
  std::istringstream out(ReadFile(a.tmp + "/output"));
  for (std::string line; std::getline(out, line);)
    if (auto eq = line.find('='); eq != std::string::npos)
      a.outputs[line.substr(0, eq)] = line.substr(eq + 1);
  a.summary = ReadFile(a.tmp + "/summary");
  // Each output the action declares is its step's output of the same name.
  const std::regex output(R"(^\$\{\{ *steps\.run\.outputs\.([A-Za-z0-9_-]+) *\}\}$)");
  for (const auto& m : action["outputs"].GetObject()) {
    std::smatch match;
    std::string expr = Str(json::Find(m.value, "value"));
    EXPECT_TRUE(std::regex_match(expr, match, output)) << expr;
    EXPECT_EQ(match[1], m.name.GetString());
    a.declared.push_back(m.name.GetString());
  }
  return a;
}

TEST(GithubAction, APassingPluginExitsZeroWithItsCountsAndSummaryAndNoAnnotation) {
  for (const auto& [protocol, only] :
       {std::pair{"rim-v1", "handshake/*"}, std::pair{"flash-v1", "initialize/*"},
        std::pair{"mcp-stdio", "lifecycle/*"}}) {
    // No protocol input: detected from the plugin's manifest, or (mcp-stdio, which has none)
    // from its fakehost.yaml.
    ActionRun a = RunAction({{"plugin", FixturesDir() + "/" + protocol + "/reference"},
                             {"args", std::string("--only '") + only + "' --jobs 2"}});
    EXPECT_EQ(a.r.exit_code, 0) << a.r.out << a.r.err;
    rapidjson::Document summary = Summary(a.reports + "/report.json");
    ASSERT_TRUE(summary.IsObject()) << a.r.out << a.r.err;
    EXPECT_GT(summary["passed"].GetInt(), 1);
    EXPECT_EQ(a.outputs["passed"], std::to_string(summary["passed"].GetInt()));
    EXPECT_EQ(a.outputs["failed"], "0");
    EXPECT_EQ(a.outputs["untested"], "0");
    EXPECT_EQ(a.outputs["report-dir"], a.reports);
    for (const std::string& name : a.declared) EXPECT_EQ(a.outputs.count(name), 1u) << name;
    EXPECT_EQ(a.summary, ReadFile(a.reports + "/summary.md"));
    EXPECT_NE(a.summary.find("fakehost ·"), std::string::npos) << a.summary;
    EXPECT_TRUE(fs::exists(a.reports + "/junit.xml"));
    EXPECT_TRUE(fs::exists(a.reports + "/report.html"));
    EXPECT_EQ(a.r.out.find("::error"), std::string::npos) << a.r.out;
    EXPECT_NE(ReadFile(a.reports + "/report.json").find("\"strict\":true"), std::string::npos)
        << "strict is on by default";
    fs::remove_all(a.tmp);
  }
}

TEST(GithubAction, AFailingPluginExitsOneAndAnnotatesTheScenarioByItsWorkspacePath) {
  for (const auto& [protocol, fixture, scenario] :
       {std::tuple{"rim-v1", "ignore-shutdown", "shutdown/exits-promptly"},
        std::tuple{"flash-v1", "ignore-eof", "shutdown/exits-on-stdin-eof"}}) {
    ActionRun a = RunAction({{"protocol", protocol},
                             {"plugin", FixturesDir() + "/" + protocol + "/broken/" + fixture},
                             {"args", std::string("--only ") + scenario}});
    EXPECT_EQ(a.r.exit_code, 1) << a.r.out << a.r.err;
    EXPECT_EQ(a.outputs["passed"], "0");
    EXPECT_EQ(a.outputs["failed"], "1");
    std::string annotation =
        std::string("::error file=scenarios/") + protocol + "/" + scenario + ".yaml,line=";
    EXPECT_NE(a.r.out.find(annotation), std::string::npos) << a.r.out;
    EXPECT_NE(a.summary.find(std::string("FAIL `") + scenario + "`"), std::string::npos)
        << a.summary;
    fs::remove_all(a.tmp);
  }
}

// A stand-in fakehost that records its arguments: the flags every input becomes, including
// --expected-failures, which the real `fakehost run` may not know yet.
TEST(GithubAction, EveryInputBecomesFakehostsFlagsAndArgsSplitLikeAShell) {
  std::string stub_dir = MakeTempDir();
  std::string stub = stub_dir + "/fakehost";
  std::ofstream(stub) << "#!/bin/sh\nprintf '%s\\n' \"$@\" > " << stub_dir << "/argv\n";
  fs::permissions(stub, fs::perms::owner_all);
  ActionRun a = RunAction({{"fakehost", stub},
                           {"protocol", "flash-v1"},
                           {"plugin", "my plugin"},
                           {"expected-failures", "known failures.txt"},
                           {"strict", "false"},
                           {"args", R"(--only 'a b' --env "K=v w" --jobs 1)"}});
  EXPECT_EQ(a.r.exit_code, 0) << a.r.out << a.r.err;
  std::string d = a.reports;
  EXPECT_EQ(ReadFile(stub_dir + "/argv"),
            "run\n--plugin\nmy plugin\n--out\n" + d + "\n--report\njunit=" + d +
                "/junit.xml\n--report\nmarkdown=" + d + "/summary.md\n--report\nhtml=" + d +
                "/report.html\n--protocol\nflash-v1\n--expected-failures\nknown failures.txt\n"
                "--only\na b\n--env\nK=v w\n--jobs\n1\n");
  EXPECT_EQ(a.outputs.count("passed"), 0u) << "no report, no counts";
  EXPECT_NE(a.summary.find("fakehost exited 0"), std::string::npos) << a.summary;
  fs::remove_all(a.tmp);
  fs::remove_all(stub_dir);
}

TEST(GithubAction, AMissingBinaryABadStrictValueOrUnsplittableArgsAreBadInput) {
  const std::string plugin = FixturesDir() + "/rim-v1/reference";
  for (const Vars& inputs : {Vars{{"fakehost", "/no/such/fakehost"}}, Vars{{"strict", "yes"}},
                             Vars{{"args", "--only 'unclosed"}}}) {
    Vars given = inputs;
    given["plugin"] = plugin;
    ActionRun a = RunAction(given);
    EXPECT_EQ(a.r.exit_code, 2) << a.r.out << a.r.err;
    EXPECT_NE(a.r.out.find("::error title=fakehost::"), std::string::npos) << a.r.out;
    EXPECT_NE(a.summary.find("fakehost did not run"), std::string::npos) << a.summary;
    EXPECT_FALSE(fs::exists(a.reports + "/report.json"));
    fs::remove_all(a.tmp);
  }
}

// The templates' words for the protocol input name every protocol fakehost has a profile for.
TEST(CiTemplates, TheProtocolInputNamesEveryProtocol) {
  rapidjson::Document action = Yaml(SourceDir() + "/ci/templates/github/action.yml");
  const std::string described = Str(json::Resolve(action, "/inputs/protocol/description"));
  const std::string gitlab = ReadFile(SourceDir() + "/ci/templates/gitlab/fakehost.gitlab-ci.yml");
  const std::string gitlab_line = gitlab.substr(gitlab.find("FAKEHOST_PROTOCOL: \"\""));
  int protocols = 0;
  for (const auto& e : fs::directory_iterator(SourceDir() + "/schema")) {
    if (!fs::exists(e.path() / "profile.json")) continue;
    const std::string name = e.path().filename().string();
    ++protocols;
    EXPECT_NE(described.find(name), std::string::npos) << name << " in: " << described;
    EXPECT_NE(gitlab_line.substr(0, gitlab_line.find('\n')).find(name), std::string::npos)
        << name << " in: " << gitlab_line.substr(0, gitlab_line.find('\n'));
  }
  EXPECT_GE(protocols, 3);
}

struct JobRun {
  CommandResult r;
  std::string dir;  ///< $CI_PROJECT_DIR
  rapidjson::Document job;
};

// Runs the hidden job .fakehost's script as a GitLab runner would: in $CI_PROJECT_DIR, its
// variables (overridden by `vars`, as a job that extends it would) in the environment, the
// script entries one after another in one `sh -e`.
JobRun RunGitlabJob(const Vars& vars) {
  JobRun j;
  j.dir = MakeTempDir();
  rapidjson::Document doc = Yaml(SourceDir() + "/ci/templates/gitlab/fakehost.gitlab-ci.yml");
  EXPECT_TRUE(doc.IsObject() && doc.HasMember(".fakehost"));
  if (!doc.IsObject() || !doc.HasMember(".fakehost")) return j;
  j.job.CopyFrom(doc[".fakehost"], j.job.GetAllocator());
  std::vector<std::string> argv = {"/usr/bin/env", "-i", kPath, "HOME=" + j.dir,
                                   "CI_PROJECT_DIR=" + j.dir};
  for (const auto& m : j.job["variables"].GetObject())
    argv.push_back(m.name.GetString() + std::string("=") + Str(&m.value));
  for (const auto& [k, v] : vars) argv.push_back(k + "=" + v);
  std::string script = "cd \"$CI_PROJECT_DIR\"\n";
  for (const auto& line : j.job["script"].GetArray()) script += Str(&line) + "\n";
  for (const std::string& s : {std::string("sh"), std::string("-e"), std::string("-c"), script})
    argv.push_back(s);
  j.r = RunCommand(argv, std::chrono::seconds(120));
  return j;
}

TEST(GitlabTemplate, APassingPluginWritesTheJUnitReportAndArtifactsItDeclares) {
  JobRun j = RunGitlabJob({{"FAKEHOST_BIN", FakehostBin()},
                           {"FAKEHOST_PLUGIN", FixturesDir() + "/rim-v1/reference"},
                           {"FAKEHOST_ARGS", "--only handshake/* --jobs 2"}});
  EXPECT_EQ(j.r.exit_code, 0) << j.r.out << j.r.err;
  std::string junit = j.dir + "/" + Str(json::Resolve(j.job, "/artifacts/reports/junit"));
  ASSERT_TRUE(fs::is_regular_file(junit)) << junit << "\n" << j.r.out << j.r.err;
  EXPECT_NE(ReadFile(junit).find("<testsuite "), std::string::npos);
  EXPECT_EQ(ReadFile(junit).find("<failure"), std::string::npos);
  EXPECT_EQ(Str(json::Resolve(j.job, "/artifacts/when")), "always");
  for (const auto& p : json::Resolve(j.job, "/artifacts/paths")->GetArray())
    EXPECT_TRUE(fs::exists(j.dir + "/" + Str(&p))) << Str(&p);
  for (const char* f : {"summary.md", "report.html", "report.json"})
    EXPECT_TRUE(fs::exists(j.dir + "/fakehost-reports/" + f)) << f;
  EXPECT_NE(ReadFile(j.dir + "/fakehost-reports/report.json").find("\"strict\":true"),
            std::string::npos)
      << "strict is on by default";
  fs::remove_all(j.dir);
}

TEST(GitlabTemplate, AFailingPluginFailsTheJobAndStillWritesItsJUnitReport) {
  JobRun j = RunGitlabJob({{"FAKEHOST_BIN", FakehostBin()},
                           {"FAKEHOST_PROTOCOL", "rim-v1"},
                           {"FAKEHOST_PLUGIN", FixturesDir() + "/rim-v1/broken/ignore-shutdown"},
                           {"FAKEHOST_ARGS", "--only shutdown/exits-promptly"}});
  EXPECT_EQ(j.r.exit_code, 1) << j.r.out << j.r.err;
  std::string junit = j.dir + "/" + Str(json::Resolve(j.job, "/artifacts/reports/junit"));
  EXPECT_NE(ReadFile(junit).find("<failure"), std::string::npos) << ReadFile(junit);
  fs::remove_all(j.dir);
}

}  // namespace
}  // namespace fakehost::testing
