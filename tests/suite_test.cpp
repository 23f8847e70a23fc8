// The detection matrix: the suite passes the reference plugins and catches every broken one.
//
// Each broken fixture declares, in its fixture.json, the scenario ids it must fail. A scenario
// that no fixture fails is a scenario nobody has shown can fail, which is a defect. Every
// protocol (schema/<p>/profile.json in the source tree: protocol/registry.hpp) and every fixture
// (fixtures/<p>/broken/*) is found, not listed: a new protocol is tested by its folders alone,
// and a fixture.json that cannot be read fails its test.
//
// Over 500 lines, on purpose: the matrix is one claim in three parts (the references pass, the
// examples pass, every broken fixture fails what it declares and every scenario is failed by
// one), read through one reader of a run's outcome and one of fixture.json; CMake registers each
// protocol's part of it by this binary's test names (tests/CMakeLists.txt, Matrix.<protocol>).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <set>
#include <thread>

#include "harness/json/json.hpp"
#include "harness/protocol/registry.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string>& Protocols() {
  static const std::vector<std::string> names = protocol::ProtocolNames(SourceDir());
  return names;
}

struct Outcome {
  CommandResult command;
  std::map<std::string, std::string> status;  // scenario id -> status
  rapidjson::Document report;
};

Outcome RunSuite(const std::string& protocol, const std::string& plugin_dir,
                 std::vector<std::string> extra = {}) {
  Outcome o;
  std::string out = MakeTempDir();
  // A run mostly waits (a broken plugin is waited for as long as its deadline; a slow variant
  // answers at 80% of each deadline), so scenarios run several at once per core: that keeps the
  // run short without loading the machine, and the verdicts do not depend on load anyway.
  // (fakehost takes at most 4 per core.)
  bool slow = plugin_dir.find("slow") != std::string::npos;
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::string jobs = std::to_string(std::min(slow ? 8u : 4u, 4 * cores));
  std::vector<std::string> argv = {FakehostBin(), "run",      "--protocol", protocol,
                                   "--plugin",    plugin_dir, "--jobs",     jobs,
                                   "--out",       out,        "--no-color"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  o.command = RunCommand(argv, std::chrono::seconds(slow ? 360 : 240));
  std::string text = ReadFile(out + "/report.json");
  if (json::Parse(text, &o.report).ok && o.report.IsObject()) {
    if (const auto* scenarios = json::Find(o.report, "scenarios");
        scenarios && scenarios->IsArray())
      for (const auto& s : scenarios->GetArray())
        o.status[json::Find(s, "id")->GetString()] = json::Find(s, "status")->GetString();
  }
  fs::remove_all(out);
  return o;
}

std::vector<std::string> ScenarioIds(const std::string& protocol) {
  CommandResult r =
      RunCommand({FakehostBin(), "list", "--protocol", protocol}, std::chrono::seconds(30));
  std::vector<std::string> ids;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) ids.push_back(line.substr(0, line.find(' ')));
  return ids;
}

struct Fixture {
  std::string protocol, name, dir;
  std::vector<std::string> must_fail;  ///< must-level catches: status "fail"
  std::vector<std::string> must_warn;  ///< should-level catches: status "warn" (fail if strict)
  /// `checks`: scenario id -> the always-on check (a failure's `check`) that catches the fault,
  /// for a scenario whose own check is such a finding raised from the plugin's first frame (a
  /// big-endian length prefix breaks the handshake too); the others must fail at a step of their
  /// own (NotAtItsOwnCheck).
  std::map<std::string, std::string> checks;
  std::string problem;  ///< why it cannot be judged (its test fails with it); "" when it can
};

std::string Label(const Fixture& f) { return f.protocol + "/" + f.name; }
// gtest prints a parameter in test listings; the fixture's name says more than its bytes.
void PrintTo(const Fixture& f, std::ostream* os) { *os << Label(f); }

// The scenario ids listed at `key` (absent: none); false for anything but a list of strings.
bool Strings(const rapidjson::Value& meta, const char* key, std::vector<std::string>* out) {
  const auto* v = json::Find(meta, key);
  if (!v) return true;
  if (!v->IsArray()) return false;
  for (const auto& id : v->GetArray()) {
    if (!id.IsString()) return false;
    out->emplace_back(id.GetString());
  }
  return true;
}

// The `checks` object (absent: none); false for anything but strings by scenario id.
bool Checks(const rapidjson::Value& meta, std::map<std::string, std::string>* out) {
  const auto* v = json::Find(meta, "checks");
  if (!v) return true;
  if (!v->IsObject()) return false;
  for (const auto& m : v->GetObject()) {
    if (!m.value.IsString()) return false;
    (*out)[m.name.GetString()] = m.value.GetString();
  }
  return true;
}

// Every fixtures/<protocol>/broken/<name>/ of the source tree, run from where the build lays it
// out (FixturesDir()/<protocol>/broken/<name>).
std::vector<Fixture> BrokenFixtures() {
  std::vector<Fixture> out;
  for (const std::string& protocol : Protocols()) {
    fs::path root = fs::path(SourceDir()) / "fixtures" / protocol / "broken";
    std::error_code ec;
    if (!fs::is_directory(root, ec)) continue;  // its DetectionMatrix fails: nothing is caught
    for (const auto& entry : fs::directory_iterator(root)) {
      if (!entry.is_directory()) continue;
      std::string name = entry.path().filename().string();
      Fixture f{protocol, name, FixturesDir() + "/" + protocol + "/broken/" + name, {}, {}, {}, {}};
      std::string meta_path = (entry.path() / "fixture.json").string();
      rapidjson::Document meta;
      if (!json::Parse(ReadFile(meta_path), &meta).ok || !meta.IsObject())
        f.problem = meta_path + " is missing or not a JSON object";
      else if (!Strings(meta, "must_fail", &f.must_fail) ||
               !Strings(meta, "must_warn", &f.must_warn))
        f.problem = meta_path + ": must_fail and must_warn are lists of scenario ids";
      else if (!Checks(meta, &f.checks))
        f.problem = meta_path + ": checks maps scenario ids to the check ids that catch them";
      else if (std::any_of(f.checks.begin(), f.checks.end(), [&](const auto& c) {
                 return std::count(f.must_fail.begin(), f.must_fail.end(), c.first) +
                            std::count(f.must_warn.begin(), f.must_warn.end(), c.first) ==
                        0;
               }))
        f.problem = meta_path + ": checks names a scenario that must_fail and must_warn do not";
      else if (f.must_fail.empty() && f.must_warn.empty())
        f.problem = meta_path + " names no scenario in must_fail or must_warn: it shows nothing";
      else if (!fs::is_directory(f.dir, ec))
        f.problem = f.dir + " was not built (fixtures/" + protocol + "/CMakeLists.txt lays it out)";
      out.push_back(std::move(f));
    }
  }
  std::sort(out.begin(), out.end(), [](const Fixture& a, const Fixture& b) {
    return a.protocol + a.name < b.protocol + b.name;
  });
  return out;
}

std::string Dump(const Outcome& o) {
  return "exit " + std::to_string(o.command.exit_code) + "\n" + o.command.out + o.command.err;
}

// gtest test names allow only letters, digits and '_'.
std::string ParamName(const ::testing::TestParamInfo<std::string>& p) {
  std::string n = p.param;
  for (char& c : n)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

// The printed parameters (PrintTo) of the tests of the suite now starting that will run: the
// ones --gtest_filter keeps.
std::set<std::string> SelectedParams() {
  std::set<std::string> out;
  const ::testing::TestSuite* suite = ::testing::UnitTest::GetInstance()->current_test_suite();
  for (int i = 0; suite && i < suite->total_test_count(); ++i) {
    const ::testing::TestInfo* test = suite->GetTestInfo(i);
    if (test->should_run() && test->value_param()) out.insert(test->value_param());
  }
  return out;
}

// Runs every task, `width` at a time, each on its own thread; the outcomes in the tasks' order.
std::vector<Outcome> PlayTogether(const std::vector<std::function<Outcome()>>& tasks,
                                  unsigned width) {
  std::vector<Outcome> out(tasks.size());
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> workers;
  for (unsigned w = 0; w < std::min<std::size_t>(width, tasks.size()); ++w)
    workers.emplace_back([&] {
      for (std::size_t i; (i = next++) < tasks.size();) out[i] = tasks[i]();
    });
  for (auto& worker : workers) worker.join();
  return out;
}

class Reference : public ::testing::TestWithParam<std::string> {};

// A reference or conforming variant passes every scenario: a scenario for a surface the plugin
// does not declare is skipped, never warned or failed (flash-v1/reference has warm sources,
// reference-live the live one); a reference gives every trigger in its fakehost.yaml, so
// nothing is untested.
void ExpectPassesEverything(const std::string& plugin, const Outcome& o) {
  ASSERT_FALSE(o.command.timed_out) << plugin << "\n" << Dump(o);
  EXPECT_EQ(o.command.exit_code, 0) << plugin << "\n" << Dump(o);
  ASSERT_FALSE(o.status.empty()) << plugin << "\n" << Dump(o);
  for (const auto& [id, status] : o.status)
    EXPECT_TRUE(status == "pass" || status == "skip")
        << plugin << ": " << id << ": " << status << "\n"
        << Dump(o);
}

std::string ProtocolOf(const std::string& plugin) { return plugin.substr(0, plugin.find('/')); }

TEST_P(Reference, PassesEveryScenarioWithNoWarning) {
  ExpectPassesEverything(GetParam(),
                         RunSuite(ProtocolOf(GetParam()), FixturesDir() + "/" + GetParam()));
}

// The reference of a protocol with revisions passes every scenario under each revision the
// profile knows, played alone (`--revision R`): a scenario of an older revision only (2025-03-26's
// batches, 2024-11-05's wording) is played nowhere else. "mcp-stdio@2025-03-26".
class ReferenceRevision : public ::testing::TestWithParam<std::string> {};

TEST_P(ReferenceRevision, PassesEveryScenarioItSpeaks) {
  const std::string protocol = GetParam().substr(0, GetParam().find('@'));
  const std::string revision = GetParam().substr(GetParam().find('@') + 1);
  const std::string plugin = protocol + "/reference";
  Outcome o = RunSuite(protocol, FixturesDir() + "/" + plugin, {"--revision", revision});
  ExpectPassesEverything(plugin + " under " + revision, o);
  EXPECT_TRUE(std::any_of(o.status.begin(), o.status.end(),
                          [](const auto& s) { return s.second == "pass"; }))
      << "nothing was played under " << revision << "\n"
      << Dump(o);
}

std::vector<std::string> ReferenceRevisions() {
  std::vector<std::string> out;
  for (const std::string& protocol : Protocols()) {
    rapidjson::Document profile;
    if (!json::Parse(ReadFile(SourceDir() + "/schema/" + protocol + "/profile.json"), &profile).ok)
      continue;
    const rapidjson::Value* revisions = json::Resolve(profile, "/revisions/known");
    if (!revisions || !revisions->IsArray()) continue;
    for (const auto& r : revisions->GetArray())
      if (const rapidjson::Value* name = json::Find(r, "name"); name && name->IsString())
        out.push_back(protocol + "@" + name->GetString());
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Revisions, ReferenceRevision, ::testing::ValuesIn(ReferenceRevisions()),
                         ParamName);

bool IsSlow(const std::string& plugin) { return plugin.find("slow") != std::string::npos; }

// Every plugin that must pass everything: the references and the conforming variants (write
// modes, echoed noise ids, slow: a late start and every answer at 80% of its deadline).
std::vector<std::string> AllReferencePlugins() {
  std::vector<std::string> out;
  for (const std::string& protocol : Protocols()) {
    fs::path root = fs::path(FixturesDir()) / protocol;
    std::error_code ec;
    if (!fs::is_directory(root, ec)) continue;
    for (const auto& entry : fs::directory_iterator(root)) {
      std::string name = entry.path().filename().string();
      if (name.rfind("reference", 0) == 0) out.push_back(protocol + "/" + name);
    }
    if (fs::is_directory(root / "variants", ec))
      for (const auto& entry : fs::directory_iterator(root / "variants"))
        out.push_back(protocol + "/variants/" + entry.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> ReferencePlugins(bool slow) {
  std::vector<std::string> out;
  for (const auto& p : AllReferencePlugins())
    if (IsSlow(p) == slow) out.push_back(p);
  return out;
}

INSTANTIATE_TEST_SUITE_P(All, Reference, ::testing::ValuesIn(ReferencePlugins(false)), ParamName);

// The slow variants (answers at 80% of each deadline: a RIM suite takes over two minutes of
// sleeping) play their suites at the same time, each with its own processes: the test then
// lasts as long as the slowest one rather than their sum, and what each plugin is graded on is
// unchanged (the verdicts do not depend on load: bench/verdict_stability).
TEST(SlowVariants, EachPassesEveryScenarioWithNoWarning) {
  std::vector<std::string> plugins = ReferencePlugins(true);
  ASSERT_GE(plugins.size(), 3u) << "a slow variant of each reference";
  std::vector<std::function<Outcome()>> tasks;
  for (const auto& p : plugins)
    tasks.emplace_back([p] { return RunSuite(ProtocolOf(p), FixturesDir() + "/" + p); });
  std::vector<Outcome> outcomes = PlayTogether(tasks, static_cast<unsigned>(tasks.size()));
  for (std::size_t i = 0; i < plugins.size(); ++i) ExpectPassesEverything(plugins[i], outcomes[i]);
}

// A protocol without a reference plugin would have no test that its suite can be passed.
TEST(Fixtures, EveryProtocolHasABuiltReferencePlugin) {
  ASSERT_FALSE(Protocols().empty()) << "no schema/<protocol>/profile.json in " << SourceDir();
  std::vector<std::string> references = AllReferencePlugins();
  for (const std::string& protocol : Protocols())
    EXPECT_TRUE(
        std::any_of(references.begin(), references.end(),
                    [&](const std::string& r) { return r.rfind(protocol + "/reference", 0) == 0; }))
        << protocol << ": no " << FixturesDir() << "/" << protocol << "/reference* (built by "
        << "fixtures/" << protocol << "/CMakeLists.txt)";
}

// Plugins written outside fakehost's fixtures, from the protocol texts alone, each with its
// fakehost.yaml (examples/<protocol>/<name>/): every scenario that applies passes; what needs a
// trigger the plugin does not give is untested, never failed. An example built from source (it
// has a go.mod) runs from its build folder (examples/CMakeLists.txt).
class Outside : public ::testing::TestWithParam<std::string> {};

// Known-pending examples: correct plugins that still fail scenarios because of a gap in
// fakehost itself (issue 19), not a defect of their own. Remove an entry when its fix lands.
// Each entry names the scenarios that may fail and why; every other scenario of the example is
// held to the full rule. An empty scenario list: the run cannot start at all (exit 2), and once
// it does the test fails until the entry goes. A deterministic entry (the fake host's answer,
// not a clock) also fails the test once none of its scenarios fails; a timing entry (a wait
// tighter than the protocol's deadline) cannot: on an idle machine it may pass by luck.
struct Pending {
  std::set<std::string> scenarios;
  bool timing;  ///< its failures depend on the machine's load
  std::string reason;
};
const std::map<std::string, Pending>& PendingExamples() {
  // Empty: every example passes since issue 19's fixes (waits from the protocol, the fake host's
  // answers with data, manifest-only plugins). An entry names the scenarios an example may fail
  // until a fix in fakehost lands, and why.
  static const std::map<std::string, Pending> pending = {};
  return pending;
}

std::string ExampleDir(const std::string& example) {
  std::string source = SourceDir() + "/examples/" + example;
  std::error_code ec;
  if (fs::exists(fs::path(source) / "go.mod", ec)) return BuiltExamplesDir() + "/" + example;
  return source;
}

TEST_P(Outside, PassesEverythingItIsTestedOn) {
  std::string dir = ExampleDir(GetParam());
  std::string protocol = GetParam().substr(0, GetParam().find('/'));
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    GTEST_SKIP() << dir << " was not built (go was not found when the build was configured)";
  const auto pending = PendingExamples().find(GetParam());
  const bool is_pending = pending != PendingExamples().end();
  // A Node.js server on an npm SDK needs its locked dependencies (./ci/test installs them).
  if (fs::exists(fs::path(dir) / "package-lock.json", ec) &&
      !fs::exists(fs::path(dir) / "node_modules", ec))
    GTEST_SKIP() << dir << " has no node_modules: run npm ci there (ci/mcp-servers does)";
  // As an author runs it before publishing and in CI: should-level misses fail too, and so
  // does a scenario left untested (a trigger the plugin cannot have is declared `none`); the
  // author's own known-failure baseline, where there is one, as the workflow init writes uses it.
  std::vector<std::string> flags = {"--strict", "--fail-untested"};
  const fs::path baseline = fs::path(dir) / "fakehost" / "expected-failures.yaml";
  if (fs::exists(baseline, ec)) flags.insert(flags.end(), {"--expected-failures", baseline});
  Outcome o = RunSuite(protocol, dir, flags);
  ASSERT_FALSE(o.command.timed_out) << Dump(o);
  if (is_pending && pending->second.scenarios.empty()) {
    ASSERT_EQ(o.command.exit_code, 2) << GetParam() << " runs now: remove it from PendingExamples\n"
                                      << Dump(o);
    GTEST_SKIP() << "known pending: " << pending->second.reason;
  }
  ASSERT_FALSE(o.status.empty()) << Dump(o);
  int passed = 0, applicable = 0;
  std::vector<std::string> pending_failed;
  for (const auto& [id, status] : o.status) {
    passed += status == "pass";
    applicable += status != "skip";
    if (status == "pass" || status == "skip" || status == "xfail") continue;
    if (is_pending && pending->second.scenarios.count(id)) {
      pending_failed.push_back(id + " (" + status + ")");
      continue;
    }
    ADD_FAILURE() << id << ": " << status << "\n" << Dump(o);
  }
  // A manifest-only plugin is never spawned: its manifest check is all there is to pass.
  const rapidjson::Value* plugin = o.report.IsObject() ? json::Find(o.report, "plugin") : nullptr;
  if (plugin && json::Find(*plugin, "never_spawned"))
    EXPECT_EQ(o.status["manifest/loads-in-host"], "pass") << Dump(o);
  else  // a server of one era finds the other era's scenarios not applicable: most of the rest
    EXPECT_GT(passed, applicable / 2) << Dump(o);
  if (!is_pending) {
    EXPECT_EQ(o.command.exit_code, 0) << Dump(o);
    return;
  }
  if (!pending->second.timing) {
    ASSERT_FALSE(pending_failed.empty())
        << GetParam() << " no longer fails any scenario it is pending on: remove it from "
        << "PendingExamples\n"
        << Dump(o);
  }
  std::string failed;
  for (const auto& id : pending_failed) failed += " " + id;
  GTEST_SKIP() << "known pending (" << pending->second.reason << "):" << failed;
}

std::vector<std::string> OutsidePlugins() {
  std::vector<std::string> out;
  for (const std::string& protocol : Protocols()) {
    fs::path root = fs::path(SourceDir()) / "examples" / protocol;
    std::error_code ec;
    if (!fs::is_directory(root, ec)) continue;
    for (const auto& entry : fs::directory_iterator(root))
      out.push_back(protocol + "/" + entry.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

INSTANTIATE_TEST_SUITE_P(Examples, Outside, ::testing::ValuesIn(OutsidePlugins()), ParamName);

// A broken fixture is played on the scenarios it declares only: what else a broken plugin fails
// is not its test's claim, and running everything would cost each slow fault (a 10 s handshake)
// once per scenario.
Outcome PlayDeclared(const Fixture& f) {
  std::vector<std::string> only;
  for (const auto* ids : {&f.must_fail, &f.must_warn})
    for (const auto& id : *ids) {
      only.push_back("--only");
      only.push_back(id);
    }
  return RunSuite(f.protocol, f.dir, only);
}

// The matrix's runs are played together, before its first test: a broken fixture's run mostly
// waits (a plugin that hangs is waited for as long as its deadline, 30 s for a RIM command), so
// one after another they were 436 s of the test run for about a third of that in CPU. Eight at a
// time, each its own fakehost, the verdicts unchanged (they do not depend on load:
// bench/verdict_stability). Each fixture keeps its own test, and only the selected ones play.
// (tests/CMakeLists.txt registers the matrix as one CTest test per protocol for that reason.)
class Broken : public ::testing::TestWithParam<Fixture> {
 protected:
  static void SetUpTestSuite() {
    std::set<std::string> selected = SelectedParams();
    std::vector<Fixture> played;
    std::vector<std::function<Outcome()>> tasks;
    for (const Fixture& f : BrokenFixtures())
      if (f.problem.empty() && selected.count(Label(f))) {
        played.push_back(f);
        tasks.emplace_back([f] { return PlayDeclared(f); });
      }
    std::vector<Outcome> outcomes = PlayTogether(tasks, 8);
    for (std::size_t i = 0; i < played.size(); ++i)
      outcomes_[Label(played[i])] = std::move(outcomes[i]);
  }
  static void TearDownTestSuite() { outcomes_.clear(); }
  static Outcome& OutcomeOf(const Fixture& f) { return outcomes_.at(Label(f)); }

 private:
  static inline std::map<std::string, Outcome> outcomes_;
};

// Why scenario `id` of `report` did not fail at a check of its own, "" when it did: a step written
// in its own file (a `use:` fragment's step, the handshake, is set-up), or an always-on finding
// once no set-up step had missed. A fixture that breaks only the set-up (a handshake answer with
// a stringified id fails every scenario there) shows nothing of what the scenario checks.
std::string NotAtItsOwnCheck(const rapidjson::Document& report, const std::string& id,
                             const std::string& check_expected = "") {
  const rapidjson::Value* scenarios = json::Find(report, "scenarios");
  if (!scenarios || !scenarios->IsArray()) return "the report has no scenarios";
  for (const auto& s : scenarios->GetArray()) {
    if (json::View(s["id"]) != id) continue;
    const std::string file(json::View(s["file"]));
    bool own_step = false, own_finding = false, setup_missed = false;
    std::string seen;
    for (const auto& f : s["failures"].GetArray()) {
      const std::string check(json::View(f["check"]));
      const rapidjson::Value* at = json::Find(f, "location");
      const std::string location = at && at->IsString() ? std::string(json::View(*at)) : "";
      const bool own = location.rfind(file + ":", 0) == 0;
      if (check == "step") (own ? own_step : setup_missed) = true;
      if (check != "step") own_finding = true;
      seen += "\n  " + check + (location.empty() ? "" : " at " + location) + ": " +
              std::string(json::View(f["message"]));
    }
    if (!check_expected.empty())
      return seen.find("\n  " + check_expected + ":") != std::string::npos ||
                     seen.find("\n  " + check_expected + " at ") != std::string::npos
                 ? ""
                 : id + " did not fail the check " + check_expected + " its fixture names:" + seen;
    if (own_step || (own_finding && !setup_missed)) return {};
    return id + " failed only " + (setup_missed ? "at a set-up step (a fragment's)" : "so:") + seen;
  }
  return "no scenario " + id + " in the report";
}

TEST_P(Broken, FailsEveryScenarioItDeclares) {
  const Fixture& f = GetParam();
  ASSERT_TRUE(f.problem.empty()) << f.problem;
  Outcome& o = OutcomeOf(f);
  ASSERT_FALSE(o.command.timed_out) << Dump(o);
  EXPECT_EQ(o.command.exit_code, f.must_fail.empty() ? 0 : 1) << Dump(o);
  for (const auto& id : f.must_fail) {
    ASSERT_TRUE(o.status.count(id)) << "no scenario " << id << "\n" << Dump(o);
    EXPECT_EQ(o.status[id], "fail") << id << "\n" << Dump(o);
    EXPECT_EQ(NotAtItsOwnCheck(o.report, id, f.checks.count(id) ? f.checks.at(id) : ""), "");
  }
  for (const auto& id : f.must_warn) {
    ASSERT_TRUE(o.status.count(id)) << "no scenario " << id << "\n" << Dump(o);
    EXPECT_EQ(o.status[id], "warn") << id << "\n" << Dump(o);
    EXPECT_EQ(NotAtItsOwnCheck(o.report, id, f.checks.count(id) ? f.checks.at(id) : ""), "");
  }
}

INSTANTIATE_TEST_SUITE_P(Matrix, Broken, ::testing::ValuesIn(BrokenFixtures()), [](const auto& p) {
  std::string n = p.param.protocol + "_" + p.param.name;
  for (char& c : n)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
});

class DetectionMatrix : public ::testing::TestWithParam<std::string> {};

TEST_P(DetectionMatrix, EveryScenarioIsCaughtByAtLeastOneBrokenFixture) {
  std::set<std::string> caught;
  for (const auto& f : BrokenFixtures())
    if (f.protocol == GetParam()) {
      caught.insert(f.must_fail.begin(), f.must_fail.end());
      caught.insert(f.must_warn.begin(), f.must_warn.end());
    }
  std::vector<std::string> ids = ScenarioIds(GetParam());
  ASSERT_FALSE(ids.empty()) << "fakehost list --protocol " << GetParam() << " lists nothing";
  for (const auto& id : ids) EXPECT_TRUE(caught.count(id)) << id << " is caught by no fixture";
}

INSTANTIATE_TEST_SUITE_P(Suites, DetectionMatrix, ::testing::ValuesIn(Protocols()), ParamName);

}  // namespace
}  // namespace fakehost::testing
