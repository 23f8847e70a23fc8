// The GitHub workflow `fakehost init` writes, run as written (tests/github_runner.hpp): for a
// plugin with a manifest (RIM), a Node MCP server and a Python MCP server, each in a git
// checkout. The workflow installs fakehost from the release files the build packed
// (build/portable: the npm package, the wheel; packaging/), which `init --dist` points it at in
// place of the registries, with npm offline and pip without an index, so what it installs is
// exactly what the build made. Then the job sets up the server's dependencies, copies the action
// that came with fakehost into the workspace, and runs the standard suite and the plugin's own
// scenarios, with its baseline when it has one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "harness/json/json.hpp"
#include "tests/command.hpp"
#include "tests/github_runner.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;

// FAKEHOST_PORTABLE_DIR: where the build packs the portable packages; FAKEHOST_PORTABLE_BUILT: 1
// when this build makes them (FAKEHOST_STATIC), so that their absence fails rather than skips.
const std::string kPortable = FAKEHOST_PORTABLE_DIR;
const std::string kVersion = FAKEHOST_VERSION;
const std::string kNpm = kPortable + "/fakehost-" + kVersion + ".tgz";
const std::string kWheel = kPortable + "/fakehost-" + kVersion +
                           "-py3-none-manylinux_2_17_x86_64.musllinux_1_1_x86_64.whl";

#define NEEDS_PACKAGES()                                             \
  if (!fs::exists(kNpm) || !fs::exists(kWheel)) {                    \
    if (FAKEHOST_PORTABLE_BUILT)                                     \
      FAIL() << "this build packs " << kNpm << " and " << kWheel     \
             << " (target fakehost-portable), and they are missing"; \
    GTEST_SKIP() << "no portable packages in " << kPortable          \
                 << " (a build with FAKEHOST_STATIC=ON packs them)"; \
  }

using MakePlugin = std::function<void(const std::string& dir)>;

MakePlugin Fixture(const std::string& name) {
  return [name](const std::string& dir) {
    fs::copy(FixturesDir() + "/" + name, dir,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  };
}

void Write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// A Node MCP server as npm packs one: its bin is built (dist/index.js) by `npm run build`, and a
// lock file pins its (no) dependencies. The server is examples/mcp-stdio/weather-modern-node's.
void NodeServer(const std::string& dir) {
  fs::create_directories(dir);
  fs::copy_file(SourceDir() + "/examples/mcp-stdio/weather-modern-node/server.js",
                dir + "/server.js");
  Write(dir + "/package.json",
        R"({"name": "weather", "version": "1.0.0", "bin": {"weather": "dist/index.js"},
  "scripts": {"build": "mkdir -p dist && cp server.js dist/index.js"}})");
  Write(dir + "/package-lock.json",
        R"({"name": "weather", "version": "1.0.0", "lockfileVersion": 3, "requires": true,
  "packages": {"": {"name": "weather", "version": "1.0.0", "bin": {"weather": "dist/index.js"}}}})");
}

// A Python MCP server with a pyproject.toml: its script's module is in the directory. The
// server is examples/mcp-stdio/tasks-python's.
void PythonServer(const std::string& dir) {
  fs::create_directories(dir);
  fs::copy_file(SourceDir() + "/examples/mcp-stdio/tasks-python/server.py",
                dir + "/tasks_server.py");
  Write(dir + "/pyproject.toml",
        "[project]\nname = \"tasks\"\nversion = \"1.0\"\n\n[project.scripts]\n"
        "tasks = \"tasks_server:main\"\n");
  Write(dir + "/requirements.txt", "# the standard library only\n");
}

struct Played {
  Job job;
  std::string tmp, repo, plugin, workflow, runner_temp;
};

// Plays the workflow of the checkout `p` (written by init before) on a fresh runner.
void Play(Played* p) {
  rapidjson::Document doc = ReadYaml(p->workflow);
  const rapidjson::Value* jobs = json::Find(doc, "jobs");
  ASSERT_TRUE(jobs && jobs->IsObject() && jobs->MemberCount() == 1u);
  const std::string run_dir = MakeTempDir();
  GithubRunner runner(p->repo, run_dir);
  p->runner_temp = runner.runner_temp();
  p->job = runner.RunJob(jobs->MemberBegin()->value);
}

// Makes the plugin at REPO/plugins/notes of a fresh git checkout, runs `fakehost init` there with
// the build's packages as the source, and plays the workflow it wrote.
Played InitAndPlay(const MakePlugin& make, const std::vector<std::string>& more = {}) {
  Played p;
  p.tmp = MakeTempDir();
  p.repo = p.tmp + "/repo";
  p.plugin = p.repo + "/plugins/notes";
  fs::create_directories(p.repo + "/.git");
  fs::create_directories(p.repo + "/plugins");
  make(p.plugin);
  std::vector<std::string> argv = {"/usr/bin/env", "-u",     "FAKEHOST_HOME", FakehostBin(),
                                   "init",         p.plugin, "--dist",        kPortable};
  argv.insert(argv.end(), more.begin(), more.end());
  CommandResult init = RunCommand(argv, std::chrono::seconds(60));
  EXPECT_EQ(init.exit_code, 0) << init.out << init.err;
  p.workflow = p.repo + "/.github/workflows/fakehost.yml";
  EXPECT_TRUE(fs::exists(p.workflow)) << init.out;
  if (!fs::exists(p.workflow)) return p;
  Play(&p);
  return p;
}

rapidjson::Document Report(const Played& p) {
  rapidjson::Document doc;
  const std::string dir = p.job.uploaded.empty() ? "" : p.job.uploaded[0];
  doc.Parse(ReadFile(p.repo + "/" + dir + "/report.json").c_str());
  EXPECT_TRUE(doc.IsObject()) << p.job.log.substr(0, 4000);
  return doc;
}

// The scenario ids of a report with `status`.
std::vector<std::string> WithStatus(const rapidjson::Value& report, const std::string& status) {
  std::vector<std::string> ids;
  if (const rapidjson::Value* s = json::Find(report, "scenarios"); s && s->IsArray())
    for (const auto& e : s->GetArray())
      if (json::StringMember(e, "status") == status) ids.push_back(json::StringMember(e, "id"));
  return ids;
}

bool Has(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

TEST(InitWorkflow, APluginWithAManifestPassesWithTheActionAndSuiteOfTheInstalledPackage) {
  NEEDS_PACKAGES();
  Played p = InitAndPlay(Fixture("rim-v1/reference"));
  EXPECT_EQ(p.job.exit_code, 0) << p.job.log;
  EXPECT_NE(ReadFile(p.workflow).find(kPortable + "/fakehost-${FAKEHOST_VERSION}.tgz"),
            std::string::npos)
      << "the install step takes the packages from --dist";
  EXPECT_EQ(ReadFile(p.workflow).find("OWNER"), std::string::npos);
  // The action that ran is the one the npm package holds, copied into the workspace.
  const std::string share = p.runner_temp + "/fakehost/node_modules/fakehost/share/fakehost";
  EXPECT_EQ(ReadFile(p.repo + "/.fakehost-action/action.yml"),
            ReadFile(share + "/ci/github/action.yml"));
  ASSERT_EQ(p.job.uploaded.size(), 1u) << p.job.log;
  EXPECT_EQ(p.job.uploaded[0], p.job.outputs["fakehost"]["report-dir"]);
  rapidjson::Document report = Report(p);
  // The package's suite, strictly, and the plugin's own scenario beside it.
  const std::string text = ReadFile(p.repo + "/" + p.job.uploaded[0] + "/report.json");
  EXPECT_NE(text.find(share + "/scenarios/rim-v1"), std::string::npos) << text.substr(0, 600);
  EXPECT_NE(text.find("\"strict\":true"), std::string::npos);
  EXPECT_TRUE(Has(WithStatus(report, "pass"), "stops-when-asked")) << text.substr(0, 600);
  EXPECT_NE(p.job.outputs["fakehost"]["passed"], "0");
  EXPECT_EQ(p.job.outputs["fakehost"]["failed"], "0");
  EXPECT_EQ(p.job.summary, ReadFile(p.repo + "/" + p.job.uploaded[0] + "/summary.md"));
  fs::remove_all(p.tmp);
}

TEST(InitWorkflow, ABrokenPluginFailsTheJobUntilItsFailuresAreRecordedAsTheBaseline) {
  NEEDS_PACKAGES();
  Played p = InitAndPlay(Fixture("rim-v1/broken/ignore-shutdown"));
  EXPECT_EQ(p.job.exit_code, 1) << p.job.log;
  EXPECT_NE(p.job.log.find("::error"), std::string::npos) << p.job.log.substr(0, 2000);
  ASSERT_EQ(p.job.uploaded.size(), 1u) << "upload-artifact runs if: always()";
  EXPECT_NE(p.job.outputs["fakehost"]["failed"], "0");
  EXPECT_TRUE(p.job.outputs["baseline"].empty()) << "no baseline yet";

  // The baseline the workflow's comment says to record (`--write-expected-failures`), written
  // from the job's own report (a run of the broken plugin more would cost seconds): the job
  // passes, each failure known.
  std::string baseline = "# fakehost expected failures\n";
  rapidjson::Document report = Report(p);
  for (const char* status : {"fail", "warn"})
    for (const std::string& id : WithStatus(report, status))
      baseline += "- id: " + id + "\n  reason: \"ignores rim.shutdown\"\n";
  ASSERT_NE(baseline.find("shutdown/exits-promptly"), std::string::npos) << baseline;
  Write(p.plugin + "/fakehost/expected-failures.yaml", baseline);
  Play(&p);
  EXPECT_EQ(p.job.exit_code, 0) << p.job.log;
  EXPECT_EQ(p.job.outputs["baseline"]["file"], "plugins/notes/fakehost/expected-failures.yaml");
  EXPECT_TRUE(Has(WithStatus(Report(p), "xfail"), "shutdown/exits-promptly"));
  fs::remove_all(p.tmp);
}

TEST(InitWorkflow, ANodeServerIsBuiltAndPassesWithFakehostFromNpm) {
  NEEDS_PACKAGES();
  Played p = InitAndPlay(NodeServer, {"--protocol", "mcp-stdio"});
  EXPECT_EQ(p.job.exit_code, 0) << p.job.log;
  EXPECT_TRUE(Has(p.job.actions, "actions/setup-node@v4"));
  EXPECT_TRUE(fs::exists(p.plugin + "/dist/index.js")) << "npm run build ran: " << p.job.log;
  EXPECT_NE(p.job.outputs["fakehost"]["passed"], "0");
  EXPECT_EQ(p.job.outputs["fakehost"]["failed"], "0");
  EXPECT_EQ(
      ReadFile(p.repo + "/.fakehost-action/run.sh"),
      ReadFile(p.runner_temp + "/fakehost/node_modules/fakehost/share/fakehost/ci/github/run.sh"));
  fs::remove_all(p.tmp);
}

TEST(InitWorkflow, APythonServerPassesWithFakehostFromItsWheel) {
  NEEDS_PACKAGES();
  Played p = InitAndPlay(PythonServer, {"--protocol", "mcp-stdio"});
  EXPECT_EQ(p.job.exit_code, 0) << p.job.log;
  EXPECT_TRUE(Has(p.job.actions, "actions/setup-python@v5"));
  EXPECT_NE(ReadFile(p.workflow).find(kPortable + "/fakehost-${FAKEHOST_VERSION}-py3-none-"),
            std::string::npos);
  EXPECT_NE(p.job.outputs["fakehost"]["passed"], "0");
  EXPECT_EQ(p.job.outputs["fakehost"]["failed"], "0");
  // The action came from the wheel, installed into the job's Python.
  bool from_wheel = false;
  for (const auto& e : fs::recursive_directory_iterator(p.runner_temp + "/python"))
    if (e.path().filename() == "action.yml" &&
        e.path().string().find("/fakehost/share/fakehost/ci/github/") != std::string::npos)
      from_wheel |=
          ReadFile(e.path().string()) == ReadFile(p.repo + "/.fakehost-action/action.yml");
  EXPECT_TRUE(from_wheel) << p.job.log.substr(0, 3000);
  fs::remove_all(p.tmp);
}

}  // namespace
}  // namespace fakehost::testing
