// run::Execute in process: the real Flash profile and frame schema, small suites written for each
// test, and a scripted FakeChild in place of every plugin process (no fork, no pipes). The
// verdicts and exit codes of docs/ARCHITECTURE.md ("Exit codes"), selection, shards, baselines,
// repeats and corpora are pinned here without spawning the binary.
#include "harness/run/execute.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/json/json.hpp"
#include "harness/run/manifest_scenario.hpp"
#include "harness/schema/schema.hpp"
#include "harness/session/test_support/fake_child.hpp"

namespace fakehost::run {
namespace {

namespace fs = std::filesystem;
using result::Status;

const std::string kSource = FAKEHOST_SOURCE_DIR;

// A scenario of the Flash suite's shape: its handshake, then `steps` (YAML lines).
std::string Scenario(const std::string& steps) {
  return "title: t\nspec: s\nrequirement: r\nsteps:\n  - use: initialize\n" + steps;
}
const std::string kPing =
    "  - send: {method: ping, params: {}}\n    as: ping\n"
    "  - expect: {reply_to: ping, result: {ok: true}}\n";

// A plugin's answer to ping: the Flash SDK's {"ok": true}, or a value that breaks the law.
struct Plugin {
  std::string ping_ok = "true";
};

class ExecuteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    profile_ = protocol::Profile::Load(kSource + "/schema/flash-v1/profile.json", &error);
    ASSERT_TRUE(profile_) << error;
    schema_ = schema::FrameSchema::Load(profile_->schema_path(), &error);
    ASSERT_TRUE(schema_) << error;
    dir_ = fs::temp_directory_path() /
           ("execute_test." + std::to_string(::getpid()) + "." +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "suite");
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Write(const std::string& relative, const std::string& text) {
    fs::path path = dir_ / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
  }
  void AddScenario(const std::string& id, const std::string& text) {
    Write("suite/" + id + ".yaml", text);
  }
  // A plugin directory whose manifest has `id` (a host refuses one that is not lower case).
  std::string PluginDir(const std::string& name, const std::string& id) {
    Write(name + "/manifest.json",
          R"({"id": ")" + id +
              R"(", "name": "hello", "version": "1.0.0", "description": "says hello", )"
              R"("exec": ["./plugin"]})");
    Write(name + "/plugin", "#!/bin/sh\nexit 0\n");
    fs::permissions(dir_ / name / "plugin", fs::perms::owner_all);
    return (dir_ / name).string();
  }

  // The request every test starts from: the suite in dir_/suite against a bare executable
  // (spawned as a FakeChild that plays `plugin_`), one job.
  RunRequest Request() {
    RunRequest q;
    q.profile = profile_.get();
    q.schema = schema_.get();
    q.standard_suite = kSource + "/scenarios/flash-v1";
    q.suites = {(dir_ / "suite").string()};
    q.plugins = {{"", {"/bin/true"}, {}, "dev.example.hello", {}}};
    q.jobs = 1;
    q.err = &err_;
    q.spawn = [this](boost::asio::io_context& io, const process::SpawnSpec& spec,
                     process::Callbacks callbacks, std::string* error) {
      ++spawned_;
      return Spawn(io, spec, std::move(callbacks), error);
    };
    q.on_start = [this](const RunPlan&) { ++started_; };
    q.on_result = [this](const PluginRun& p, const result::ScenarioResult& r) {
      shown_.push_back(std::to_string(p.index) + " " + r.id + " " + result::StatusName(r.status));
    };
    return q;
  }

  // A FakeChild that answers initialize and ping as `plugin_` says (NDJSON, one frame a line).
  std::unique_ptr<process::Child> Spawn(boost::asio::io_context& io, const process::SpawnSpec& spec,
                                        process::Callbacks callbacks, std::string* error) {
    session::testing::FakeChild* child = nullptr;
    auto made = session::testing::FakeChildFactory(&child)(io, spec, std::move(callbacks), error);
    auto buffer = std::make_shared<std::string>();
    Plugin plugin = plugin_;
    child->OnStdin([child, buffer, plugin](std::string_view bytes) {
      buffer->append(bytes);
      for (std::size_t nl; (nl = buffer->find('\n')) != std::string::npos;) {
        rapidjson::Document m;
        bool parsed = json::Parse(buffer->substr(0, nl), &m).ok && m.IsObject();
        buffer->erase(0, nl + 1);
        const rapidjson::Value* method = parsed ? json::Find(m, "method") : nullptr;
        const rapidjson::Value* id = parsed ? json::Find(m, "id") : nullptr;
        if (!method || !method->IsString() || !id) continue;
        std::string name = method->GetString(), rid = json::ToCompact(*id);
        if (name == "initialize")
          child->PushStdout(R"({"id":)" + rid + R"(,"result":{"ok":true,"protocol_version":1}})" +
                            "\n");
        else if (name == "ping")
          child->PushStdout(R"({"id":)" + rid + R"(,"result":{"ok":)" + plugin.ping_ok + "}}\n");
      }
    });
    return made;
  }

  std::string Shown() const {
    std::string out;
    for (const auto& s : shown_) out += s + "\n";
    return out;
  }
  std::vector<std::string> Statuses(const RunOutcome& o) const {
    std::vector<std::string> out;
    for (const auto& r : o.report.scenarios)
      out.push_back(r.id + " " + result::StatusName(r.status));
    return out;
  }

  std::unique_ptr<protocol::Profile> profile_;
  std::unique_ptr<schema::FrameSchema> schema_;
  fs::path dir_;
  Plugin plugin_;
  std::ostringstream err_;
  std::atomic<int> spawned_{0};
  int started_ = 0;
  std::vector<std::string> shown_;
};

// --- exit 0 and 1: the plugin's verdict -------------------------------------------------------

TEST_F(ExecuteTest, APassingRunIsZeroAndEveryResultIsShownAsItEnds) {
  AddScenario("ping/ok", Scenario(kPing));
  RunOutcome o = Execute(Request());
  EXPECT_EQ(o.exit_code, kOk) << err_.str();
  EXPECT_EQ(Statuses(o), std::vector<std::string>{"ping/ok pass"});
  EXPECT_EQ(o.report.summary.passed, 1);
  EXPECT_EQ(o.report.protocol, "flash-v1");
  EXPECT_EQ(o.report.plugin.id, "dev.example.hello");
  EXPECT_EQ(started_, 1);
  EXPECT_EQ(Shown(), "0 ping/ok pass\n");
}

TEST_F(ExecuteTest, AScenarioThePluginFailsIsOne) {
  AddScenario("ping/ok", Scenario(kPing));
  plugin_.ping_ok = R"("true")";  // a string where the law says a boolean
  RunOutcome o = Execute(Request());
  EXPECT_EQ(o.exit_code, kFailures) << err_.str();
  EXPECT_EQ(Statuses(o), std::vector<std::string>{"ping/ok fail"});
}

TEST_F(ExecuteTest, AShouldLevelMissFailsTheRunOnlyWhenStrict) {
  AddScenario("ping/should", Scenario("  - send: {method: ping, params: {}}\n    as: ping\n"
                                      "  - expect: {reply_to: ping, result: {ok: true, pong: 1}}\n"
                                      "    level: should\n"));
  RunOutcome lax = Execute(Request());
  EXPECT_EQ(lax.exit_code, kOk) << err_.str();
  EXPECT_EQ(Statuses(lax), std::vector<std::string>{"ping/should warn"});
  RunRequest q = Request();
  q.strict = true;
  RunOutcome strict = Execute(q);
  EXPECT_EQ(strict.exit_code, kFailures) << err_.str();
  EXPECT_EQ(Statuses(strict), std::vector<std::string>{"ping/should fail"});
}

TEST_F(ExecuteTest, ARunThatCheckedNothingIsOneNotAPass) {
  AddScenario("status/refresh", Scenario("  - send: {trigger: status}\n    as: refresh\n"));
  RunOutcome o = Execute(Request());
  EXPECT_EQ(o.exit_code, kFailures);
  EXPECT_EQ(Statuses(o), std::vector<std::string>{"status/refresh untested"});
  EXPECT_NE(err_.str().find("no scenario checked anything"), std::string::npos) << err_.str();
}

TEST_F(ExecuteTest, AnUntestedScenarioFailsTheRunOnlyUnderFailUntested) {
  AddScenario("ping/ok", Scenario(kPing));
  AddScenario("status/refresh", Scenario("  - send: {trigger: status}\n    as: refresh\n"));
  EXPECT_EQ(Execute(Request()).exit_code, kOk) << err_.str();
  RunRequest q = Request();
  q.fail_untested = true;
  EXPECT_EQ(Execute(q).exit_code, kFailures);
  EXPECT_NE(err_.str().find("1 scenarios untested (--fail-untested)"), std::string::npos)
      << err_.str();
}

// --- exit 2: bad input, nothing run ----------------------------------------------------------

// More untested than judged is said in words at the end, though it does not fail the run.
TEST_F(ExecuteTest, ARunMostlyUntestedSaysSoInWords) {
  AddScenario("ping/ok", Scenario(kPing));
  AddScenario("status/a", Scenario("  - send: {trigger: status}\n    as: refresh\n"));
  AddScenario("status/b", Scenario("  - send: {trigger: status}\n    as: refresh\n"));
  EXPECT_EQ(Execute(Request()).exit_code, kOk) << err_.str();
  EXPECT_NE(err_.str().find("2 scenarios were untested and only 1 judged"), std::string::npos)
      << err_.str();
}

TEST_F(ExecuteTest, SelectingNothingIsBadInputAndSpawnsNothing) {
  AddScenario("ping/ok", Scenario(kPing));
  RunRequest q = Request();
  q.selection.only = {"no/such/*"};
  RunOutcome o = Execute(q);
  EXPECT_EQ(o.exit_code, kBadInput);
  EXPECT_NE(err_.str().find("no scenario selected (1 in " + (dir_ / "suite").string() +
                            "); check --only/--skip/--tag/--skip-tag"),
            std::string::npos)
      << err_.str();
  EXPECT_EQ(spawned_, 0);
  EXPECT_EQ(started_, 0);
}

TEST_F(ExecuteTest, ABadScenarioFileIsBadInputAtItsLineAndColumn) {
  AddScenario("ping/ok", Scenario(kPing));
  AddScenario("bad/unknown-step", Scenario("  - sned: {}\n"));
  RunOutcome o = Execute(Request());
  EXPECT_EQ(o.exit_code, kBadInput);
  EXPECT_NE(err_.str().find("bad/unknown-step.yaml:6:5"), std::string::npos) << err_.str();
  EXPECT_NE(err_.str().find("the suite has errors; nothing was run"), std::string::npos);
  EXPECT_EQ(spawned_, 0);
}

TEST_F(ExecuteTest, BadFlagsAreBadInput) {
  AddScenario("ping/ok", Scenario(kPing));
  struct Case {
    std::function<void(RunRequest*)> set;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {[](RunRequest* q) { q->shard = "3/2"; }, "--shard 3/2"},
           {[](RunRequest* q) { q->timeout = "soon"; }, "--timeout: "},
           {[](RunRequest* q) { q->limits.memory_mib = -1; }, "--limit-memory"},
           {[this](RunRequest* q) { q->expected_failures = (dir_ / "none.yaml").string(); },
            "none.yaml"},
           {[](RunRequest* q) {
              q->plugins = {{"/no/such/plugin", {}, {}, {}, {}}};
            },
            "/no/such/plugin does not exist"},
       }) {
    err_.str("");
    RunRequest q = Request();
    c.set(&q);
    EXPECT_EQ(Execute(q).exit_code, kBadInput) << c.message;
    EXPECT_NE(err_.str().find(c.message), std::string::npos) << err_.str();
  }
  EXPECT_EQ(spawned_, 0);
}

// --- exit 3: the harness failed --------------------------------------------------------------

TEST_F(ExecuteTest, APluginThatCannotBeSpawnedIsAHarnessError) {
  AddScenario("ping/ok", Scenario(kPing));
  RunRequest q = Request();
  q.spawn = session::testing::FailingChildFactory("no such file");
  RunOutcome o = Execute(q);
  EXPECT_EQ(o.exit_code, kHarnessError);
  EXPECT_EQ(Statuses(o), std::vector<std::string>{"ping/ok error"});
}

TEST_F(ExecuteTest, AnInterruptedRunIsAHarnessErrorAndPlaysNothingMore) {
  AddScenario("ping/a", Scenario(kPing));
  AddScenario("ping/b", Scenario(kPing));
  std::atomic<bool> interrupted{true};
  RunRequest q = Request();
  q.interrupted = &interrupted;
  RunOutcome o = Execute(q);
  EXPECT_EQ(o.exit_code, kHarnessError);
  EXPECT_EQ(Statuses(o), (std::vector<std::string>{"ping/a not-run", "ping/b not-run"}));
  EXPECT_EQ(o.report.scenarios[0].skip_reason, "interrupted");
  EXPECT_EQ(spawned_, 0);
}

// --- baselines, shards, repeats, jobs --------------------------------------------------------

TEST_F(ExecuteTest, AListedFailureIsXfailAndAListedPassIsStale) {
  AddScenario("ping/ok", Scenario(kPing));
  Write("baseline.yaml", "- id: ping/ok\n  reason: the plugin answers a string\n");
  RunRequest q = Request();
  q.expected_failures = (dir_ / "baseline.yaml").string();
  plugin_.ping_ok = R"("true")";
  RunOutcome known = Execute(q);
  EXPECT_EQ(known.exit_code, kOk) << err_.str();
  EXPECT_EQ(Statuses(known), std::vector<std::string>{"ping/ok xfail"});
  EXPECT_EQ(shown_.back(), "0 ping/ok xfail");  // the console shows what the report will say
  plugin_.ping_ok = "true";
  RunOutcome fixed = Execute(q);
  EXPECT_EQ(fixed.exit_code, kFailures);
  EXPECT_EQ(Statuses(fixed), std::vector<std::string>{"ping/ok stale"});
  EXPECT_EQ(fixed.suite_ids, std::vector<std::string>{"ping/ok"});
}

TEST_F(ExecuteTest, ShardsPlayEveryScenarioOnceBetweenThem) {
  for (const char* id : {"ping/a", "ping/b", "ping/c"}) AddScenario(id, Scenario(kPing));
  std::vector<std::string> all;
  for (int k = 1; k <= 2; ++k) {
    RunRequest q = Request();
    q.shard = std::to_string(k) + "/2";
    RunOutcome o = Execute(q);
    EXPECT_EQ(o.exit_code, kOk) << err_.str();
    EXPECT_EQ(o.report.shard.index, k);
    EXPECT_EQ(o.report.shard.count, 2);
    for (const auto& r : o.report.scenarios) all.push_back(r.id);
  }
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, (std::vector<std::string>{"ping/a", "ping/b", "ping/c"}));
  // More shards than scenarios: the empty one says so, and judges only what it holds.
  RunRequest q = Request();
  q.shard = "4/4";
  EXPECT_EQ(Execute(q).exit_code, kOk);
  EXPECT_NE(err_.str().find("shard 4/4 holds none of the 3 selected"), std::string::npos)
      << err_.str();
}

TEST_F(ExecuteTest, RepeatsOfAScenarioStayTogetherInIdOrderWhateverTheJobs) {
  for (const char* id : {"ping/a", "ping/b", "ping/c"}) AddScenario(id, Scenario(kPing));
  RunRequest q = Request();
  q.repeat = 2;
  q.jobs = 4;
  RunOutcome o = Execute(q);
  EXPECT_EQ(o.exit_code, kOk) << err_.str();
  EXPECT_EQ(Statuses(o), (std::vector<std::string>{"ping/a pass", "ping/a pass", "ping/b pass",
                                                   "ping/b pass", "ping/c pass", "ping/c pass"}));
  EXPECT_EQ(spawned_, 6);
  EXPECT_EQ(o.report.jobs, 4);
}

// --- plugins with a manifest -----------------------------------------------------------------

TEST_F(ExecuteTest, TheManifestCheckHeadsTheReportOfAPluginDirectory) {
  AddScenario("ping/ok", Scenario(kPing));
  RunRequest q = Request();
  q.plugins = {{PluginDir("hello", "dev.example.hello"), {}, {}, {}, {}}};
  RunOutcome o = Execute(q);
  EXPECT_EQ(o.exit_code, kOk) << err_.str();
  EXPECT_EQ(Statuses(o), (std::vector<std::string>{"manifest/loads-in-host pass", "ping/ok pass"}));
  EXPECT_EQ(o.report.plugin.version, "1.0.0");
  // Alone, the manifest check is not a check of the plugin: the run says so.
  q.selection.only = {kManifestScenarioId};
  EXPECT_EQ(Execute(q).exit_code, kFailures);
}

TEST_F(ExecuteTest, ARefusedManifestFailsTheRunAndSpawnsNothing) {
  AddScenario("ping/ok", Scenario(kPing));
  RunRequest q = Request();
  q.plugins = {{PluginDir("hello", "Hello"), {}, {}, {}, {}}};
  RunOutcome o = Execute(q);
  EXPECT_EQ(o.exit_code, kFailures) << err_.str();
  EXPECT_EQ(Statuses(o),
            (std::vector<std::string>{"manifest/loads-in-host fail", "ping/ok not-run"}));
  EXPECT_EQ(o.report.plugin.id, "Hello");
  EXPECT_EQ(spawned_, 0);
  // A later shard does not report the manifest check (shard 1 does), and still fails.
  err_.str("");
  q.shard = "2/2";
  RunOutcome later = Execute(q);
  EXPECT_EQ(later.exit_code, kFailures);
  EXPECT_NE(err_.str().find("is reported by shard 1/2"), std::string::npos) << err_.str();
}

TEST_F(ExecuteTest, ACorpusHasEveryPluginsStateAndKeepsNoResults) {
  AddScenario("ping/ok", Scenario(kPing));
  RunRequest q = Request();
  q.corpus = true;
  q.jobs = 2;
  q.plugins = {{PluginDir("good", "dev.example.good"), {}, {}, {}, {}},
               {PluginDir("refused", "Refused"), {}, {}, {}, {}},
               {(dir_ / "missing").string(), {}, {}, {}, {}}};
  std::vector<std::string> plugins;  // the observers are never called at once: no lock
  q.on_plugin = [&](const PluginRun& p) {
    const char* state = p.state == PluginState::kReady     ? "ready"
                        : p.state == PluginState::kRefused ? "refused"
                                                           : "unrunnable";
    plugins.push_back(std::to_string(p.index) + " " + p.info.id + " " + state);
  };
  RunOutcome o = Execute(q);
  EXPECT_EQ(o.exit_code, kOk) << err_.str();
  EXPECT_TRUE(o.report.scenarios.empty());
  std::sort(plugins.begin(), plugins.end());
  EXPECT_EQ(plugins, (std::vector<std::string>{"0 dev.example.good ready", "1 Refused refused",
                                               "2  unrunnable"}));
  std::sort(shown_.begin(), shown_.end());
  EXPECT_EQ(shown_, (std::vector<std::string>{"0 manifest/loads-in-host pass", "0 ping/ok pass",
                                              "1 manifest/loads-in-host fail", "1 ping/ok not-run",
                                              "2 ping/ok not-run"}));
  EXPECT_EQ(spawned_, 1);
}

}  // namespace
}  // namespace fakehost::run
