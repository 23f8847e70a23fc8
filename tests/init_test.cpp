// `fakehost init`: what it writes loads as what it claims to be (a fakehost.yaml the loader
// accepts, commented-out lines included; a scenario that lints and runs; a workflow that gives
// the composite action only inputs it has), it never overwrites a file unasked, and for an MCP
// server (no manifest) it finds the command from the project's files and prints a next command
// that passes a conforming server as printed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <tuple>

#include "harness/json/json.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/run/plugin_config.hpp"
#include "harness/scenario/yaml_json.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;

struct Protocol {
  std::string name, manifest;
  std::string ignores_stop;  ///< a broken fixture that does not exit when asked
};
const Protocol kProtocols[] = {{"rim-v1", "rim-plugin.json", "broken/ignore-shutdown"},
                               {"flash-v1", "manifest.json", "broken/ignore-eof"}};

CommandResult Fakehost(std::vector<std::string> args) {
  args.insert(args.begin(), FakehostBin());
  return RunCommand(args, std::chrono::seconds(120));
}

// A plugin directory holding only the reference plugin's manifest (enough to detect it by).
std::string PluginWithManifest(const Protocol& p) {
  std::string dir = MakeTempDir() + "/plugin";
  fs::create_directories(dir);
  fs::copy_file(SourceDir() + "/fixtures/" + p.name + "/reference/" + p.manifest,
                dir + "/" + p.manifest);
  return dir;
}

std::unique_ptr<protocol::Profile> LoadProfile(const std::string& name) {
  std::string error;
  auto profile = protocol::Profile::Load(SourceDir() + "/schema/" + name + "/profile.json", &error);
  EXPECT_TRUE(profile) << error;
  return profile;
}

// Parses and checks a fakehost.yaml text as `fakehost run` does; every error in the failure.
bool LoadsAsPluginConfig(const std::string& text, const protocol::Profile& profile,
                         run::PluginConfig* config) {
  std::vector<scenario::LoadError> errors;
  bool ok = run::ParsePluginConfig(text, "fakehost.yaml", config, &errors) &&
            run::CheckPluginConfig(*config, profile, &errors);
  for (const auto& e : errors) ADD_FAILURE() << e.ToString() << "\n" << text;
  return ok;
}

// The file with every commented-out YAML line made live: init writes those as `#` directly
// followed by the line (`#env:`, `#  slow:`); prose is `# ` followed by text.
std::string Uncommented(const std::string& text) {
  std::istringstream in(text);
  std::string out, line;
  while (std::getline(in, line)) {
    bool prose = line.size() >= 3 && line.compare(0, 2, "# ") == 0 && line[2] != ' ';
    if (!line.empty() && line[0] == '#' && !prose && line != "#") line.erase(0, 1);
    out += line + "\n";
  }
  return out;
}

rapidjson::Document Yaml(const std::string& path) {
  rapidjson::Document doc;
  std::vector<scenario::LoadError> errors;
  EXPECT_TRUE(scenario::ParseYamlToJson(ReadFile(path), path, &doc, nullptr, &errors));
  for (const auto& e : errors) ADD_FAILURE() << e.ToString();
  return doc;
}

TEST(Init, WritesAFakehostYamlThatLoadsForTheDetectedProtocol) {
  for (const Protocol& p : kProtocols) {
    std::string dir = PluginWithManifest(p);
    CommandResult r = Fakehost({"init", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("wrote " + dir + "/fakehost.yaml"), std::string::npos) << r.out;
    auto profile = LoadProfile(p.name);
    run::PluginConfig config;
    EXPECT_TRUE(LoadsAsPluginConfig(ReadFile(dir + "/fakehost.yaml"), *profile, &config));
    EXPECT_EQ(config.protocol, p.name);
    EXPECT_TRUE(config.triggers.empty()) << "triggers are examples: they start commented out";
    fs::remove_all(fs::path(dir).parent_path());
  }
}

TEST(Init, EveryCommentedOutLineLoadsOnceUncommentedAndNamesEveryTrigger) {
  for (const Protocol& p : kProtocols) {
    std::string dir = PluginWithManifest(p);
    ASSERT_EQ(Fakehost({"init", dir, "--protocol", p.name}).exit_code, 0);
    auto profile = LoadProfile(p.name);
    run::PluginConfig config;
    std::string text = Uncommented(ReadFile(dir + "/fakehost.yaml"));
    ASSERT_TRUE(LoadsAsPluginConfig(text, *profile, &config)) << p.name;
    EXPECT_EQ(config.env.size(), 1u) << text;
    std::set<std::string> given, known;
    for (const auto& [name, request] : config.triggers) given.insert(name);
    for (const auto& name : profile->trigger_names()) known.insert(name);
    EXPECT_EQ(given, known) << text;
    // Each trigger is the profile's own example, as written there.
    for (const auto& [name, request] : config.triggers) {
      const rapidjson::Value* example = profile->trigger(name)->example;
      ASSERT_TRUE(example);
      EXPECT_TRUE(json::StrictEqual(*request, *example))
          << name << ": " << json::ToCompact(*request) << " vs " << json::ToCompact(*example);
    }
    // host: replies: the profile's stand-in answers, ready to edit.
    EXPECT_FALSE(config.host_replies.empty()) << text;
    for (const auto& [method, reply] : config.host_replies) {
      const protocol::HostAnswer* r = profile->host().Reply(method);
      ASSERT_TRUE(r && !r->stand_in.empty() && r->body) << method;
      EXPECT_TRUE(json::StrictEqual(*json::Find(*reply, "result"), *json::Find(*r->body, "result")))
          << method;
    }
    // config: only where the host passes one (Flash), or the loader would refuse the file.
    EXPECT_EQ(config.config != nullptr, p.name == "flash-v1") << text;
    fs::remove_all(fs::path(dir).parent_path());
  }
}

// The example scenario `use:`s the standard handshake fragment, which a suite of one's own finds
// in the standard suite.
TEST(Init, TheExampleScenarioLintsAndPassesTheReferencePluginAndFailsABrokenOne) {
  for (const Protocol& p : kProtocols) {
    for (const std::string& fixture : {std::string("reference"), p.ignores_stop}) {
      std::string src = FixturesDir() + "/" + p.name + "/" + fixture;
      std::string tmp = MakeTempDir(), dir = tmp + "/plugin";
      fs::copy(src, dir, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
      ASSERT_EQ(Fakehost({"init", dir}).exit_code, 0);
      std::string suite = dir + "/fakehost/scenarios";
      CommandResult lint = Fakehost({"lint", "--protocol", p.name, "--suite", suite});
      EXPECT_EQ(lint.exit_code, 0) << lint.err;
      EXPECT_NE(lint.out.find("stops-when-asked"), std::string::npos) << lint.out;
      CommandResult run = Fakehost({"run", "--plugin", dir, "--suite", suite, "--strict", "--out",
                                    tmp + "/out", "--only", "stops-when-asked"});
      EXPECT_EQ(run.exit_code, fixture == "reference" ? 0 : 1) << p.name << " " << fixture << "\n"
                                                               << run.out << run.err;
      fs::remove_all(tmp);
    }
  }
}

TEST(Init, NeverOverwritesAFileUnlessForcedAndSaysWhichItLeftAlone) {
  std::string dir = PluginWithManifest(kProtocols[0]);
  { std::ofstream(dir + "/fakehost.yaml") << "protocol: rim-v1\n"; }
  CommandResult r = Fakehost({"init", dir});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadFile(dir + "/fakehost.yaml"), "protocol: rim-v1\n");
  EXPECT_NE(r.out.find("left " + dir + "/fakehost.yaml alone"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir + "/fakehost/scenarios/stops-when-asked.yaml"));
  EXPECT_TRUE(fs::exists(dir + "/.github/workflows/fakehost.yml"));

  r = Fakehost({"init", dir});
  EXPECT_EQ(r.out.find("wrote"), std::string::npos) << "a second init writes nothing: " << r.out;

  r = Fakehost({"init", dir, "--force"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(ReadFile(dir + "/fakehost.yaml"), "protocol: rim-v1\n");
  EXPECT_NE(r.out.find("wrote " + dir + "/fakehost.yaml"), std::string::npos) << r.out;
  fs::remove_all(fs::path(dir).parent_path());
}

TEST(Init, ADirectoryWithoutAManifestOrThatDoesNotExistIsBadInput) {
  std::string dir = MakeTempDir();
  CommandResult r = Fakehost({"init", dir});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("manifest"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("give --protocol (flash-v1, mcp-stdio or rim-v1)"), std::string::npos)
      << r.err;
  EXPECT_TRUE(fs::is_empty(dir)) << "nothing written on bad input";

  r = Fakehost({"init", dir + "/missing", "--protocol", "rim-v1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is not a directory"), std::string::npos) << r.err;

  r = Fakehost({"init", dir, "--protocol", "rim-v9"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown protocol 'rim-v9'"), std::string::npos) << r.err;
  fs::remove_all(dir);
}

// The workflow goes to the root of the git checkout (GitHub reads only that .github/), and
// hands the composite action only inputs its action.yml declares.
TEST(Init, TheWorkflowGoesToTheRepositoryRootAndUsesTheActionsOwnInputs) {
  std::string root = MakeTempDir();
  fs::create_directories(root + "/.git");
  std::string dir = root + "/plugins/notes";
  fs::create_directories(dir);
  fs::copy_file(SourceDir() + "/fixtures/flash-v1/reference/manifest.json", dir + "/manifest.json");
  ASSERT_EQ(Fakehost({"init", dir}).exit_code, 0);
  ASSERT_TRUE(fs::exists(root + "/.github/workflows/fakehost.yml"));
  EXPECT_FALSE(fs::exists(dir + "/.github"));

  rapidjson::Document workflow = Yaml(root + "/.github/workflows/fakehost.yml");
  // The workflow copies the installed action (ci/templates/github) to .fakehost-action.
  rapidjson::Document action = Yaml(SourceDir() + "/ci/templates/github/action.yml");
  const rapidjson::Value* steps = json::Resolve(workflow, "/jobs/conformance/steps");
  ASSERT_TRUE(steps && steps->IsArray());
  const rapidjson::Value* with = nullptr;
  for (const auto& step : steps->GetArray()) {
    const rapidjson::Value* uses = json::Find(step, "uses");
    if (uses && std::string(uses->GetString()) == "./.fakehost-action")
      with = json::Find(step, "with");
  }
  ASSERT_TRUE(with && with->IsObject()) << "no step uses the fakehost action";
  for (const auto& m : with->GetObject())
    EXPECT_TRUE(json::Find(action["inputs"], m.name.GetString())) << m.name.GetString();
  EXPECT_EQ(json::ToCompact((*with)["plugin"]), "\"plugins/notes\"");
  EXPECT_EQ(json::ToCompact((*with)["protocol"]), "\"flash-v1\"");
  EXPECT_EQ(json::ToCompact((*with)["strict"]), "true");
  // The plugin's own scenarios with the standard suite, and its baseline when it has one.
  EXPECT_EQ(json::ToCompact((*with)["args"]),
            R"("--suite standard --suite 'plugins/notes/fakehost/scenarios'")");
  EXPECT_EQ(json::ToCompact((*with)["expected-failures"]),
            R"("${{ steps.baseline.outputs.file }}")");
  EXPECT_TRUE(json::Resolve(action, "/outputs/report-dir"));
  fs::remove_all(root);
}

// The fakehost step's `with:` of the workflow written for a plugin at ROOT/name.
rapidjson::Document InitWorkflowFor(const std::string& name, CommandResult* result) {
  std::string root = MakeTempDir();
  fs::create_directories(root + "/.git");
  std::string dir = root + "/" + name;
  fs::create_directories(dir);
  fs::copy_file(SourceDir() + "/fixtures/flash-v1/reference/manifest.json", dir + "/manifest.json");
  *result = Fakehost({"init", dir});
  rapidjson::Document workflow;
  if (fs::exists(root + "/.github/workflows/fakehost.yml"))
    workflow = Yaml(root + "/.github/workflows/fakehost.yml");
  EXPECT_EQ(fs::exists(dir + "/fakehost.yaml"), result->exit_code == 0) << result->err;
  fs::remove_all(root);
  return workflow;
}

// A directory name YAML would read as something else unquoted (a map for ": ", a comment for
// " #", an alias for "*", a flow sequence for "[") is written quoted and reads back as itself.
TEST(Init, APluginDirectoryWithYamlSyntaxInItsNameReadsBackAsThatName) {
  for (std::string name : {"my plugin: v2", "plug #1", "*star", "[a, b]", "say \"hi\" \\ bye",
                           "- dash", "null", "héllo wörld"}) {
    CommandResult r;
    rapidjson::Document workflow = InitWorkflowFor(name, &r);
    ASSERT_EQ(r.exit_code, 0) << name << "\n" << r.err;
    const rapidjson::Value* steps = json::Resolve(workflow, "/jobs/conformance/steps");
    ASSERT_TRUE(steps && steps->IsArray()) << name;
    const rapidjson::Value* plugin = nullptr;
    for (const auto& step : steps->GetArray())
      if (const rapidjson::Value* with = json::Find(step, "with"))
        if (json::Find(*with, "protocol")) plugin = json::Find(*with, "plugin");
    ASSERT_TRUE(plugin && plugin->IsString()) << name;
    EXPECT_EQ(std::string(plugin->GetString()), name);
  }
}

// A line break in the name would write lines of its own into the workflow (`fakehost:` and
// `args:` inputs); "${{" would be evaluated by GitHub. Both are refused before anything is
// written, with the reason.
TEST(Init, APluginDirectoryThatWouldInjectIntoTheWorkflowIsRefused) {
  for (std::string name : {"x\n          fakehost: ./evil\n          args: --pwn", "tab\there",
                           "${{ secrets.GITHUB_TOKEN }}"}) {
    CommandResult r;
    InitWorkflowFor(name, &r);
    EXPECT_EQ(r.exit_code, 2) << name << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find("cannot write the plugin directory"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1)
        << "one line, the name's break escaped: " << r.err;
  }
}

// --dist (FAKEHOST_DIST): the registries by default, else release files at a URL, {version}
// standing for the version; what a shell would read in the install step's word is refused.
TEST(Init, TheWorkflowInstallsFakehostFromTheDistSource) {
  std::string dir = PluginWithManifest(kProtocols[0]);
  ASSERT_EQ(Fakehost({"init", dir}).exit_code, 0);
  EXPECT_NE(
      ReadFile(dir + "/.github/workflows/fakehost.yml").find("\"fakehost@${FAKEHOST_VERSION}\""),
      std::string::npos);
  CommandResult r =
      Fakehost({"init", dir, "--force", "--dist", "https://example.org/fakehost/v{version}/"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  CommandResult version = Fakehost({"--version"});
  const std::string v = version.out.substr(9, version.out.find('\n') - 9);
  EXPECT_NE(
      ReadFile(dir + "/.github/workflows/fakehost.yml")
          .find("\"https://example.org/fakehost/v" + v + "/fakehost-${FAKEHOST_VERSION}.tgz\""),
      std::string::npos)
      << ReadFile(dir + "/.github/workflows/fakehost.yml");
  for (const char* bad : {"https://x/$(id)", "a b", "x\"y", "`id`"}) {
    r = Fakehost({"init", dir, "--force", "--dist", bad});
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.err.find("cannot go into the workflow"), std::string::npos) << r.err;
  }
  fs::remove_all(fs::path(dir).parent_path());
}

// --- MCP servers: no manifest; the project's files say how the server starts --------------------

void Write(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

// `fakehost ARGS...` run in `dir`, as a user there would.
CommandResult FakehostIn(const std::string& dir, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"/bin/sh", "-c", "cd \"$1\" && shift && exec \"$@\"",
                                   "sh",      dir,  FakehostBin()};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunCommand(argv, std::chrono::seconds(120));
}

std::string NextCommand(const std::string& out) {
  auto at = out.find("next: ");
  if (at == std::string::npos) return "";
  return out.substr(at + 6, out.find('\n', at) - at - 6);
}

struct Server {
  const char* name;
  std::string command;  ///< what init says the server starts as
  std::string first;    ///< what the next command does before the run
  std::function<void(const std::string&)> make;
};

const std::string kTasks = "/examples/mcp-stdio/tasks-python/server.py";
const std::string kWeather = "/examples/mcp-stdio/weather-modern-node/server.js";

const Server kServers[] = {
    {"the one executable (examples/mcp-stdio/tasks-python without its fakehost.yaml)",
     "./server.py", "",
     [](const std::string& d) {
       fs::copy(SourceDir() + "/examples/mcp-stdio/tasks-python", d, fs::copy_options::recursive);
       fs::remove(d + "/fakehost.yaml");
     }},
    {"a Node package whose bin is built", "node dist/index.js", "npm run build && ",
     [](const std::string& d) {
       fs::create_directories(d);
       fs::copy_file(SourceDir() + kWeather, d + "/server.js");
       Write(d + "/package.json",
             R"({"name": "weather", "bin": {"weather": "dist/index.js"},
                 "scripts": {"build": "mkdir -p dist && cp server.js dist/index.js"}})");
     }},
    {"a Node package with a start script", "npm start --silent", "",
     [](const std::string& d) {
       fs::create_directories(d);
       fs::copy_file(SourceDir() + kWeather, d + "/server.js");
       Write(d + "/package.json", R"({"name": "weather", "scripts": {"start": "node server.js"}})");
     }},
    {"a Python project", "python3 -m tasks_server", "",
     [](const std::string& d) {
       fs::create_directories(d);
       fs::copy_file(SourceDir() + kTasks, d + "/tasks_server.py");
       Write(d + "/pyproject.toml",
             "[project]\nname = \"tasks\"\n[project.scripts]\ntasks = \"tasks_server:main\"\n");
     }},
};

// The issue's first run: `fakehost init --protocol mcp-stdio .` in the server's directory, then
// the command it prints, typed as printed, passes the suite on a conforming server. One test per
// server: each plays the whole MCP suite.
void InitThenRunAsPrinted(const Server& server) {
  const std::string tmp = MakeTempDir(), dir = tmp + "/server";
  server.make(dir);
  CommandResult init = FakehostIn(dir, {"init", "--protocol", "mcp-stdio", "."});
  ASSERT_EQ(init.exit_code, 0) << server.name << "\n" << init.out << init.err;
  EXPECT_NE(init.out.find("wrote fakehost.yaml"), std::string::npos) << init.out;
  EXPECT_NE(init.out.find("the server starts as: " + server.command + " (from "), std::string::npos)
      << init.out;
  const std::string next = NextCommand(init.out);
  // The run the workflow makes: the plugin's own scenarios too, where init wrote its example.
  const bool own = fs::is_directory(dir + "/fakehost/scenarios");
  EXPECT_EQ(next, server.first + FakehostBin() + " run --plugin . --strict" +
                      (own ? " --suite standard --suite ./fakehost/scenarios" : ""))
      << init.out;
  CommandResult run = RunCommand({"/bin/sh", "-c", "cd \"$1\" && eval \"$2\"", "sh", dir, next},
                                 std::chrono::seconds(110));
  EXPECT_EQ(run.exit_code, 0) << server.name << "\n" << run.out.substr(0, 6000) << run.err;
  // The verdict from the JSON report the run wrote where `run` writes it by default.
  rapidjson::Document report;
  ASSERT_TRUE(json::Parse(ReadFile(dir + "/reports/latest/report.json"), &report).ok)
      << server.name << "\n"
      << run.out.substr(0, 6000);
  EXPECT_GT(report["summary"]["passed"].GetInt(), 0) << run.out.substr(0, 6000);
  EXPECT_EQ(report["summary"]["failed"].GetInt(), 0) << run.out.substr(0, 6000);
  EXPECT_EQ(report["summary"]["warned"].GetInt(), 0) << run.out.substr(0, 6000);
  fs::remove_all(tmp);
}

TEST(InitMcp, TheNextCommandPassesTheOneExecutableAsPrinted) { InitThenRunAsPrinted(kServers[0]); }
TEST(InitMcp, TheNextCommandBuildsAndPassesANodeBinAsPrinted) { InitThenRunAsPrinted(kServers[1]); }
TEST(InitMcp, TheNextCommandPassesANodeStartScriptAsPrinted) { InitThenRunAsPrinted(kServers[2]); }
TEST(InitMcp, TheNextCommandPassesAPythonProjectAsPrinted) { InitThenRunAsPrinted(kServers[3]); }

TEST(InitMcp, ItsFakehostYamlLoadsWithEveryCommentedOutLineAndKeepsTheEnvTheServerNeeds) {
  const std::string tmp = MakeTempDir(), dir = tmp + "/server";
  Write(dir + "/pyproject.toml",
        "[project]\nname = \"t\"\n[project.scripts]\nt = \"t.app:main\"\n");
  Write(dir + "/src/t/__init__.py", "");
  Write(dir + "/src/t/app.py", "def main(): pass\n");
  ASSERT_EQ(Fakehost({"init", dir, "--protocol", "mcp-stdio"}).exit_code, 0);
  auto profile = LoadProfile("mcp-stdio");
  const std::string text = ReadFile(dir + "/fakehost.yaml");
  run::PluginConfig config;
  ASSERT_TRUE(LoadsAsPluginConfig(text, *profile, &config));
  EXPECT_EQ(config.command, (std::vector<std::string>{"python3", "-c",
                                                      "import sys; from t.app import main; "
                                                      "sys.exit(main())"}));
  ASSERT_EQ(config.env.size(), 1u) << text;
  EXPECT_EQ(config.env[0], "PYTHONPATH=src");
  run::PluginConfig live;
  ASSERT_TRUE(LoadsAsPluginConfig(Uncommented(text), *profile, &live));
  EXPECT_TRUE(live.call_all_tools) << "tools: {call: all} is offered, commented out";
  EXPECT_EQ(live.triggers.size(), profile->trigger_names().size());
  fs::remove_all(tmp);
}

TEST(InitMcp, WithoutAProtocolItAsksForTheFlagAndSaysWhenTheDirectoryIsAnMcpServer) {
  for (const auto& [file, text, why] :
       {std::tuple{"package.json", R"({"dependencies": {"@modelcontextprotocol/sdk": "^1.2"}})",
                   "package.json depends on @modelcontextprotocol/sdk"},
        std::tuple{"pyproject.toml", "[project]\ndependencies = [\"mcp>=1.2\"]\n",
                   "pyproject.toml depends on mcp"}}) {
    const std::string dir = MakeTempDir();
    Write(dir + "/" + file, text);
    CommandResult r = Fakehost({"init", dir});
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("give --protocol (flash-v1, mcp-stdio or rim-v1)"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find(std::string(why) + ", so it is an MCP server:\n  " + FakehostBin() +
                         " init --protocol mcp-stdio " + dir + "\n"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(dir + "/fakehost.yaml"));
    fs::remove_all(dir);
  }
}

TEST(InitMcp, AServerItCannotTellHowToStartIsBadInputUnlessItsCommandIsGiven) {
  const std::string dir = MakeTempDir();
  CommandResult r = Fakehost({"init", dir, "--protocol", "mcp-stdio"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("cannot tell how " + dir +
                       " starts its server (no package.json; no "
                       "pyproject.toml; no executable file): give its command after --"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(fs::is_empty(dir)) << "nothing written on bad input";

  r = Fakehost({"init", dir, "--protocol", "mcp-stdio", "--", "node", "my server.js", "--stdio"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("the server starts as: node 'my server.js' --stdio"), std::string::npos)
      << r.out;
  run::PluginConfig config;
  ASSERT_TRUE(
      LoadsAsPluginConfig(ReadFile(dir + "/fakehost.yaml"), *LoadProfile("mcp-stdio"), &config));
  EXPECT_EQ(config.command, (std::vector<std::string>{"node", "my server.js", "--stdio"}));

  // A plugin with a manifest is started as its manifest says.
  r = Fakehost({"init", PluginWithManifest(kProtocols[0]), "--", "node", "x.js"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("give no command after --"), std::string::npos) << r.err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fakehost::testing
