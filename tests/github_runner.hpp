// A GitHub Actions job played on this machine the way GitHub's runner plays it, for the
// workflows `fakehost init` writes (tests/init_workflow_test.cpp).
//
// Each `run:` is written to a file and run by `bash --noprofile --norc -eo pipefail` in the
// workspace (or its `working-directory:`), with the job's and the step's `env:`, CI=true,
// GITHUB_ACTIONS=true, RUNNER_TEMP, and GITHUB_OUTPUT, GITHUB_PATH and GITHUB_STEP_SUMMARY files;
// a line a step appends to GITHUB_PATH is put in front of PATH for the steps after it. A local
// action (`uses: ./X`) is read from the workspace and its composite steps run with their env
// mapped from `with:` (else the input's default). `${{ steps.ID.outputs.NAME }}` is expanded;
// any other expression is a test failure. `if: always()` steps run after a failure.
//
// Only what cannot run here is simulated: actions/checkout (the workspace is the repository),
// actions/setup-node (Node.js is on PATH already), actions/setup-python (a virtual environment
// of the machine's python3, its bin/ put in front of PATH, as setup-python puts its Python) and
// actions/upload-artifact (the path is recorded). Any other action fails the step. No step
// reaches a registry: npm runs offline and pip with no index, so the workflow's packages must
// come from where its install step says (a directory of release files, here).
#pragma once

#include <map>
#include <string>
#include <vector>

#include <rapidjson/document.h>

namespace fakehost::testing {

using Vars = std::map<std::string, std::string>;

struct Job {
  int exit_code = 0;                    ///< the first failing step's exit code, 0 when none failed
  std::string log;                      ///< every step's stdout and stderr
  std::string summary;                  ///< what the steps appended to $GITHUB_STEP_SUMMARY
  std::vector<std::string> uploaded;    ///< paths given to actions/upload-artifact
  std::vector<std::string> actions;     ///< every `uses:`, in order
  std::map<std::string, Vars> outputs;  ///< by step id
};

class GithubRunner {
 public:
  /// `workspace`: the repository; `tmp`: the runner's own files (RUNNER_TEMP is tmp/runner).
  GithubRunner(std::string workspace, std::string tmp);

  /// Plays `job` (a `jobs:` entry as JSON) to its end.
  Job RunJob(const rapidjson::Value& job);

  /// RUNNER_TEMP.
  const std::string& runner_temp() const { return runner_temp_; }

 private:
  std::string Expand(const std::string& text, const Job& job);
  int Bash(const std::string& script, const Vars& env, const std::string& dir, Job* job,
           Vars* outputs);
  int RunStep(const rapidjson::Value& step, const Vars& job_env, Job* job);
  int RunLocalAction(const std::string& dir, const rapidjson::Value* with, const std::string& id,
                     const Vars& job_env, Job* job);

  std::string ws_, tmp_, runner_temp_;
  std::vector<std::string> path_;  ///< GITHUB_PATH entries and setup-python's, newest first
  int scripts_ = 0;
};

/// A YAML file as JSON (a test failure when it does not parse).
rapidjson::Document ReadYaml(const std::string& path);

/// A YAML value as GitHub hands it to an action: strings as they are, `true` as "true".
std::string Text(const rapidjson::Value* v);

}  // namespace fakehost::testing
