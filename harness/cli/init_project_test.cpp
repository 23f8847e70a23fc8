// init_project.hpp: how `fakehost init` reads package.json and pyproject.toml, and which command
// it takes from a project directory.
#include "harness/cli/init_project.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace fakehost::cli {
namespace {

namespace fs = std::filesystem;

using Words = std::vector<std::string>;

TEST(PackageJson, TakesBinThenMainAndSaysWhatCIMustInstallAndBuild) {
  PackageJson p;
  std::string error;
  ASSERT_TRUE(ParsePackageJson(R"({"name": "@acme/weather", "bin": {"other": "x.js",
      "weather": "./dist/index.js"}, "main": "lib.js", "scripts": {"build": "tsc"},
      "dependencies": {"@modelcontextprotocol/sdk": "^1.0.0"}})",
                               &p, &error))
      << error;
  EXPECT_EQ(p.bin, "dist/index.js") << "the entry named as the unscoped package";
  EXPECT_EQ(p.main, "lib.js");
  EXPECT_TRUE(p.build);
  EXPECT_FALSE(p.start);
  EXPECT_TRUE(p.dependencies);
  EXPECT_TRUE(p.mcp_sdk);

  PackageJson q;
  ASSERT_TRUE(ParsePackageJson(R"({"bin": "server.js", "devDependencies": {"typescript": "5"}})",
                               &q, &error));
  EXPECT_EQ(q.bin, "server.js");
  EXPECT_TRUE(q.dependencies);
  EXPECT_FALSE(q.mcp_sdk);
}

TEST(PackageJson, RefusesAFileOutsideThePackageAndATextThatIsNotAnObject) {
  for (const char* text : {R"({"bin": "../x.js"})", R"({"main": "/usr/bin/env"})",
                           R"({"bin": {"a": 3}})", "[1]", "{"}) {
    PackageJson p;
    std::string error;
    EXPECT_FALSE(ParsePackageJson(text, &p, &error)) << text;
    EXPECT_FALSE(error.empty()) << text;
  }
}

TEST(Pyproject, ReadsNameScriptsAndDependenciesOverSeveralLines) {
  Pyproject p;
  std::string error;
  ASSERT_TRUE(ParsePyproject(R"([build-system]
requires = ["hatchling"]

[project]
name = "tasks-server"  # the distribution
description = """A server.
[project.scripts]
not = "a table: inside a string"
"""
classifiers = [
  "Programming Language :: Python",  # a comment
]
dependencies = [
    "mcp[cli]>=1.2",
    'httpx',
]

[project.scripts]
tasks-server = "tasks_server.main:run"
"other" = 'other:main'

[tool.ruff]
line-length = 100
)",
                             &p, &error))
      << error;
  EXPECT_EQ(p.name, "tasks-server");
  ASSERT_EQ(p.scripts.size(), 2u);
  EXPECT_EQ(p.scripts[0],
            (std::pair<std::string, std::string>{"tasks-server", "tasks_server.main:run"}));
  EXPECT_EQ(p.scripts[1].first, "other");
  EXPECT_EQ(p.dependencies, (Words{"mcp[cli]>=1.2", "httpx"}));
  EXPECT_EQ(p.mcp_sdk, "mcp");
}

TEST(Pyproject, RefusesWhatItDoesNotReadWithTheLine) {
  for (const auto& [text, line] :
       {std::pair{"[project]\nname = \"x\"\nscripts = {a = \"b:c\"}\n", 3},
        std::pair{"[project.scripts]\na = \"m:f\"\nb.c = \"m:f\"\n", 3},
        std::pair{"[project.scripts]\na = \"m\\u0041:f\"\n", 2},
        std::pair{"[project.scripts]\na = \"m:f [extra]\"\n", 2},
        std::pair{"[project]\ndependencies = [1, 2]\n", 2}}) {
    Pyproject p;
    std::string error;
    EXPECT_FALSE(ParsePyproject(text, &p, &error)) << text;
    EXPECT_EQ(error.rfind("pyproject.toml:" + std::to_string(line) + ": ", 0), 0u) << error;
    EXPECT_NE(error.find("after --"), std::string::npos) << error;
  }
}

// Whatever the file holds, the reader answers (no exception, no read past the text).
TEST(Pyproject, ReadsAnyTextWithoutFailingOnIt) {
  for (const char* text :
       {"[", "[]\n", "]", "=", "a = \"unterminated", "[project]\nname = \"\"\"x\n",
        "[project.scripts]\n= \"x\"\n", "[project]\ndependencies = [\n", "[project]\nname = '",
        "[project]\n\"\\\n", "[[project]]\nname = [{a = [\"]\"]}]\n", "x = \"\"\"\n[project]\n"}) {
    Pyproject p;
    std::string error;
    ParsePyproject(text, &p, &error);
  }
}

class ProjectDir : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/fakehost-init-project-XXXXXX";
    ASSERT_TRUE(mkdtemp(tmpl));
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  void Write(const std::string& name, const std::string& text, bool executable = false) {
    fs::create_directories((fs::path(dir_) / name).parent_path());
    std::ofstream(dir_ + "/" + name) << text;
    if (executable)
      fs::permissions(dir_ + "/" + name, fs::perms::owner_exec, fs::perm_options::add);
  }
  ServerProject Detect() {
    ServerProject p;
    std::string why, error;
    EXPECT_TRUE(DetectServerProject(dir_, &p, &why, &error)) << error;
    why_ = why;
    return p;
  }
  std::string dir_, why_;
};

TEST_F(ProjectDir, ANodeServerRunsItsBinWithNodeAfterInstallingAndBuilding) {
  Write("package.json",
        R"({"bin": "dist/index.js", "scripts": {"build": "tsc", "start": "node dist/index.js"},
            "dependencies": {"zod": "3"}})");
  ServerProject p = Detect();
  EXPECT_EQ(p.command, (Words{"node", "dist/index.js"}));
  EXPECT_EQ(p.runtime, Runtime::kNode);
  EXPECT_TRUE(p.npm_install);
  EXPECT_FALSE(p.npm_ci);
  EXPECT_TRUE(p.npm_build);
  EXPECT_EQ(p.first, (Words{"npm install", "npm run build"})) << "nothing installed or built";

  Write("package-lock.json", "{}");
  Write("node_modules/zod/package.json", "{}");
  Write("dist/index.js", "");
  p = Detect();
  EXPECT_TRUE(p.npm_ci);
  EXPECT_FALSE(p.npm_install);
  EXPECT_TRUE(p.first.empty());
}

TEST_F(ProjectDir, ANodeServerWithOnlyAStartScriptRunsItSilently) {
  Write("package.json", R"({"scripts": {"start": "node server.js"}})");
  EXPECT_EQ(Detect().command, (Words{"npm", "start", "--silent"}));
}

TEST_F(ProjectDir, APythonServerRunsItsModuleWithoutInstallingIt) {
  Write("pyproject.toml",
        "[project]\nname = \"tasks\"\n[project.scripts]\ntasks = \"tasks:main\"\n");
  Write("tasks.py", "def main():\n    pass\nif __name__ == \"__main__\":\n    main()\n");
  ServerProject p = Detect();
  EXPECT_EQ(p.command, (Words{"python3", "-m", "tasks"}));
  EXPECT_EQ(p.runtime, Runtime::kPython);
  EXPECT_TRUE(p.env.empty());
  EXPECT_FALSE(p.pip_project) << "no dependencies";
}

TEST_F(ProjectDir, APythonModuleUnderSrcWithoutAMainBlockIsCalledAsItsScriptWould) {
  Write("pyproject.toml",
        "[project]\nname = \"tasks\"\ndependencies = [\"mcp\"]\n"
        "[project.scripts]\ntasks = \"tasks.server:app.run\"\n");
  Write("src/tasks/__init__.py", "");
  Write("src/tasks/server.py", "app = None\n");
  Write("requirements.txt", "mcp\n");
  ServerProject p = Detect();
  EXPECT_EQ(p.command, (Words{"python3", "-c",
                              "import sys; from tasks.server import app; sys.exit(app.run())"}));
  ASSERT_EQ(p.env.size(), 1u);
  EXPECT_EQ(p.env[0], (std::pair<std::string, std::string>{"PYTHONPATH", "src"}));
  EXPECT_TRUE(p.pip_project);
  EXPECT_TRUE(p.pip_requirements);
  EXPECT_EQ(p.mcp_sdk, "pyproject.toml depends on mcp");
}

TEST_F(ProjectDir, APythonScriptWhoseModuleIsElsewhereRunsThroughUvWhenItHasALock) {
  Write("pyproject.toml", "[project]\nname = \"x\"\n[project.scripts]\nx-server = \"xs:main\"\n");
  ServerProject p = Detect();
  EXPECT_TRUE(p.command.empty());
  EXPECT_NE(why_.find("no uv.lock"), std::string::npos) << why_;
  Write("uv.lock", "");
  p = Detect();
  EXPECT_EQ(p.command, (Words{"uv", "run", "x-server"}));
  EXPECT_EQ(p.runtime, Runtime::kUv);
}

TEST_F(ProjectDir, OtherwiseTheOneExecutableFileAndItsShebangsRuntime) {
  Write("README.md", "");
  Write("server.py", "#!/usr/bin/env python3\n", true);
  ServerProject p = Detect();
  EXPECT_EQ(p.command, (Words{"./server.py"}));
  EXPECT_EQ(p.runtime, Runtime::kPython);
  Write("other.sh", "#!/bin/sh\n", true);
  p = Detect();
  EXPECT_TRUE(p.command.empty());
  EXPECT_NE(why_.find("2 executable files (other.sh, server.py)"), std::string::npos) << why_;
  EXPECT_NE(why_.find("no package.json"), std::string::npos) << why_;
}

TEST_F(ProjectDir, AFileThatCannotBeReadAsItMustBeIsAnErrorNamingIt) {
  Write("package.json", "{\"main\": ");
  ServerProject p;
  std::string why, error;
  EXPECT_FALSE(DetectServerProject(dir_, &p, &why, &error));
  EXPECT_NE(error.find(dir_ + "/package.json: "), std::string::npos) << error;
}

TEST_F(ProjectDir, AnMcpSdkAmongTheDependenciesIsTheHintForMcpStdio) {
  EXPECT_EQ(McpServerHint(dir_), "");
  Write("pyproject.toml", "[project]\ndependencies = [\"FastMCP>=2\"]\n");
  EXPECT_EQ(McpServerHint(dir_), "pyproject.toml depends on fastmcp");
  Write("package.json", R"({"devDependencies": {"@modelcontextprotocol/sdk": "1"}})");
  EXPECT_EQ(McpServerHint(dir_), "package.json depends on @modelcontextprotocol/sdk");
}

}  // namespace
}  // namespace fakehost::cli
