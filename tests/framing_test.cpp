// A third framing, end to end: the lsp-test protocol of tests/framing_lsp (JSON-RPC in
// Content-Length frames, as the Language Server Protocol frames it) is a profile, a frame
// schema and a small suite, laid out as a data directory, played by the fakehost binary
// against a Python plugin. Nothing of the engine names it: its framing is the one class
// harness/wire/content_length.cpp registers, so a protocol with a new framing is data plus
// that class. The plugin breaks its framing on request (LSP_FAULT), and each break fails.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "harness/json/json.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;

struct LspRun {
  CommandResult command;
  std::map<std::string, std::string> status;  ///< scenario id -> status
  std::vector<std::string> failures;          ///< "<scenario>: <check>: <reason>", typed
  std::vector<std::string> messages;          ///< their messages, for a failing test's output
};

// `fakehost run` of the lsp-test protocol's standard suite on its plugin, with `env` for it.
LspRun PlayLsp(const std::vector<std::string>& env) {
  const std::string root = SourceDir() + "/tests/framing_lsp";
  const std::string out = MakeTempDir();
  std::vector<std::string> argv = {FakehostBin(), "run",
                                   "--protocol",  root + "/schema/lsp-test/profile.json",
                                   "--plugin",    root + "/plugin",
                                   "--out",       out,
                                   "--no-color"};
  for (const std::string& e : env) argv.insert(argv.end(), {"--env", e});
  LspRun run;
  run.command = RunCommand(argv, std::chrono::seconds(60));
  rapidjson::Document report;
  if (json::Parse(ReadFile(out + "/report.json"), &report).ok && report.IsObject())
    for (const auto& s : json::Find(report, "scenarios")->GetArray()) {
      const std::string id = json::Find(s, "id")->GetString();
      run.status[id] = json::Find(s, "status")->GetString();
      for (const auto& f : json::Find(s, "failures")->GetArray()) {
        const std::string check = json::Find(f, "check")->GetString();
        run.failures.push_back(id + ": " + check + ": " + json::Find(f, "reason")->GetString());
        run.messages.push_back(id + ": " + check + ": " + json::Find(f, "message")->GetString());
      }
    }
  fs::remove_all(out);
  return run;
}

std::string Lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

TEST(ContentLengthFraming, TheLspTestPluginPassesItsSuite) {
  LspRun run = PlayLsp({});
  EXPECT_FALSE(run.command.timed_out);
  EXPECT_EQ(run.command.exit_code, 0) << run.command.out << run.command.err;
  const std::map<std::string, std::string> expected = {
      {"manifest/loads-in-host", "pass"},
      {"exchange/echoes-text", "pass"},
      {"exchange/reads-a-frame-written-in-pieces", "pass"},
      {"shutdown/exits-on-exit", "pass"}};
  EXPECT_EQ(run.status, expected) << Lines(run.messages) << run.command.out;
}

// One byte short: the host reads the answer without its closing brace (not JSON), and the
// next header starts with that brace, which no header line may.
TEST(ContentLengthFraming, AContentLengthOneByteShortFailsEveryScenarioThatWaitsForAnAnswer) {
  LspRun run = PlayLsp({"LSP_FAULT=short-length"});
  EXPECT_FALSE(run.command.timed_out);
  EXPECT_EQ(run.command.exit_code, 1) << run.command.out << run.command.err;
  for (const char* id : {"exchange/echoes-text", "exchange/reads-a-frame-written-in-pieces",
                         "shutdown/exits-on-exit"})
    EXPECT_EQ(run.status[id], "fail") << id << "\n" << Lines(run.messages);
  const std::string failures = Lines(run.failures);
  EXPECT_NE(failures.find("exchange/echoes-text: not-json: not-a-message\n"), std::string::npos)
      << failures << Lines(run.messages);
}

// A line printed to stdout where a header belongs: the host cannot read the frame's header,
// says so in the profile's words for the framing's own check, and the connection is over.
TEST(ContentLengthFraming, StrayTextOnStdoutLosesTheConnection) {
  LspRun run = PlayLsp({"LSP_FAULT=stray-text"});
  EXPECT_FALSE(run.command.timed_out);
  EXPECT_EQ(run.command.exit_code, 1) << run.command.out << run.command.err;
  EXPECT_EQ(run.status["exchange/echoes-text"], "fail") << Lines(run.messages);
  const std::string failures = Lines(run.failures);
  EXPECT_NE(failures.find("exchange/echoes-text: framing: framing-lost\n"), std::string::npos)
      << failures << Lines(run.messages);
}

}  // namespace
}  // namespace fakehost::testing
