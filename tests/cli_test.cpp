// The command line's contracts: exit codes, bad input named with file:line:col, the JSON
// report's shape (checked against schema/report.schema.json).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/json/json.hpp"
#include "harness/protocol/registry.hpp"
#include "harness/schema/schema.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;

std::string Reference() { return FixturesDir() + "/rim-v1/reference"; }

CommandResult Fakehost(std::vector<std::string> args) {
  args.insert(args.begin(), FakehostBin());
  return RunCommand(args, std::chrono::seconds(120));
}

void Write(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

TEST(Cli, SelectingNoScenarioIsBadInputNotAPass) {
  CommandResult r = Fakehost({"run", "--protocol", "rim-v1", "--plugin", Reference(), "--only",
                              "no/such/*", "--out", MakeTempDir()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("no scenario selected"), std::string::npos) << r.err;
}

TEST(Cli, AnUnknownProtocolIsBadInput) {
  CommandResult r = Fakehost({"run", "--protocol", "rim-v9", "--plugin", Reference()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown protocol 'rim-v9'"), std::string::npos) << r.err;
}

TEST(Cli, ARevisionTheProfileDoesNotKnowOrAllWithOneReportFileIsBadInput) {
  const std::string mcp = FixturesDir() + "/mcp-stdio/reference";
  CommandResult unknown = Fakehost({"run", "--plugin", mcp, "--revision", "1999-01-01"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("--revision 1999-01-01: the mcp-stdio profile knows 2024-11-05"),
            std::string::npos)
      << unknown.err;
  CommandResult rim = Fakehost({"run", "--plugin", Reference(), "--revision", "all"});
  EXPECT_EQ(rim.exit_code, 2);
  EXPECT_NE(rim.err.find("the rim-v1 profile has no revisions"), std::string::npos) << rim.err;
  CommandResult report = Fakehost({"run", "--plugin", mcp, "--revision", "all", "--report",
                                   "json=" + MakeTempDir() + "/r.json"});
  EXPECT_EQ(report.exit_code, 2);
  EXPECT_NE(report.err.find("one report.json per revision"), std::string::npos) << report.err;
}

TEST(Cli, RevisionAllPlaysTheSuiteOncePerRevisionAndSaysWhichTheServerSpeaks) {
  // The reference speaks every legacy revision: each is judged, its report under OUT/REVISION.
  const std::string out = MakeTempDir();
  CommandResult r = Fakehost({"run", "--plugin", FixturesDir() + "/mcp-stdio/reference",
                              "--revision", "all", "--only", "ping/*", "--out", out});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  for (const char* revision : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
    // The command's own summary line, one per revision (run_command.cpp words it) ...
    EXPECT_NE(r.out.find(std::string("revision ") + revision + ": 2 passed"), std::string::npos)
        << revision << "\n"
        << r.out;
    // ... and the verdict from that revision's JSON report: both pass, judged under it.
    rapidjson::Document report;
    ASSERT_TRUE(json::Parse(ReadFile(out + "/" + revision + "/report.json"), &report).ok)
        << revision << "\n"
        << r.out;
    EXPECT_EQ(report["summary"]["total"].GetInt(), 2) << revision;
    EXPECT_EQ(report["summary"]["passed"].GetInt(), 2) << revision << "\n" << r.out;
    for (const auto& s : report["scenarios"].GetArray())
      EXPECT_STREQ(s["revision"].GetString(), revision) << s["id"].GetString();
  }
}

// The author's baseline where init's workflow keeps it is not read unless given, and the run
// says so (a first run that fails on what the baseline lists would otherwise surprise).
TEST(Cli, ARunSaysWhenItDoesNotReadThePluginsBaseline) {
  const std::string dir = MakeTempDir() + "/plugin";
  fs::copy(FixturesDir() + "/rim-v1/reference", dir, fs::copy_options::recursive);
  fs::create_directories(dir + "/fakehost");
  std::ofstream(dir + "/fakehost/expected-failures.yaml") << "[]\n";
  const std::vector<std::string> run = {"run",   "--plugin",  dir, "--only", "handshake/accepts-*",
                                        "--out", dir + "/out"};
  CommandResult r = Fakehost(run);
  EXPECT_NE(r.err.find("fakehost: not reading " + dir + "/fakehost/expected-failures.yaml"),
            std::string::npos)
      << r.err;
  std::vector<std::string> with = run;
  with.insert(with.end(), {"--expected-failures", dir + "/fakehost/expected-failures.yaml"});
  EXPECT_EQ(Fakehost(with).err.find("not reading"), std::string::npos);
  fs::remove_all(fs::path(dir).parent_path());
}

TEST(Cli, AMissingPluginDirectoryIsBadInput) {
  CommandResult r = Fakehost({"run", "--protocol", "rim-v1", "--plugin", "/no/such/plugin"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/no/such/plugin does not exist"), std::string::npos) << r.err;
}

TEST(Cli, ABadScenarioIsReportedWithFileLineAndColumnAndNothingRuns) {
  std::string suite = MakeTempDir();
  Write(suite + "/bad/unknown-step.yaml",
        "title: t\nspec: s\nrequirement: r\nsteps:\n  - use: handshake\n  - sned: {}\n");
  CommandResult r = Fakehost({"run", "--protocol", "rim-v1", "--plugin", Reference(), "--suite",
                              suite, "--out", suite + "/out"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(suite + "/bad/unknown-step.yaml:6:5"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(suite + "/out/report.json"));
  fs::remove_all(suite);
}

TEST(Cli, AFailingRunExitsOneAndAPassingRunZero) {
  std::string out = MakeTempDir();
  CommandResult pass = Fakehost({"run", "--protocol", "rim-v1", "--plugin", Reference(), "--only",
                                 "heartbeat/*", "--out", out});
  EXPECT_EQ(pass.exit_code, 0) << pass.out << pass.err;
  CommandResult fail = Fakehost({"run", "--protocol", "rim-v1", "--plugin",
                                 FixturesDir() + "/rim-v1/broken/ignore-heartbeat", "--only",
                                 "heartbeat/*", "--out", out});
  EXPECT_EQ(fail.exit_code, 1) << fail.out << fail.err;
  fs::remove_all(out);
}

TEST(Cli, TheJsonReportAndTheTranscriptsMatchTheirSchema) {
  std::string out = MakeTempDir();
  CommandResult r = Fakehost({"run", "--protocol", "rim-v1", "--plugin",
                              FixturesDir() + "/rim-v1/broken/ignore-shutdown", "--out", out,
                              "--transcripts", out + "/transcripts"});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  rapidjson::Document report;
  ASSERT_TRUE(json::Parse(ReadFile(out + "/report.json"), &report).ok);
  std::string error;
  auto s = schema::FrameSchema::Load(SourceDir() + "/schema/report.schema.json", &error);
  ASSERT_TRUE(s) << error;
  std::vector<schema::Violation> v = s->Validate("report", report);
  for (const auto& x : v) ADD_FAILURE() << x.pointer << ": " << x.message;
  std::size_t lines = 0;
  for (const auto& file : fs::directory_iterator(out + "/transcripts")) {
    std::istringstream in(ReadFile(file.path().string()));
    for (std::string line; std::getline(in, line); ++lines) {
      rapidjson::Document entry;
      ASSERT_TRUE(json::Parse(line, &entry).ok) << line;
      for (const auto& x : s->Validate("transcript_line", entry))
        ADD_FAILURE() << file.path() << ": " << x.pointer << ": " << x.message << "\n" << line;
    }
  }
  EXPECT_GT(lines, 100u);
  fs::remove_all(out);
}

TEST(Cli, ListShowsEveryScenarioWithItsSection) {
  CommandResult r = Fakehost({"list", "--protocol", "rim-v1"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("handshake/accepts-offered-version"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("§13"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace fakehost::testing

namespace fakehost::testing {
namespace {

// Issue 3's end-to-end proof: a schema-invalid frame from the plugin fails the scenario at the
// must level, and the report names the frame, the $defs entry and the JSON pointer.
TEST(SchemaValidation, AnInvalidFrameFromThePluginIsNamedByItsPointer) {
  std::string out = MakeTempDir();
  CommandResult r = Fakehost({"run", "--protocol", "rim-v1", "--plugin",
                              FixturesDir() + "/rim-v1/broken/bad-log-level", "--only",
                              "heartbeat/*", "--out", out});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  rapidjson::Document report;
  ASSERT_TRUE(json::Parse(ReadFile(out + "/report.json"), &report).ok);
  // A schema failure at the must level whose frame is the transcript entry checked against
  // rim.log.notification with a violation at /params/level: fields, not the message's words.
  bool named = false;
  for (const auto& s : json::Find(report, "scenarios")->GetArray())
    for (const auto& f : json::Find(s, "failures")->GetArray()) {
      const rapidjson::Value* frame = json::Find(f, "frame");
      if (std::string(json::Find(f, "check")->GetString()) != "schema" ||
          std::string(json::Find(f, "level")->GetString()) != "must" || !frame)
        continue;
      for (const auto& e : json::Find(s, "transcript")->GetArray()) {
        const rapidjson::Value* def = json::Find(e, "schema_def");
        const rapidjson::Value* violations = json::Find(e, "violations");
        if (e["index"].GetUint64() != frame->GetUint64() || !def || !violations) continue;
        for (const auto& v : violations->GetArray())
          if (std::string(def->GetString()) == "rim.log.notification" &&
              std::string(v["pointer"].GetString()) == "/params/level")
            named = true;
      }
    }
  EXPECT_TRUE(named) << r.out;
  fs::remove_all(out);
}

}  // namespace
}  // namespace fakehost::testing

namespace fakehost::testing {
namespace {

TEST(SchemaCheck, CertifiesEveryShippedSchemaAndTheHostFramesItsProfileBuilds) {
  ASSERT_FALSE(protocol::ProtocolNames(SourceDir()).empty());
  for (const std::string& p : protocol::ProtocolNames(SourceDir())) {
    CommandResult r = Fakehost(
        {"schema", "check", SourceDir() + "/schema/" + p + "/plugin-protocol-v1.schema.json"});
    EXPECT_EQ(r.exit_code, 0) << p << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("all hold"), std::string::npos) << r.out;
  }
}

TEST(SchemaCheck, AKeywordValijsonWouldIgnoreIsBadInputWithItsPointer) {
  std::string dir = MakeTempDir();
  Write(dir + "/s.schema.json",
        R"({"$defs": {"x.request": {"type": "object", "unevaluatedProperties": false}}})");
  CommandResult r = Fakehost({"schema", "check", dir + "/s.schema.json"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("/$defs/x.request/unevaluatedProperties"), std::string::npos) << r.err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fakehost::testing

namespace fakehost::testing {
namespace {

// A plugin program that records its working directory and arguments beside itself, then runs
// the MCP reference server: what a plugin was started with, seen from inside the plugin.
std::string RecordingServer(const std::string& dir, const std::string& name) {
  const std::string path = dir + "/" + name;
  Write(path, "#!/bin/sh\npwd > \"$0.cwd\"\nprintf '%s\\n' \"$@\" > \"$0.args\"\nexec " +
                  std::string("/usr/bin/python3 -I ") + FixturesDir() +
                  "/mcp-stdio/reference/server\n");
  fs::permissions(path, fs::perms::owner_all);
  return path;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

const rapidjson::Value* ReportPlugin(const std::string& out, rapidjson::Document* report) {
  if (!json::Parse(ReadFile(out + "/report.json"), report).ok || !report->IsObject())
    return nullptr;
  return json::Find(*report, "plugin");
}

constexpr const char* kOneMcpScenario = "lifecycle/unsupported-version-gets-a-supported-one";

// Every word after `--` is the plugin's, however much it looks like one of fakehost's flags, and
// also after a repeatable flag (`--only`), which once took the `--` as the end of its values.
TEST(Cli, EveryWordAfterDoubleDashReachesThePluginVerbatim) {
  const std::string dir = MakeTempDir();
  const std::string program = RecordingServer(dir, "record-args");
  const std::vector<std::string> words = {"-y", "@scope/server", "--only",    "x",
                                          "--", "--help",        "--version", ""};
  std::vector<std::string> args = {"run",   "--protocol", "mcp-stdio", "--only", kOneMcpScenario,
                                   "--out", dir + "/out", "--",        program};
  args.insert(args.end(), words.begin(), words.end());
  CommandResult r = Fakehost(args);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(Lines(ReadFile(program + ".args")), words);
  rapidjson::Document report;
  const rapidjson::Value* plugin = ReportPlugin(dir + "/out", &report);
  ASSERT_TRUE(plugin) << r.out << r.err;
  const rapidjson::Value* argv = json::Find(*plugin, "argv");
  ASSERT_TRUE(argv && argv->IsArray());
  ASSERT_EQ(argv->Size(), words.size() + 1);
  for (rapidjson::SizeType i = 0; i < words.size(); ++i)
    EXPECT_EQ((*argv)[i + 1].GetString(), words[i]);
  fs::remove_all(dir);
}

// A bare command's plugin id, where the protocol has no manifest: the name the server announced
// in its handshake (serverInfo; not the program's, "weather-server"), unless --plugin-id gives
// one.
TEST(Cli, ABareCommandIsNamedAsItAnnouncedItselfUnlessPluginIdNamesIt) {
  const std::string dir = MakeTempDir();
  const std::string program = RecordingServer(dir, "weather-server");
  for (const auto& [flags, id] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{}, "fakehost-mcp-reference"},
           {{"--plugin-id", "dev.example.weather"}, "dev.example.weather"}}) {
    std::vector<std::string> args = {"run",           "--protocol", "mcp-stdio", "--only",
                                     kOneMcpScenario, "--out",      dir + "/out"};
    args.insert(args.end(), flags.begin(), flags.end());
    args.insert(args.end(), {"--", program});
    CommandResult r = Fakehost(args);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    rapidjson::Document report;
    const rapidjson::Value* plugin = ReportPlugin(dir + "/out", &report);
    ASSERT_TRUE(plugin) << r.out << r.err;
    EXPECT_STREQ(json::Find(*plugin, "id")->GetString(), id.c_str());
  }
  fs::remove_all(dir);
}

// A plugin directory of a protocol without manifests: its fakehost.yaml names the protocol and
// the command, which runs in the directory with the arguments it gives; its plugin_id names it.
TEST(Cli, APluginDirectoryWithoutAManifestRunsItsCommandInTheDirectory) {
  const std::string dir = fs::canonical(MakeTempDir()).string() + "/weather";
  fs::create_directories(dir + "/bin");
  RecordingServer(dir + "/bin", "start");
  Write(dir + "/fakehost.yaml",
        "protocol: mcp-stdio\nplugin_id: weather\ncommand: [bin/start, --stdio, 8080]\n");
  CommandResult r =
      Fakehost({"run", "--plugin", dir, "--only", kOneMcpScenario, "--out", dir + "/out"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(Lines(ReadFile(dir + "/bin/start.args")),
            (std::vector<std::string>{"--stdio", "8080"}));
  EXPECT_EQ(Lines(ReadFile(dir + "/bin/start.cwd")), std::vector<std::string>{dir});
  rapidjson::Document report;
  const rapidjson::Value* plugin = ReportPlugin(dir + "/out", &report);
  ASSERT_TRUE(plugin) << r.out << r.err;
  EXPECT_STREQ(json::Find(*plugin, "id")->GetString(), "weather");
  EXPECT_STREQ(json::Find(*plugin, "dir")->GetString(), dir.c_str());
  fs::remove_all(fs::path(dir).parent_path());
}

// `run -- ARGV` in a directory holding a fakehost.yaml reads it and says so: its protocol (no
// --protocol needed) and its triggers (a scenario that needs one is judged, not untested). In a
// directory without one, the protocol must be given, and the message names the protocols.
TEST(Cli, ACommandAfterDashesReadsTheFakehostYamlOfTheDirectory) {
  const std::string dir = fs::canonical(MakeTempDir()).string();
  const std::string server = FixturesDir() + "/mcp-stdio/reference/server";
  // Needs a trigger fakehost cannot make from the reference's tools (its sleep tool sends
  // progress only when asked in an optional argument).
  const char* scenario = "progress/progress-increases";
  std::string yaml = ReadFile(FixturesDir() + "/mcp-stdio/reference/fakehost.yaml");
  yaml =
      yaml.substr(0, yaml.find("command:")) + yaml.substr(yaml.find('\n', yaml.find("command:")));
  Write(dir + "/fakehost.yaml", yaml);
  auto in_dir = [&](const std::string& words) {
    return RunCommand(
        {"/bin/sh", "-c",
         "cd '" + dir + "' && exec '" + FakehostBin() + "' run --only " + scenario + " --out '" +
             dir + "/out' " + words + " -- /usr/bin/python3 -I '" + server + "'"},
        std::chrono::seconds(120));
  };
  CommandResult r = in_dir("");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("fakehost: reading ./fakehost.yaml for the command after --"),
            std::string::npos)
      << r.err;
  rapidjson::Document report;
  ASSERT_TRUE(json::Parse(ReadFile(dir + "/out/report.json"), &report).ok) << r.out;
  EXPECT_EQ(report["summary"]["total"].GetInt(), 1) << r.out;
  EXPECT_EQ(report["summary"]["passed"].GetInt(), 1) << r.out;
  fs::remove(dir + "/fakehost.yaml");
  CommandResult none = in_dir("");
  EXPECT_EQ(none.exit_code, 2) << none.out << none.err;
  EXPECT_NE(none.err.find("give --protocol (flash-v1, mcp-stdio, rim-v1)"), std::string::npos)
      << none.err;
  CommandResult untested = in_dir("--protocol mcp-stdio");
  EXPECT_NE(untested.out.find("a fakehost.yaml in the plugin's directory (or --config FILE)"),
            std::string::npos)
      << untested.out;
  EXPECT_EQ(untested.out.find("beside the manifest"), std::string::npos) << untested.out;
  fs::remove_all(dir);
}

// Bad input, nothing spawned: a directory whose fakehost.yaml has no command, or a command whose
// program is not there (named with the file it came from).
TEST(Cli, APluginDirectoryWithoutACommandOrWithAMissingProgramIsBadInput) {
  const std::string dir = fs::canonical(MakeTempDir()).string();
  Write(dir + "/fakehost.yaml", "protocol: mcp-stdio\n");
  CommandResult none = Fakehost({"run", "--plugin", dir, "--out", dir + "/out"});
  EXPECT_EQ(none.exit_code, 2) << none.out << none.err;
  EXPECT_NE(none.err.find(dir + "/fakehost.yaml"), std::string::npos) << none.err;
  Write(dir + "/fakehost.yaml", "protocol: mcp-stdio\ncommand: [./no-such-server]\n");
  CommandResult missing = Fakehost({"run", "--plugin", dir, "--out", dir + "/out"});
  EXPECT_EQ(missing.exit_code, 2) << missing.out << missing.err;
  EXPECT_NE(missing.err.find(dir + "/no-such-server"), std::string::npos) << missing.err;
  EXPECT_FALSE(fs::exists(dir + "/out/report.json"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fakehost::testing
