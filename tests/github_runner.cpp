#include "tests/github_runner.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "harness/json/json.hpp"
#include "harness/scenario/yaml_json.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {

namespace fs = std::filesystem;

namespace {

Vars ReadOutputs(const std::string& file) {
  Vars out;
  std::istringstream in(ReadFile(file));
  for (std::string line; std::getline(in, line);)
    if (auto eq = line.find('='); eq != std::string::npos)
      out[line.substr(0, eq)] = line.substr(eq + 1);
  return out;
}

}  // namespace

rapidjson::Document ReadYaml(const std::string& path) {
  rapidjson::Document doc;
  std::vector<scenario::LoadError> errors;
  EXPECT_TRUE(scenario::ParseYamlToJson(ReadFile(path), path, &doc, nullptr, &errors)) << path;
  for (const auto& e : errors) ADD_FAILURE() << e.ToString();
  return doc;
}

std::string Text(const rapidjson::Value* v) {
  if (!v) return "";
  return v->IsString() ? v->GetString() : json::ToCompact(*v);
}

GithubRunner::GithubRunner(std::string workspace, std::string tmp)
    : ws_(std::move(workspace)), tmp_(std::move(tmp)), runner_temp_(tmp_ + "/runner") {
  fs::create_directories(runner_temp_);
  std::ofstream(tmp_ + "/summary").flush();
}

Job GithubRunner::RunJob(const rapidjson::Value& job) {
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
    if (code != 0) result.log += "[runner] step " + std::to_string(n) + " failed\n";
    if (result.exit_code == 0) result.exit_code = code;
  }
  result.summary = ReadFile(tmp_ + "/summary");
  return result;
}

// `${{ steps.ID.outputs.NAME }}` expanded; any other expression is a test failure.
std::string GithubRunner::Expand(const std::string& text, const Job& job) {
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

// A `run:` script as GitHub runs it: written to a file, run by bash in `dir`.
int GithubRunner::Bash(const std::string& script, const Vars& env, const std::string& dir, Job* job,
                       Vars* outputs) {
  const std::string file = tmp_ + "/step-" + std::to_string(++scripts_) + ".sh";
  const std::string output = tmp_ + "/output", path_file = tmp_ + "/path";
  { std::ofstream(file) << script; }
  std::ofstream(output).flush();
  std::ofstream(path_file).flush();
  std::string path;
  for (const std::string& p : path_) path += p + ":";
  std::vector<std::string> argv = {
      "/usr/bin/env", "-i", "PATH=" + path + "/usr/local/bin:/usr/bin:/bin", "HOME=" + tmp_,
      "CI=true", "GITHUB_ACTIONS=true", "GITHUB_WORKSPACE=" + ws_, "RUNNER_TEMP=" + runner_temp_,
      "GITHUB_OUTPUT=" + output, "GITHUB_PATH=" + path_file,
      "GITHUB_STEP_SUMMARY=" + tmp_ + "/summary",
      // No registry: a package comes from where the step says.
      "npm_config_offline=true", "npm_config_cache=" + tmp_ + "/npm-cache",
      "npm_config_update_notifier=false", "PIP_NO_INDEX=1", "PIP_DISABLE_PIP_VERSION_CHECK=1"};
  for (const auto& [k, v] : env) argv.push_back(k + "=" + v);
  for (const char* s :
       {"bash", "-c", "cd \"$1\" && exec bash --noprofile --norc -eo pipefail \"$2\"", "runner"})
    argv.push_back(s);
  argv.push_back(dir);
  argv.push_back(file);
  CommandResult r = RunCommand(argv, std::chrono::seconds(240));
  job->log += r.out + r.err;
  if (outputs) *outputs = ReadOutputs(output);
  std::istringstream added(ReadFile(path_file));
  for (std::string line; std::getline(added, line);)
    if (!line.empty()) path_.insert(path_.begin(), line);
  return r.exit_code;
}

int GithubRunner::RunStep(const rapidjson::Value& step, const Vars& job_env, Job* job) {
  const std::string id = Text(json::Find(step, "id"));
  const std::string uses = Text(json::Find(step, "uses"));
  const rapidjson::Value* with = json::Find(step, "with");
  if (!uses.empty()) job->actions.push_back(uses);
  if (uses.rfind("actions/checkout@", 0) == 0) return 0;  // the workspace is the repository
  if (uses.rfind("actions/upload-artifact@", 0) == 0) {
    job->uploaded.push_back(Expand(Text(with ? json::Find(*with, "path") : nullptr), *job));
    return 0;
  }
  if (uses.rfind("actions/setup-node@", 0) == 0)  // Node.js is on PATH
    return Bash("node --version\n", job_env, ws_, job, nullptr);
  if (uses.rfind("actions/setup-python@", 0) == 0) {
    const std::string venv = runner_temp_ + "/python";
    int code = Bash("/usr/bin/python3 -m venv '" + venv + "'\n", job_env, ws_, job, nullptr);
    path_.insert(path_.begin(), venv + "/bin");
    return code;
  }
  if (uses.rfind("./", 0) == 0)
    return RunLocalAction(ws_ + "/" + uses.substr(2), with, id, job_env, job);
  EXPECT_TRUE(uses.empty()) << "an action the runner does not know: " << uses;
  if (!uses.empty()) return 1;
  Vars env = job_env;
  if (const rapidjson::Value* e = json::Find(step, "env"))
    for (const auto& m : e->GetObject()) env[m.name.GetString()] = Expand(Text(&m.value), *job);
  std::string dir = ws_;
  if (const rapidjson::Value* wd = json::Find(step, "working-directory"))
    dir = ws_ + "/" + Text(wd);
  Vars outputs;
  int code = Bash(Expand(Text(json::Find(step, "run")), *job), env, dir, job, &outputs);
  if (!id.empty()) job->outputs[id] = outputs;
  return code;
}

// A composite action's steps, each with its env mapped from the inputs (`with:`, else the
// input's default) and GITHUB_ACTION_PATH; its outputs from its steps' outputs.
int GithubRunner::RunLocalAction(const std::string& dir, const rapidjson::Value* with,
                                 const std::string& id, const Vars& job_env, Job* job) {
  EXPECT_TRUE(fs::exists(dir + "/action.yml")) << dir;
  if (!fs::exists(dir + "/action.yml")) return 1;
  rapidjson::Document action = ReadYaml(dir + "/action.yml");
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
        env[m.name.GetString()] = given
                                      ? Expand(Text(given), *job)
                                      : Text(json::Resolve(action, "/inputs/" + name + "/default"));
      }
    Vars outputs;
    code = Bash(Text(json::Find(s, "run")), env, ws_, job, &outputs);
    step_outputs[Text(json::Find(s, "id"))] = outputs;
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

}  // namespace fakehost::testing
