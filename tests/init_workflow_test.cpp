// The GitHub workflow `fakehost init` writes, run as written against an installed fakehost:
// `cmake --install` of the `fakehost` component (what the .deb holds) into a temporary prefix,
// then the workflow's job played step by step the way GitHub's runner plays it: each `run:`
// written to a file and run by `bash --noprofile --norc -eo pipefail` in the workspace, GITHUB_*
// files in a temporary directory, a local action (`uses: ./X`) read from the workspace and its
// composite step run with its inputs mapped from `with:`, `${{ steps.ID.outputs.NAME }}`
// expanded, `if: always()` steps run after a failure. Only what cannot run here is simulated:
// the checkout (the workspace is the repository) and the step that downloads and installs the
// .deb (the prefix is on PATH instead; the step must name the version being tested).
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

rapidjson::Document Yaml(const std::string& path) {
  rapidjson::Document doc;
  std::vector<scenario::LoadError> errors;
  EXPECT_TRUE(scenario::ParseYamlToJson(ReadFile(path), path, &doc, nullptr, &errors)) << path;
  for (const auto& e : errors) ADD_FAILURE() << e.ToString();
  return doc;
}

// A YAML value as GitHub hands it to an action: strings as they are, `true` as "true".
std::string Text(const rapidjson::Value* v) {
  if (!v) return "";
  return v->IsString() ? v->GetString() : json::ToCompact(*v);
}

// `cmake --install` of the package's component into PREFIX: the binary, its data, the CI pieces.
std::string Install(const std::string& prefix) {
  CommandResult r = RunCommand({FAKEHOST_CMAKE_COMMAND, "--install", FAKEHOST_BINARY_DIR,
                                "--prefix", prefix, "--component", "fakehost"},
                               std::chrono::seconds(120));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  return prefix + "/bin/fakehost";
}

struct Job {
  int exit_code = 0;                    ///< the first failing step's exit code, 0 when none failed
  std::string log;                      ///< every step's stdout and stderr
  std::string summary;                  ///< what the steps appended to $GITHUB_STEP_SUMMARY
  std::vector<std::string> uploaded;    ///< paths given to actions/upload-artifact
  std::map<std::string, Vars> outputs;  ///< by step id
};

class Runner {
 public:
  Runner(std::string workspace, std::string bin_dir, std::string tmp)
      : ws_(std::move(workspace)), bin_dir_(std::move(bin_dir)), tmp_(std::move(tmp)) {
    std::ofstream(tmp_ + "/summary").flush();
  }

  Job RunJob(const rapidjson::Value& job) {
    Job result;
    Vars env;
    if (const rapidjson::Value* e = json::Find(job, "env"))
      for (const auto& m : e->GetObject()) env[m.name.GetString()] = Text(&m.value);
    const rapidjson::Value* steps = json::Find(job, "steps");
    EXPECT_TRUE(steps && steps->IsArray());
    if (!steps || !steps->IsArray()) return result;
    int n = 0;
    for (const auto& step : steps->GetArray()) {
      ++n;
      const std::string cond = Text(json::Find(step, "if"));
      EXPECT_TRUE(cond.empty() || cond == "always()") << "step " << n << ": if: " << cond;
      if (result.exit_code != 0 && cond != "always()") continue;
      int code = RunStep(step, env, &result);
      if (result.exit_code == 0) result.exit_code = code;
    }
    result.summary = ReadFile(tmp_ + "/summary");
    return result;
  }

 private:
  // `${{ steps.ID.outputs.NAME }}` expanded; any other expression is a test failure.
  std::string Expand(const std::string& text, const Job& job) {
    static const std::regex expr(
        R"(\$\{\{ *steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+) *\}\})");
    std::string out = text;
    std::smatch m;
    while (std::regex_search(out, m, expr)) {
      auto step = job.outputs.find(m[1]);
      std::string value = step == job.outputs.end()  ? ""
                          : step->second.count(m[2]) ? step->second.at(m[2])
                                                     : "";
      out = m.prefix().str() + value + m.suffix().str();
    }
    EXPECT_EQ(out.find("${{"), std::string::npos)
        << "an expression the runner cannot expand: " << text;
    return out;
  }

  // A `run:` script as GitHub runs it: written to a file, run by bash in the workspace.
  int Bash(const std::string& script, const Vars& env, const std::string& output_file, Job* job) {
    const std::string file = tmp_ + "/step-" + std::to_string(++scripts_) + ".sh";
    { std::ofstream(file) << script; }
    std::ofstream(output_file).flush();
    std::vector<std::string> argv = {"/usr/bin/env",
                                     "-i",
                                     "PATH=" + bin_dir_ + ":/usr/local/bin:/usr/bin:/bin",
                                     "HOME=" + tmp_,
                                     "CI=true",
                                     "GITHUB_ACTIONS=true",
                                     "GITHUB_WORKSPACE=" + ws_,
                                     "GITHUB_OUTPUT=" + output_file,
                                     "GITHUB_STEP_SUMMARY=" + tmp_ + "/summary"};
    for (const auto& [k, v] : env) argv.push_back(k + "=" + v);
    for (const char* s :
         {"bash", "-c", "cd \"$1\" && exec bash --noprofile --norc -eo pipefail \"$2\"", "runner"})
      argv.push_back(s);
    argv.push_back(ws_);
    argv.push_back(file);
    CommandResult r = RunCommand(argv, std::chrono::seconds(240));
    job->log += r.out + r.err;
    return r.exit_code;
  }

  static Vars ReadOutputs(const std::string& file) {
    Vars out;
    std::istringstream in(ReadFile(file));
    for (std::string line; std::getline(in, line);)
      if (auto eq = line.find('='); eq != std::string::npos)
        out[line.substr(0, eq)] = line.substr(eq + 1);
    return out;
  }

  int RunStep(const rapidjson::Value& step, const Vars& job_env, Job* job) {
    const std::string id = Text(json::Find(step, "id"));
    const std::string uses = Text(json::Find(step, "uses"));
    const std::string run = Text(json::Find(step, "run"));
    const rapidjson::Value* with = json::Find(step, "with");
    if (uses.rfind("actions/checkout@", 0) == 0) return 0;  // the workspace is the repository
    if (uses.rfind("actions/upload-artifact@", 0) == 0) {
      job->uploaded.push_back(Expand(Text(with ? json::Find(*with, "path") : nullptr), *job));
      return 0;
    }
    if (uses.rfind("./", 0) == 0)
      return RunLocalAction(ws_ + "/" + uses.substr(2), with, id, job_env, job);
    EXPECT_TRUE(uses.empty()) << "an action the runner does not know: " << uses;
    if (Text(json::Find(step, "name")) == "Install fakehost") {
      // Simulated: it downloads the .deb of the version in FAKEHOST_VERSION and installs it;
      // here the installed prefix is on PATH.
      EXPECT_NE(run.find("fakehost_${FAKEHOST_VERSION}_amd64.deb"), std::string::npos) << run;
      EXPECT_NE(run.find("apt-get install -y /tmp/fakehost.deb"), std::string::npos) << run;
      return 0;
    }
    return Bash(run, job_env, tmp_ + "/output", job);
  }

  // A composite action's steps, each with its env mapped from the inputs (`with:`, else the
  // input's default) and GITHUB_ACTION_PATH; its outputs from its steps' outputs.
  int RunLocalAction(const std::string& dir, const rapidjson::Value* with, const std::string& id,
                     const Vars& job_env, Job* job) {
    EXPECT_TRUE(fs::exists(dir + "/action.yml")) << dir;
    if (!fs::exists(dir + "/action.yml")) return 1;
    rapidjson::Document action = Yaml(dir + "/action.yml");
    EXPECT_EQ(Text(json::Resolve(action, "/runs/using")), "composite");
    if (with) {
      for (const auto& m : with->GetObject()) {
        EXPECT_TRUE(json::Find(action["inputs"], m.name.GetString()))
            << "no input " << m.name.GetString();
      }
    }
    static const std::regex input(R"(^\$\{\{ *inputs\.([A-Za-z0-9_-]+) *\}\}$)");
    std::map<std::string, Vars> step_outputs;
    int code = 0;
    for (const auto& s : action["runs"]["steps"].GetArray()) {
      Vars env = job_env;
      env["GITHUB_ACTION_PATH"] = dir;
      if (const rapidjson::Value* e = json::Find(s, "env"))
        for (const auto& m : e->GetObject()) {
          std::smatch match;
          std::string expr = Text(&m.value);
          EXPECT_TRUE(std::regex_match(expr, match, input)) << expr;
          std::string name = match[1];
          const rapidjson::Value* given = with ? json::Find(*with, name) : nullptr;
          env[m.name.GetString()] =
              given ? Expand(Text(given), *job)
                    : Text(json::Resolve(action, "/inputs/" + name + "/default"));
        }
      const std::string file = tmp_ + "/action-output";
      code = Bash(Text(json::Find(s, "run")), env, file, job);
      step_outputs[Text(json::Find(s, "id"))] = ReadOutputs(file);
      if (code != 0) break;
    }
    static const std::regex output(
        R"(^\$\{\{ *steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+) *\}\}$)");
    for (const auto& m : action["outputs"].GetObject()) {
      std::smatch match;
      std::string expr = Text(json::Find(m.value, "value"));
      if (std::regex_match(expr, match, output))
        job->outputs[id][m.name.GetString()] = step_outputs[match[1]][match[2]];
    }
    return code;
  }

  std::string ws_, bin_dir_, tmp_;
  int scripts_ = 0;
};

struct Played {
  Job job;
  std::string tmp, prefix, repo;
};

// Installs fakehost into a prefix, copies FIXTURE into a git checkout as plugins/notes, runs the
// installed `fakehost init` on it and plays the workflow it wrote.
Played InitAndPlay(const std::string& fixture) {
  Played p;
  p.tmp = MakeTempDir();
  p.prefix = p.tmp + "/usr";
  const std::string fakehost = Install(p.prefix);
  p.repo = p.tmp + "/repo";
  fs::create_directories(p.repo + "/.git");
  fs::create_directories(p.repo + "/plugins");
  fs::copy(FixturesDir() + "/" + fixture, p.repo + "/plugins/notes",
           fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  CommandResult init = RunCommand(
      {"/usr/bin/env", "-u", "FAKEHOST_HOME", fakehost, "init", p.repo + "/plugins/notes"},
      std::chrono::seconds(60));
  EXPECT_EQ(init.exit_code, 0) << init.out << init.err;
  const std::string workflow = p.repo + "/.github/workflows/fakehost.yml";
  EXPECT_TRUE(fs::exists(workflow)) << init.out;
  if (!fs::exists(workflow)) return p;
  rapidjson::Document doc = Yaml(workflow);
  const rapidjson::Value* jobs = json::Find(doc, "jobs");
  EXPECT_TRUE(jobs && jobs->IsObject() && jobs->MemberCount() == 1u);
  if (!jobs || !jobs->IsObject() || jobs->MemberCount() != 1u) return p;
  const rapidjson::Value& job = jobs->MemberBegin()->value;
  // The version the workflow downloads is the one installed.
  CommandResult version = RunCommand({fakehost, "--version"}, std::chrono::seconds(30));
  EXPECT_EQ(
      version.out.rfind("fakehost " + Text(json::Resolve(job, "/env/FAKEHOST_VERSION")) + "\n", 0),
      0u)
      << version.out;
  Runner runner(p.repo, p.prefix + "/bin", p.tmp);
  p.job = runner.RunJob(job);
  return p;
}

TEST(InitWorkflow, RunsAsWrittenWithTheInstalledActionAndPassesTheReferencePlugin) {
  Played p = InitAndPlay("rim-v1/reference");
  EXPECT_EQ(p.job.exit_code, 0) << p.job.log;
  // The action that ran is the one the package installed, copied into the workspace.
  EXPECT_EQ(ReadFile(p.repo + "/.fakehost-action/action.yml"),
            ReadFile(p.prefix + "/share/fakehost/ci/github/action.yml"));
  ASSERT_EQ(p.job.uploaded.size(), 1u) << p.job.log;
  const std::string reports = p.job.uploaded[0];
  EXPECT_EQ(reports, p.job.outputs["fakehost"]["report-dir"]);
  const std::string report = ReadFile(p.repo + "/" + reports + "/report.json");
  // It played the installed suite, strictly, on the plugin init was run for.
  EXPECT_NE(report.find("\"suite\":\"" + p.prefix + "/share/fakehost/scenarios/rim-v1\""),
            std::string::npos)
      << report.substr(0, 400);
  EXPECT_NE(report.find("\"strict\":true"), std::string::npos);
  EXPECT_NE(p.job.outputs["fakehost"]["passed"], "0");
  EXPECT_EQ(p.job.outputs["fakehost"]["failed"], "0");
  for (const char* f : {"junit.xml", "summary.md", "report.html"})
    EXPECT_TRUE(fs::exists(p.repo + "/" + reports + "/" + f)) << f;
  EXPECT_EQ(p.job.summary, ReadFile(p.repo + "/" + reports + "/summary.md"));
  fs::remove_all(p.tmp);
}

TEST(InitWorkflow, FailsTheJobOnABrokenPluginAndStillUploadsItsReports) {
  Played p = InitAndPlay("rim-v1/broken/ignore-shutdown");
  EXPECT_EQ(p.job.exit_code, 1) << p.job.log;
  // Annotated; without a file=, since the installed suite lies outside the workspace.
  EXPECT_NE(p.job.log.find("::error"), std::string::npos) << p.job.log.substr(0, 2000);
  EXPECT_NE(p.job.log.find("exits-promptly"), std::string::npos) << p.job.log.substr(0, 2000);
  ASSERT_EQ(p.job.uploaded.size(), 1u) << "upload-artifact runs if: always()";
  EXPECT_TRUE(fs::exists(p.repo + "/" + p.job.uploaded[0] + "/report.json"));
  EXPECT_NE(p.job.outputs["fakehost"]["failed"], "0");
  fs::remove_all(p.tmp);
}

}  // namespace
}  // namespace fakehost::testing
