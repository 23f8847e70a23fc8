// Hostile input files and flags through the fakehost binary: exit 2 with file:line:col, within
// the command's deadline, never a hang or an internal error (exit 3).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "harness/json/json.hpp"
#include "harness/protocol/registry.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;

CommandResult Fakehost(std::vector<std::string> args) {
  args.insert(args.begin(), FakehostBin());
  return RunCommand(args, std::chrono::seconds(60));
}

// A suite holding one scenario file with `bytes`; returns the suite's directory.
std::string SuiteWith(const std::string& name, const std::string& bytes) {
  const std::string suite = MakeTempDir();
  std::ofstream(suite + "/" + name, std::ios::binary) << bytes;
  return suite;
}

TEST(CliInput, AOneByteCommaScenarioIsBadInputWithItsPlace) {
  const std::string suite = SuiteWith("comma.yaml", ",");
  CommandResult r = Fakehost({"lint", "--protocol", "rim-v1", "--suite", suite});
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find(suite + "/comma.yaml:1:1: YAML syntax"), std::string::npos)
      << r.out << r.err;
  fs::remove_all(suite);
}

TEST(CliInput, ARequiresMapIsBadInputNotAnInternalError) {
  const std::string suite = SuiteWith(
      "req.yaml", "title: t\nspec: s\nrequirement: r\nrequires: {a: /b}\nsteps: [sleep: 1ms]\n");
  CommandResult r = Fakehost({"lint", "--protocol", "flash-v1", "--suite", suite});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find(suite + "/req.yaml:4:11: requires must be a list"),
            std::string::npos)
      << r.out << r.err;
  fs::remove_all(suite);
}

TEST(CliInput, TheTimeoutFlagSpeaksTheScenarioDurationGrammar) {
  // 1e3ms is no duration in a scenario, so it is none on the command line either; the message is
  // the loader's, bound included.
  CommandResult r = Fakehost({"run", "--protocol", "rim-v1", "--plugin",
                              FixturesDir() + "/rim-v1/reference", "--timeout", "1e3ms"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("fakehost: --timeout: bad duration '1e3ms' (unknown unit): a duration is a "
                       "non-negative decimal number and a unit (ms, s, m or h)"),
            std::string::npos)
      << r.err;
  r = Fakehost({"run", "--protocol", "rim-v1", "--plugin", FixturesDir() + "/rim-v1/reference",
                "--timeout", "100000h"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("bad duration '100000h' (longer than 1h)"), std::string::npos) << r.err;
}

// Flags: a mistake is exit 2 and says what was meant, before anything runs.
TEST(CliInput, AnEnvWithoutAnEqualsSignIsBadInput) {
  CommandResult r = Fakehost({"run", "--protocol", "rim-v1", "--env", "FOO", "--", "/bin/true"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--env takes KEY=VALUE, got 'FOO'"), std::string::npos) << r.err;
}

TEST(CliInput, AMistypedFlagSuggestsTheNearestOne) {
  CommandResult r = Fakehost({"run", "--protocl", "rim-v1", "--", "/bin/true"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("did you mean --protocol?"), std::string::npos) << r.err;
}

TEST(CliInput, AnUnknownProtocolListsTheKnownOnes) {
  CommandResult r = Fakehost({"list", "--protocol", "rim-v2"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  std::string known;
  for (const std::string& name : protocol::ProtocolNames(SourceDir()))
    known += (known.empty() ? "" : ", ") + name;
  ASSERT_FALSE(known.empty());
  EXPECT_NE(r.err.find("unknown protocol 'rim-v2' (known: " + known + ")"), std::string::npos)
      << r.err;
}

// Issue 20, item 3: a report sent to a stream is written into it, never replaced by a regular
// file (as root, /dev/null was), and a symbolic link to a report stays a link.
TEST(CliInput, ReportsToDevicesAreWrittenInPlaceAndLinksStayLinks) {
  const std::string out = MakeTempDir();
  fs::create_symlink("real.xml", out + "/link.xml");
  CommandResult r = Fakehost(
      {"run", "--protocol", "rim-v1", "--plugin", FixturesDir() + "/rim-v1/reference", "--only",
       "handshake/accepts-offered-version", "--out", out, "--report", "json=/dev/null", "--report",
       "markdown=/dev/stdout", "--report", "junit=" + out + "/link.xml", "--no-color"});
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  EXPECT_TRUE(fs::is_symlink(out + "/link.xml"));
  EXPECT_TRUE(fs::is_regular_file(out + "/real.xml"));
  EXPECT_NE(r.out.find("## fakehost · "), std::string::npos) << r.out;  // the summary, on stdout
  fs::remove_all(out);
}

// Issue 20, item 3: a destination the final write could not use is exit 2 before anything runs,
// naming the flag, the path and the reason. Once, each of these passed the check, the whole suite
// ran and the write failed at its end: exit 3. The plugin here is a shell that leaves a mark when
// it is spawned, so "before anything runs" is seen, not assumed.
CommandResult RunWithReport(const std::string& out, const std::string& report) {
  return Fakehost({"run", "--protocol", "rim-v1", "--out", out, "--report", report, "--only",
                   "handshake/accepts-offered-version", "--no-color", "--", "/bin/sh", "-c",
                   "touch " + out + "/spawned"});
}

void ExpectRefusedBeforeAnythingRan(const CommandResult& r, const std::string& out,
                                    const std::string& says) {
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out + "/spawned")) << "a plugin was spawned";
  EXPECT_FALSE(fs::exists(out + "/report.json")) << "a run was reported";
}

TEST(CliInput, ADeviceThatIsNotAStreamIsRefusedBeforeAnyScenarioRuns) {
  const std::string out = MakeTempDir();
  ExpectRefusedBeforeAnythingRan(
      RunWithReport(out, "junit=/dev/full"), out,
      "fakehost: --report junit=/dev/full: cannot write /dev/full: it is a device, not a file, a "
      "terminal, the standard output or error, or /dev/null\n");
  EXPECT_TRUE(fs::is_character_file("/dev/full"));
  fs::remove_all(out);
}

TEST(CliInput, AFifoNobodyReadsIsRefusedBeforeAnyScenarioRuns) {
  const std::string out = MakeTempDir(), fifo = out + "/report.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ExpectRefusedBeforeAnythingRan(RunWithReport(out, "json=" + fifo), out,
                                 "fakehost: --report json=" + fifo + ": cannot write " + fifo +
                                     ": nobody reads the FIFO; start its reader first\n");
  EXPECT_TRUE(fs::is_fifo(fifo));
  fs::remove_all(out);
}

TEST(CliInput, ADirectoryThatTakesNoNewFileIsRefusedBeforeAnyScenarioRunsEvenForRoot) {
  // access(2) says yes to root on /sys; creating a file there is refused to root too.
  const std::string path = "/sys/fakehost-cli-input-test.json";
  if (::geteuid() != 0 || !fs::is_directory("/sys"))
    GTEST_SKIP() << "needs root and /sys (the read-only directory case is destination_test's)";
  if (int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600); fd >= 0) {
    ::close(fd);
    ::unlink(path.c_str());
    GTEST_SKIP() << "root can create files in /sys here";
  }
  const std::string out = MakeTempDir();
  ExpectRefusedBeforeAnythingRan(RunWithReport(out, "json=" + path), out,
                                 "fakehost: --report json=" + path + ": cannot write " + path +
                                     ": cannot create a file in /sys: ");
  fs::remove_all(out);
}

TEST(CliInput, AFifoWithAReaderGetsTheJsonReport) {
  const std::string out = MakeTempDir(), fifo = out + "/report.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // The reader is there before fakehost starts (as `jq < FIFO &` would be), and reads until the
  // writer's end; close-on-exec, so fakehost is not a reader of its own FIFO.
  const int fd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  std::string got;
  bool ended = false;
  std::thread reader([&] {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(90);
    char buf[65536];
    while (!ended && std::chrono::steady_clock::now() < until) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 500) <= 0) continue;
      ssize_t n = ::read(fd, buf, sizeof buf);
      if (n > 0) got.append(buf, static_cast<std::size_t>(n));
      ended = n == 0;
    }
  });
  CommandResult r =
      Fakehost({"run", "--protocol", "rim-v1", "--plugin", FixturesDir() + "/rim-v1/reference",
                "--only", "handshake/accepts-offered-version", "--out", out, "--report",
                "json=" + fifo, "--no-color"});
  reader.join();
  ::close(fd);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(ended) << "fakehost closed the FIFO after writing";
  EXPECT_NE(got.find("\"handshake/accepts-offered-version\""), std::string::npos) << got;
  EXPECT_EQ(got, ReadFile(out + "/report.json"));  // the same report as the file's
  EXPECT_TRUE(fs::is_fifo(fifo));
  fs::remove_all(out);
}

// Issue 20, item 4: the two scenarios, generated here, are exit 2 at their place.
TEST(CliInput, AScenarioThatExpandsPastTheCapIsBadInputAtItsPlace) {
  std::string uses;
  for (int i = 0; i < 100000; ++i) uses += "${big}";
  const std::string head =
      "title: t\nspec: s\nrequirement: r\nvars:\n  big: " + std::string(400 * 1024, 'x') +
      "\nsteps:\n";
  const std::string suite =
      SuiteWith("splice.yaml", head + "  - send: {method: m, params: {a: \"" + uses + "\"}}\n");
  std::string copies = "  - send: {method: m, params: [\"${big}\"";  // under the 1 MiB file cap
  for (int i = 1; i < 60000; ++i) copies += ",\"${big}\"";
  copies += "]}\n";
  std::ofstream(suite + "/copies.yaml", std::ios::binary) << head + copies;
  CommandResult r = Fakehost({"lint", "--protocol", "rim-v1", "--suite", suite});
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 2) << r.err.substr(0, 2000);
  EXPECT_NE(r.err.find(suite + "/splice.yaml:7:"), std::string::npos) << r.err.substr(0, 2000);
  EXPECT_NE(r.err.find(suite + "/copies.yaml:7:"), std::string::npos) << r.err.substr(0, 2000);
  EXPECT_NE(r.err.find("past 16777216 bytes (the expansion cap)"), std::string::npos)
      << r.err.substr(0, 2000);
  fs::remove_all(suite);
}

// Every input file is read one way (json::ReadFileCapped, or CheckInputFile for a stream): a
// device, a FIFO or a file over its kind's cap is bad input (exit 2) before anything is read, for
// every command that takes one; none hangs and none runs out of memory.
TEST(CliInput, InputFilesThatAreNotRegularOrTooLargeAreBadInputForEveryCommand) {
  const std::string dir = MakeTempDir(), fifo = dir + "/p.json", list = dir + "/corpus.txt";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Sparse: 3 GiB that take no disk.
  auto sparse = [](const std::string& path) {
    std::ofstream created(path);
    return ::truncate(path.c_str(), 3LL << 30) == 0;
  };
  ASSERT_TRUE(sparse(list));
  const std::string suite = SuiteWith("ok", "title: x\n");
  ASSERT_TRUE(sparse(suite + "/huge.yaml"));
  const std::string plugin = FixturesDir() + "/rim-v1/reference";
  // A profile whose frame schema is /dev/zero (its other files beside it, as a copied profile).
  const std::string zero_schema = dir + "/profile.json";
  {
    std::string profile = ReadFile(SourceDir() + "/schema/rim-v1/profile.json");
    const std::string member = "\"schema\": \"plugin-protocol-v1.schema.json\"";
    ASSERT_NE(profile.find(member), std::string::npos);
    profile.replace(profile.find(member), member.size(), "\"schema\": \"/dev/zero\"");
    std::ofstream(zero_schema) << profile;
    fs::copy_file(SourceDir() + "/schema/rim-v1/manifest.schema.json",
                  dir + "/manifest.schema.json");
  }
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"run", "--protocol", "/dev/zero", "--plugin", plugin}, "/dev/zero: not a regular file"},
      {{"run", "--protocol", fifo, "--plugin", plugin}, fifo + ": not a regular file"},
      {{"list", "--protocol", "/dev/zero"}, "/dev/zero: not a regular file"},
      {{"lint", "--protocol", fifo}, fifo + ": not a regular file"},
      {{"run", "--protocol", zero_schema, "--plugin", plugin}, "/dev/zero: not a regular file"},
      {{"certify", "--schema", "/dev/zero", plugin}, "/dev/zero: not a regular file"},
      {{"validate", "--schema", fifo, "x.jsonl"}, fifo + ": not a regular file"},
      {{"certify", list}, "3221225472 bytes, more than the 1048576-byte limit"},
      {{"run", "--protocol", "rim-v1", "--suite", suite, "--plugin", plugin},
       "huge.yaml: 3221225472 bytes, more than the 1048576-byte limit"},
  };
  for (const auto& [args, says] : cases) {
    CommandResult r = Fakehost(args);
    EXPECT_FALSE(r.timed_out) << args[0] << " " << args[1] << " " << args[2];
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
  }
  fs::remove_all(dir);
  fs::remove_all(suite);
}

// A plugin directory is a path like any other: one whose name holds bytes that are not UTF-8
// (a Latin-1 name) is run, not refused as being outside itself.
TEST(CliInput, APluginDirectoryWhoseNameIsNotUtf8IsRunLikeAnyOther) {
  const std::string dir = MakeTempDir(), plugin = dir + "/plug\xff\xfein";
  fs::copy(FixturesDir() + "/rim-v1/reference", plugin, fs::copy_options::recursive);
  CommandResult r = Fakehost(
      {"run", "--plugin", plugin, "--only", "handshake/*", "--out", dir + "/out", "--no-color"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // Its verdict from the JSON report: played, and passing.
  rapidjson::Document report;
  ASSERT_TRUE(json::Parse(ReadFile(dir + "/out/report.json"), &report).ok) << r.out << r.err;
  EXPECT_GT(report["summary"]["passed"].GetInt(), 0) << r.out;
  EXPECT_EQ(report["summary"]["failed"].GetInt(), 0) << r.out;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fakehost::testing
