// `fakehost fuzz` and `fakehost scenario from-transcript` end to end, through the binary, on the
// fixture plugins: a broken plugin's bug is found, shrunk and written as a scenario that fails
// that plugin and passes the references; the references give no findings; a transcript comes
// back as a scenario the reference passes.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>

#include "harness/protocol/registry.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> Yamls(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".yaml") out.push_back(e.path().string());
  return out;
}

int Replay(const std::string& suite, const std::string& plugin) {
  std::string out = MakeTempDir();
  CommandResult r = RunCommand(
      {FakehostBin(), "run", "--suite", suite, "--plugin", plugin, "--out", out, "--no-color"},
      std::chrono::seconds(60));
  fs::remove_all(out);
  return r.exit_code;
}

// Fuzzes `broken` until its first finding, then checks the written scenario replays it.
void FindsAndReplays(const std::string& protocol, const std::string& broken,
                     const std::string& rule) {
  std::string out = MakeTempDir();
  std::string plugin = FixturesDir() + "/" + protocol + "/broken/" + broken;
  CommandResult r =
      RunCommand({FakehostBin(), "fuzz", "--plugin", plugin, "--budget", "20s", "--max-findings",
                  "1", "--shrink-budget", "15s", "--seed", "1", "--out", out},
                 std::chrono::seconds(55));
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("FOUND " + rule + " [must]"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("sessions/s"), std::string::npos) << r.err;  // the progress line
  std::vector<std::string> files = Yamls(out);
  ASSERT_EQ(files.size(), 1u) << r.out;
  std::string yaml = ReadFile(files[0]);
  EXPECT_NE(yaml.find("tags: [fuzz]"), std::string::npos);
  EXPECT_TRUE(fs::exists(files[0].substr(0, files[0].size() - 5) + ".jsonl"));
  EXPECT_EQ(Replay(out, plugin), 1) << yaml;
  EXPECT_EQ(Replay(out, FixturesDir() + "/" + protocol + "/reference"), 0) << yaml;
  fs::remove_all(out);
}

TEST(Fuzz, FindsARimPluginThatDiesOnABadPayloadAndWritesAScenarioThatReplaysIt) {
  FindsAndReplays("rim-v1", "crash-on-invalid-json", "died");
}

TEST(Fuzz, FindsAFlashPluginThatDiesOnAnOddIdAndWritesAScenarioThatReplaysIt) {
  FindsAndReplays("flash-v1", "crash-on-non-integer-ids", "died");
}

TEST(Fuzz, FindsARimPluginThatChangesTheTypeOfIds) {
  FindsAndReplays("rim-v1", "stringify-ids", "reply-id-type");
}

TEST(Fuzz, FindsAnMcpServerThatDiesOnALineThatIsNotJson) {
  FindsAndReplays("mcp-stdio", "crash-on-bad-json", "died");
}

// A plugin given as a command line: every word after -- is its own, and the directory's
// fakehost.yaml (--config) still gives its triggers.
TEST(Fuzz, TakesThePluginsCommandLineAfterDoubleDash) {
  std::string out = MakeTempDir();
  const std::string reference = FixturesDir() + "/mcp-stdio/reference";
  CommandResult r =
      RunCommand({FakehostBin(), "fuzz", "--protocol", "mcp-stdio", "--config",
                  reference + "/fakehost.yaml", "--budget", "4s", "--seed", "3", "--out", out,
                  "--quiet", "--", "/usr/bin/python3", "-I", reference + "/server", "-y"},
                 std::chrono::seconds(55));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("no findings"), std::string::npos) << r.out;
  CommandResult both = RunCommand({FakehostBin(), "fuzz", "--plugin", reference, "--budget", "1s",
                                   "--out", out, "--", "/bin/true"},
                                  std::chrono::seconds(20));
  EXPECT_EQ(both.exit_code, 2) << both.out << both.err;
  fs::remove_all(out);
}

void NoFindings(const std::string& plugin) {
  std::string out = MakeTempDir();
  CommandResult r = RunCommand({FakehostBin(), "fuzz", "--plugin", plugin, "--budget", "10s",
                                "--seed", "3", "--out", out, "--quiet"},
                               std::chrono::seconds(55));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("no findings"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("schema entries exercised"), std::string::npos) << r.out;
  EXPECT_TRUE(Yamls(out).empty());
  fs::remove_all(out);
}

// Every protocol's reference plugin (fixtures/<p>/reference, for every protocol of the source
// tree: protocol/registry.hpp).
class FuzzReference : public ::testing::TestWithParam<std::string> {};

TEST_P(FuzzReference, GivesNoFindings) {
  NoFindings(FixturesDir() + "/" + GetParam() + "/reference");
}

INSTANTIATE_TEST_SUITE_P(EveryProtocol, FuzzReference,
                         ::testing::ValuesIn(protocol::ProtocolNames(SourceDir())),
                         [](const auto& param) {
                           std::string name = param.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

TEST(Fuzz, AMissingPluginIsBadInput) {
  CommandResult r = RunCommand({FakehostBin(), "fuzz", "--plugin", "/nonexistent/plugin",
                                "--protocol", "rim-v1", "--budget", "1s"},
                               std::chrono::seconds(20));
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

TEST(ScenarioFromTranscript, ARecordedSessionReplaysAgainstTheSamePlugin) {
  std::string dir = MakeTempDir();
  std::string plugin = FixturesDir() + "/rim-v1/reference";
  CommandResult run = RunCommand(
      {FakehostBin(), "run", "--plugin", plugin, "--only", "envelope/one-answer-per-request",
       "--transcripts", dir + "/t", "--out", dir + "/r", "--no-color"},
      std::chrono::seconds(60));
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  std::string transcript = dir + "/t/envelope__one-answer-per-request.jsonl";
  ASSERT_TRUE(fs::exists(transcript));
  fs::create_directories(dir + "/suite");
  CommandResult conv = RunCommand({FakehostBin(), "scenario", "from-transcript", transcript,
                                   "--out", dir + "/suite/replay.yaml"},
                                  std::chrono::seconds(20));
  ASSERT_EQ(conv.exit_code, 0) << conv.err;
  std::string yaml = ReadFile(dir + "/suite/replay.yaml");
  EXPECT_NE(yaml.find("\"reply_to\""), std::string::npos) << yaml;
  EXPECT_EQ(Replay(dir + "/suite", plugin), 0) << yaml;
  // The same steps fail a plugin that echoes integer ids as strings.
  EXPECT_EQ(Replay(dir + "/suite", FixturesDir() + "/rim-v1/broken/stringify-ids"), 1) << yaml;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fakehost::testing
