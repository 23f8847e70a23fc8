// The harness against plugins that misbehave at the process level: it always finishes within
// its limits, writes its report, names the problem, and leaves no process behind.
#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "harness/json/json.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;

std::string Hostile(const std::string& name) { return FixturesDir() + "/rim-v1/hostile/" + name; }

struct HostileRun {
  CommandResult command;
  rapidjson::Document report;
  bool has_report = false;
};

HostileRun RunHostile(const std::string& name, std::vector<std::string> only) {
  HostileRun r;
  std::string out = MakeTempDir();
  std::vector<std::string> argv = {FakehostBin(), "run",         "--protocol", "rim-v1",
                                   "--plugin",    Hostile(name), "--out",      out,
                                   "--jobs",      "2",           "--no-color"};
  for (const auto& o : only) {
    argv.push_back("--only");
    argv.push_back(o);
  }
  r.command = RunCommand(argv, std::chrono::seconds(90));
  r.has_report = json::Parse(ReadFile(out + "/report.json"), &r.report).ok;
  fs::remove_all(out);
  return r;
}

// A marker of this test run, put in the plugin's environment with --env, so that every
// descendant that keeps its environment can be found in /proc, whichever group it is in.
std::string RunMarker() {
  return "FAKEHOST_TEST_RUN=" + std::to_string(::getpid()) + "." +
         std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
}

struct ProcEntry {
  pid_t pid;
  char state;
  pid_t ppid;
};

std::vector<ProcEntry> AllProcesses() {
  std::vector<ProcEntry> found;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string stat = ReadFile(entry.path().string() + "/stat");
    auto paren = stat.rfind(')');
    if (paren == std::string::npos || paren + 4 >= stat.size()) continue;
    found.push_back({static_cast<pid_t>(std::stol(name)), stat[paren + 2],
                     static_cast<pid_t>(std::stol(stat.substr(paren + 4)))});
  }
  return found;
}

std::vector<pid_t> Marked(const std::string& marker) {
  std::vector<pid_t> found;
  for (const ProcEntry& p : AllProcesses()) {
    std::string env = ReadFile("/proc/" + std::to_string(p.pid) + "/environ");
    if (p.state != 'Z' && ('\0' + env + '\0').find('\0' + marker + '\0') != std::string::npos)
      found.push_back(p.pid);
  }
  return found;
}

// "check reason" for each failure of the run's first scenario, as the JSON report types them.
std::vector<std::string> Reasons(const HostileRun& r) {
  std::vector<std::string> out;
  const rapidjson::Value* scenarios = r.has_report ? json::Find(r.report, "scenarios") : nullptr;
  if (!scenarios || !scenarios->IsArray() || scenarios->Empty()) return out;
  for (const auto& f : json::Find((*scenarios)[0], "failures")->GetArray())
    out.push_back(std::string(json::Find(f, "check")->GetString()) + " " +
                  json::Find(f, "reason")->GetString());
  return out;
}

const rapidjson::Value& FirstScenario(const HostileRun& r) {
  return json::Find(r.report, "scenarios")->GetArray()[0];
}

std::string Dump(const HostileRun& r) {
  return "exit " + std::to_string(r.command.exit_code) + " after " +
         std::to_string(static_cast<int>(r.command.ms)) + " ms\n" + r.command.out + r.command.err;
}

// Processes still alive (or zombies) whose command line or name mentions `needle`.
std::vector<std::string> Leftovers(const std::string& dir, const std::string& comm) {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    std::string pid = entry.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = ReadFile(entry.path().string() + "/cmdline");
    std::string stat = ReadFile(entry.path().string() + "/stat");
    bool zombie = stat.find(") Z ") != std::string::npos;
    bool named = stat.find("(" + comm.substr(0, 15) + ")") != std::string::npos;
    // A zombie has no command line left, only its name; a live process is known by its path.
    if (cmdline.find(dir) != std::string::npos || (zombie && named))
      found.push_back(pid + (zombie ? " (zombie)" : "") + ": " + stat.substr(0, 80));
  }
  return found;
}

TEST(Reliability, AGrandchildThatIgnoresSigtermAndHoldsThePipesIsKilledAndNothingIsLeft) {
  HostileRun r = RunHostile("grandchild-holds-pipes",
                            {"handshake/accepts-offered-version", "shutdown/exits-promptly"});
  ASSERT_FALSE(r.command.timed_out) << Dump(r);
  EXPECT_EQ(r.command.exit_code, 1) << Dump(r);
  EXPECT_TRUE(r.has_report) << Dump(r);
  EXPECT_LT(r.command.ms, 60000) << Dump(r);
  EXPECT_EQ(Leftovers(Hostile("grandchild-holds-pipes"), "grandchild-holds-pipes"),
            std::vector<std::string>{});
}

TEST(Reliability, APluginThatNeverReadsOrWritesFailsTheHandshakeWithinItsDeadline) {
  HostileRun r = RunHostile("silent", {"handshake/accepts-offered-version"});
  ASSERT_FALSE(r.command.timed_out) << Dump(r);
  EXPECT_EQ(r.command.exit_code, 1) << Dump(r);
  ASSERT_TRUE(r.has_report) << Dump(r);
  EXPECT_EQ(Reasons(r), std::vector<std::string>{"step deadline-passed"}) << Dump(r);
  // The wait lasted the handshake's deadline (10 s, RIM §7).
  EXPECT_GE(json::Find(FirstScenario(r), "duration_ms")->GetDouble(), 10000) << Dump(r);
  EXPECT_EQ(Leftovers(Hostile("silent"), "silent"), std::vector<std::string>{});
}

TEST(Reliability, AHundredMegabyteStderrFloodIsCountedNotKept) {
  HostileRun r = RunHostile("stderr-flood", {"handshake/accepts-offered-version"});
  ASSERT_FALSE(r.command.timed_out) << Dump(r);
  ASSERT_TRUE(r.has_report) << Dump(r);
  const auto& s = json::Find(r.report, "scenarios")->GetArray()[0];
  EXPECT_GT(json::Find(s, "stderr_bytes_dropped")->GetUint64(), 50'000'000u) << Dump(r);
}

TEST(Reliability, APluginThatExitsAtOnceFailsSayingSo) {
  HostileRun r = RunHostile("exits-at-once", {"handshake/accepts-offered-version"});
  ASSERT_FALSE(r.command.timed_out) << Dump(r);
  EXPECT_EQ(r.command.exit_code, 1) << Dump(r);
  ASSERT_TRUE(r.has_report) << Dump(r);
  const rapidjson::Value* code = json::Resolve(FirstScenario(r), "/exit/code");
  ASSERT_TRUE(code && code->IsInt()) << Dump(r);
  EXPECT_EQ(code->GetInt(), 3);
  // Whether the session sees the exit or the end of stdout first is a race: either says so.
  std::vector<std::string> reasons = Reasons(r);
  ASSERT_FALSE(reasons.empty()) << Dump(r);
  EXPECT_TRUE(reasons[0] == "step plugin-exited" || reasons[0] == "step stdout-closed")
      << reasons[0];
}

TEST(Reliability, AStdoutFloodEndsTheConnectionAndTheRunFinishes) {
  HostileRun r = RunHostile("stdout-flood", {"handshake/accepts-offered-version"});
  ASSERT_FALSE(r.command.timed_out) << Dump(r);
  EXPECT_EQ(r.command.exit_code, 1) << Dump(r);
  EXPECT_EQ(Leftovers(Hostile("stdout-flood"), "stdout-flood"), std::vector<std::string>{});
}

TEST(Reliability, DyingInTheMiddleOfAFrameIsReportedAsATruncatedFrame) {
  HostileRun r = RunHostile("dies-mid-frame", {"handshake/accepts-offered-version"});
  ASSERT_FALSE(r.command.timed_out) << Dump(r);
  EXPECT_EQ(r.command.exit_code, 1) << Dump(r);
  std::vector<std::string> reasons = Reasons(r);
  EXPECT_NE(std::find(reasons.begin(), reasons.end(), "framing cut-short"), reasons.end())
      << Dump(r);
}

TEST(Reliability, AHeaderThatLiesAboutTheLengthIsCaughtByTheDeadline) {
  HostileRun r = RunHostile("lies-about-length", {"handshake/accepts-offered-version"});
  ASSERT_FALSE(r.command.timed_out) << Dump(r);
  EXPECT_EQ(r.command.exit_code, 1) << Dump(r);
  EXPECT_EQ(Leftovers(Hostile("lies-about-length"), "lies-about-length"),
            std::vector<std::string>{});
}

TEST(Reliability, AMissingEntrypointIsBadInputNamingThePath) {
  HostileRun r = RunHostile("missing-entrypoint", {});
  ASSERT_FALSE(r.command.timed_out) << Dump(r);
  EXPECT_EQ(r.command.exit_code, 2) << Dump(r);
  EXPECT_NE(r.command.err.find("does not exist"), std::string::npos) << Dump(r);
  EXPECT_NE(r.command.err.find(Hostile("missing-entrypoint")), std::string::npos) << Dump(r);
}

TEST(Reliability, ANonExecutableEntrypointIsBadInputSayingSo) {
  HostileRun r = RunHostile("not-executable", {});
  ASSERT_FALSE(r.command.timed_out) << Dump(r);
  EXPECT_EQ(r.command.exit_code, 2) << Dump(r);
  EXPECT_NE(r.command.err.find("is not executable"), std::string::npos) << Dump(r);
}

}  // namespace
}  // namespace fakehost::testing

namespace fakehost::testing {
namespace {

// Ctrl-C once the plugin runs (fakehost has its handlers before it spawns anything), while the
// first scenario waits up to the handshake's 10 s deadline (RIM §7) for an answer that never
// comes.
TEST(Reliability, AnInterruptedRunStopsAtOnceAndStillWritesEveryReport) {
  std::string out = MakeTempDir();
  const std::string marker = RunMarker();
  Interrupts interrupts;
  interrupts.ready = [&] { return !Marked(marker).empty(); };
  CommandResult r =
      RunCommand({FakehostBin(), "run", "--protocol", "rim-v1", "--plugin", Hostile("silent"),
                  "--jobs", "1", "--out", out, "--report", "junit=" + out + "/junit.xml", "--env",
                  marker, "--only", "handshake/*", "--no-color"},
                 std::chrono::seconds(60), interrupts);
  ASSERT_FALSE(r.timed_out) << r.out << r.err;
  ASSERT_GE(r.interrupted_at_ms, 0) << "the plugin never ran\n" << r.out << r.err;
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_LT(r.ms - r.interrupted_at_ms, 10000)
      << "the handshake's wait of 10 s should have ended at the interrupt\n"
      << r.out;
  rapidjson::Document report;
  ASSERT_TRUE(json::Parse(ReadFile(out + "/report.json"), &report).ok) << r.out << r.err;
  const auto& summary = *json::Find(report, "summary");
  EXPECT_GT(json::Find(summary, "total")->GetInt(), 1);
  EXPECT_EQ(json::Find(summary, "not_run")->GetInt(), json::Find(summary, "total")->GetInt());
  EXPECT_NE(ReadFile(out + "/junit.xml").find("interrupted"), std::string::npos);
  EXPECT_EQ(Leftovers(Hostile("silent"), "silent"), std::vector<std::string>{});
  fs::remove_all(out);
}

}  // namespace
}  // namespace fakehost::testing

// Floods: what the harness keeps of a plugin's output is bounded, and the host's own teardown
// cut is not the plugin's fault.
namespace fakehost::testing {
namespace {

struct FloodRun {
  CommandResult command;
  rapidjson::Document report;
  std::uintmax_t report_bytes = 0;
};

FloodRun RunFlood(const std::string& protocol, const std::string& fixture,
                  const std::string& only) {
  FloodRun r;
  std::string out = MakeTempDir();
  r.command = RunCommand({FakehostBin(), "run", "--protocol", protocol, "--plugin",
                          FixturesDir() + "/" + protocol + "/hostile/" + fixture, "--out", out,
                          "--only", only, "--jobs", "1", "--no-color"},
                         std::chrono::seconds(90));
  std::string text = ReadFile(out + "/report.json");
  r.report_bytes = text.size();
  json::Parse(text, &r.report);
  fs::remove_all(out);
  return r;
}

const rapidjson::Value& FirstScenario(const FloodRun& r) {
  return json::Find(r.report, "scenarios")->GetArray()[0];
}

TEST(Reliability, A4MiBLogFloodIsCheckedButOnlySummarisedAndTheTeardownCutIsNotBlamed) {
  FloodRun r = RunFlood("rim-v1", "log-flood", "handshake/accepts-offered-version");
  ASSERT_FALSE(r.command.timed_out) << r.command.out;
  ASSERT_TRUE(r.report.IsObject()) << r.command.out << r.command.err;
  EXPECT_EQ(r.command.exit_code, 1) << r.command.out;
  const auto& s = FirstScenario(r);
  // Hundreds of 4 MiB frames arrived; the report holds a budget's worth of text, not them.
  EXPECT_GT(json::Find(s, "frames")->GetUint64(), 20u) << r.command.out;
  EXPECT_LT(r.report_bytes, 2u * 1024 * 1024);
  std::size_t summarised = 0;
  for (const auto& e : json::Find(s, "transcript")->GetArray()) {
    if (const auto* m = json::Find(e, "summarised"); m && m->GetBool()) ++summarised;
    // The payload kept: `text`, or `base64` for bytes that are not UTF-8 (4 characters per 3).
    const rapidjson::Value* text = json::Find(e, "text");
    const rapidjson::Value* base64 = json::Find(e, "base64");
    ASSERT_TRUE(text || base64) << json::ToCompact(e).substr(0, 300);
    EXPECT_LE(text ? text->GetStringLength() : base64->GetStringLength() / 4 * 3, 65536u);
  }
  EXPECT_GT(summarised, 0u);
  for (const auto& f : json::Find(s, "failures")->GetArray())
    EXPECT_STRNE(json::Find(f, "check")->GetString(), "framing")
        << json::Find(f, "message")->GetString();
}

TEST(Reliability, FourMebibyteStringIdsAreAbbreviatedWithTheirSizeInEveryMessage) {
  FloodRun r = RunFlood("rim-v1", "huge-ids", "handshake/accepts-offered-version");
  ASSERT_FALSE(r.command.timed_out) << r.command.out;
  ASSERT_TRUE(r.report.IsObject()) << r.command.out << r.command.err;
  EXPECT_LT(r.report_bytes, 2u * 1024 * 1024);
  bool unknown = false;
  for (const auto& f : json::Find(FirstScenario(r), "failures")->GetArray()) {
    std::string message = json::Find(f, "message")->GetString();
    EXPECT_LT(message.size(), 1000u) << message.substr(0, 300);
    if (std::string(json::Find(f, "check")->GetString()) == "unknown-reply-id") {
      unknown = true;
      EXPECT_NE(message.find("bytes)"), std::string::npos) << message;  // the full size
    }
  }
  EXPECT_TRUE(unknown) << r.command.out;
}

// A valid 351-byte JSON number once crashed the harness (RapidJSON's full-precision strtod):
// it must be read, quoted exactly as sent, and the run must end with its report.
TEST(Reliability, ALongJsonNumberIsReadAndQuotedAsSent) {
  FloodRun r = RunFlood("rim-v1", "long-number", "heartbeat/answers-within-5s");
  ASSERT_FALSE(r.command.timed_out) << r.command.out;
  EXPECT_TRUE(r.command.exit_code == 0 || r.command.exit_code == 1)
      << "exit " << r.command.exit_code << "\n"
      << r.command.out << r.command.err;
  ASSERT_TRUE(r.report.IsObject()) << r.command.out << r.command.err;
  std::string number = "0." + std::string(348, '0') + "1";
  std::string transcript = json::ToCompact(*json::Find(FirstScenario(r), "transcript"));
  EXPECT_NE(transcript.find(number), std::string::npos) << "the number as the plugin wrote it";
  EXPECT_NE(transcript.find("1e400"), std::string::npos);
}

TEST(Reliability, A10MiBLineFloodOnFlashIsWordedInFlashTerms) {
  FloodRun r = RunFlood("flash-v1", "line-flood", "initialize/*");
  ASSERT_FALSE(r.command.timed_out) << r.command.out;
  ASSERT_TRUE(r.report.IsObject()) << r.command.out << r.command.err;
  EXPECT_LT(r.report_bytes, 8u * 1024 * 1024);
  for (const auto& s : json::Find(r.report, "scenarios")->GetArray())
    for (const auto& f : json::Find(s, "failures")->GetArray()) {
      std::string message = json::Find(f, "message")->GetString();
      EXPECT_EQ(message.find("\xC2\xA7"), std::string::npos) << message;
      EXPECT_EQ(message.find("rim."), std::string::npos) << message;
    }
}

}  // namespace
}  // namespace fakehost::testing

// Descendants that leave the plugin's process group, and resource limits. The test process is
// made a child subreaper: whatever fakehost leaves behind when it exits (live processes and
// the zombies it held) is reparented to the test, which can count it.
namespace fakehost::testing {
namespace {

struct Aftermath {
  std::vector<pid_t> alive;  ///< carrying the marker, or reparented to the test alive
  int zombies = 0;           ///< zombies fakehost held when it exited
};

// What fakehost left: counted, then killed and reaped so that later tests start clean.
Aftermath Collect(const std::string& marker) {
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // reparenting is not instant
  Aftermath a;
  std::set<pid_t> alive;
  for (pid_t pid : Marked(marker)) alive.insert(pid);
  for (const ProcEntry& p : AllProcesses()) {
    if (p.ppid != ::getpid()) continue;
    if (p.state == 'Z') {
      ++a.zombies;
    } else {
      alive.insert(p.pid);
    }
  }
  a.alive.assign(alive.begin(), alive.end());
  for (pid_t pid : a.alive) ::kill(pid, SIGKILL);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  while (::waitpid(-1, nullptr, WNOHANG) > 0) {
  }
  return a;
}

struct EscapeCase {
  const char* fixture;
  const char*
      containment;  ///< FAKEHOST_CONTAINMENT: "" (a cgroup if the machine allows) or "marker"
};

void PrintTo(const EscapeCase& c, std::ostream* os) {
  *os << c.fixture << (*c.containment ? " (marker)" : "");
}

class Escape : public ::testing::TestWithParam<EscapeCase> {
 protected:
  void SetUp() override { ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }
  void TearDown() override { ::unsetenv("FAKEHOST_CONTAINMENT"); }
};

TEST_P(Escape, EveryDescendantIsKilledAndReapedHoweverItRegroups) {
  const EscapeCase c = GetParam();
  if (*c.containment) ::setenv("FAKEHOST_CONTAINMENT", c.containment, 1);
  const std::string marker = RunMarker();
  const std::string out = MakeTempDir();
  CommandResult r = RunCommand(
      {FakehostBin(), "run", "--protocol", "rim-v1", "--plugin", Hostile(c.fixture), "--out", out,
       "--jobs", "2", "--no-color", "--env", marker, "--only", "handshake/accepts-offered-version"},
      std::chrono::seconds(60));
  const bool has_report = fs::exists(out + "/report.json");
  fs::remove_all(out);
  const Aftermath left = Collect(marker);
  ASSERT_FALSE(r.timed_out) << r.out << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(has_report) << r.out << r.err;
  EXPECT_EQ(left.alive, std::vector<pid_t>{}) << "processes left by fakehost";
  EXPECT_EQ(left.zombies, 0) << "zombies fakehost held when it exited";
  EXPECT_EQ(Leftovers(Hostile(c.fixture), c.fixture), std::vector<std::string>{});
}

INSTANTIATE_TEST_SUITE_P(Reliability, Escape,
                         ::testing::Values(EscapeCase{"setsid-grandchild", ""},
                                           EscapeCase{"double-fork", ""},
                                           EscapeCase{"ignores-sigterm-with-children", ""},
                                           EscapeCase{"setsid-grandchild", "marker"},
                                           EscapeCase{"double-fork", "marker"},
                                           EscapeCase{"ignores-sigterm-with-children", "marker"}),
                         [](const ::testing::TestParamInfo<EscapeCase>& param) {
                           std::string name = std::string(param.param.fixture) +
                                              (*param.param.containment ? "_marker" : "");
                           for (char& ch : name)
                             if (ch == '-') ch = '_';
                           return name;
                         });

// Runs a hostile fixture under one resource-limit flag and checks that the limit ended it, that
// the console and report.json both name the limit, and that nothing is left behind.
void ExpectEndedByLimit(const std::string& fixture, const std::string& flag,
                        const std::string& value, const std::string& named) {
  ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  const std::string marker = RunMarker();
  const std::string out = MakeTempDir();
  CommandResult r = RunCommand(
      {FakehostBin(), "run", "--protocol", "rim-v1", "--plugin", Hostile(fixture), "--out", out,
       "--no-color", "--env", marker, flag, value, "--only", "handshake/accepts-offered-version"},
      std::chrono::seconds(60));
  const std::string report = ReadFile(out + "/report.json");
  fs::remove_all(out);
  const Aftermath left = Collect(marker);
  ASSERT_FALSE(r.timed_out) << r.out << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find(named), std::string::npos) << r.out;
  EXPECT_NE(report.find(named), std::string::npos);
  EXPECT_EQ(left.alive, std::vector<pid_t>{});
  EXPECT_EQ(left.zombies, 0);
}

TEST(Reliability, ACpuBurnerIsEndedByTheCpuLimitAndTheReportSaysSo) {
  ExpectEndedByLimit("burns-cpu", "--limit-cpu", "1", "CPU time limit of 1 s reached");
}

TEST(Reliability, AnUnboundedAllocatorIsEndedByTheAddressSpaceLimitAndTheReportSaysSo) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "an ASan-built fixture reserves terabytes of shadow: no address-space limit fits";
#endif
  ExpectEndedByLimit("allocates-without-bound", "--limit-memory", "256",
                     "address-space limit of 256 MiB reached");
}

// Ctrl-C three times: the first (once a plugin runs) ends the waits, the second and third (each
// once the one before was taken) make the stop sequences skip to SIGKILL; the plugins and their
// children still die and every report is written.
TEST(Reliability, ASecondAndThirdInterruptShortenTeardownButStillKillAndReport) {
  ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  const std::string marker = RunMarker();
  const std::string out = MakeTempDir();
  Interrupts interrupts;
  interrupts.ready = [&] { return !Marked(marker).empty(); };
  interrupts.count = 3;
  CommandResult r = RunCommand(
      {FakehostBin(), "run", "--protocol", "rim-v1", "--plugin",
       Hostile("ignores-sigterm-with-children"), "--jobs", "2", "--out", out, "--report",
       "junit=" + out + "/junit.xml", "--env", marker, "--only", "handshake/*", "--no-color"},
      std::chrono::seconds(60), interrupts);
  rapidjson::Document report;
  const bool has_report = json::Parse(ReadFile(out + "/report.json"), &report).ok;
  const std::string junit = ReadFile(out + "/junit.xml");
  fs::remove_all(out);
  const Aftermath left = Collect(marker);
  ASSERT_FALSE(r.timed_out) << r.out << r.err;
  ASSERT_GE(r.interrupted_at_ms, 0) << "no plugin ever ran\n" << r.out << r.err;
  EXPECT_EQ(r.exit_code, 3) << "an interrupted run ends with 3, not by the signal\n"
                            << r.out << r.err;
  EXPECT_TRUE(has_report) << r.out << r.err;
  EXPECT_NE(junit.find("interrupted"), std::string::npos);
  EXPECT_EQ(left.alive, std::vector<pid_t>{});
  EXPECT_EQ(left.zombies, 0);
}

}  // namespace
}  // namespace fakehost::testing
