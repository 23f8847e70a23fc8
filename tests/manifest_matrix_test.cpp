// The detection matrix for manifest rules: `fakehost manifest check` refuses every
// broken-manifest fixture for exactly the rule it was written for, loads the valid ones, and
// every rule the checker knows is caught by at least one fixture. Also: `fakehost run` refuses
// an unrunnable entrypoint once, as bad input (exit 2), with nothing spawned.
//
// fixtures/<protocol>/broken-manifest/<rule>/ holds the manifest (and, for entrypoint rules,
// the files it names) and expect.json {"rules": [...], "why": "..."}: the rules that must be
// reported, and no others.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "harness/json/json.hpp"
#include "harness/plugin/manifest.hpp"
#include "harness/protocol/registry.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;
constexpr auto kDeadline = std::chrono::seconds(30);

// Every protocol of the source tree (protocol/registry.hpp) whose profile has a manifest, and
// those whose profile has none (their plugins are command lines: nothing here applies to them).
std::vector<std::string> Protocols(bool with_manifest) {
  std::vector<std::string> out;
  for (const std::string& name : protocol::ProtocolNames(SourceDir())) {
    std::string error;
    auto profile = protocol::Profile::Load(protocol::ProfilePath(SourceDir(), name), &error);
    EXPECT_NE(profile, nullptr) << error;
    if (profile && profile->has_manifest() == with_manifest) out.push_back(name);
  }
  return out;
}
const std::vector<std::string> kProtocols = Protocols(true);

// Every fixtures/<protocol>/broken-manifest/<rule>/; none when the folder is missing (then the
// rules it should hold are caught by nothing, which fails).
std::vector<std::string> BrokenFixtures(const std::string& protocol) {
  std::vector<std::string> dirs;
  std::error_code ec;
  for (const auto& e :
       fs::directory_iterator(SourceDir() + "/fixtures/" + protocol + "/broken-manifest", ec))
    if (e.is_directory()) dirs.push_back(e.path().string());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

std::set<std::string> ExpectedRules(const std::string& dir) {
  rapidjson::Document d;
  std::set<std::string> rules;
  if (!json::Parse(ReadFile(dir + "/expect.json"), &d).ok || !d.IsObject()) return rules;
  if (const auto* r = json::Find(d, "rules"); r && r->IsArray())
    for (const auto& v : r->GetArray()) rules.insert(v.GetString());
  return rules;
}

// The rule ids `manifest check` printed: each problem line ends with "  [rule]".
std::set<std::string> ReportedRules(const std::string& out) {
  std::set<std::string> rules;
  static const std::regex kLine(R"(  \[([a-z0-9-]+)\]$)");
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    if (std::smatch m; std::regex_search(line, m, kLine)) rules.insert(m[1]);
  return rules;
}

TEST(ManifestMatrix, RefusesEveryBrokenManifestForItsRuleAlone) {
  ASSERT_FALSE(kProtocols.empty());
  for (const std::string& protocol : kProtocols) {
    for (const std::string& dir : BrokenFixtures(protocol)) {
      SCOPED_TRACE(dir);
      std::set<std::string> expected = ExpectedRules(dir);
      ASSERT_FALSE(expected.empty()) << "no expect.json rules";
      // No --protocol: the directory's manifest file says which it is.
      CommandResult r = RunCommand({FakehostBin(), "manifest", "check", dir}, kDeadline);
      EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
      EXPECT_EQ(ReportedRules(r.out), expected) << r.out;
      EXPECT_NE(r.out.find(fs::path(dir).filename().string()), std::string::npos);
    }
  }
}

TEST(ManifestMatrix, CatchesEveryRuleTheCheckerKnowsWithAFixture) {
  for (const std::string& protocol : kProtocols) {
    std::string error;
    auto profile = protocol::Profile::Load(protocol::ProfilePath(SourceDir(), protocol), &error);
    ASSERT_NE(profile, nullptr) << error;
    std::vector<plugin::RuleInfo> known;
    ASSERT_TRUE(plugin::KnownRules(*profile, &known, &error)) << error;
    std::set<std::string> caught;
    for (const std::string& dir : BrokenFixtures(protocol))
      for (const std::string& rule : ExpectedRules(dir)) caught.insert(rule);
    for (const auto& rule : known)
      EXPECT_TRUE(caught.count(rule.id)) << protocol << ": no broken-manifest fixture catches rule "
                                         << rule.id << " (" << rule.source << ")";
    EXPECT_GE(known.size(), 20u) << protocol;
  }
}

// A protocol without manifests has no manifest to check and no manifest/loads-in-host scenario.
TEST(ManifestMatrix, AProtocolWithoutManifestsHasNoManifestCheck) {
  for (const std::string& protocol : Protocols(false)) {
    CommandResult r = RunCommand(
        {FakehostBin(), "manifest", "check", MakeTempDir(), "--protocol", protocol}, kDeadline);
    EXPECT_EQ(r.exit_code, 2) << protocol << "\n" << r.out << r.err;
    CommandResult list = RunCommand({FakehostBin(), "list", "--protocol", protocol}, kDeadline);
    EXPECT_EQ(list.exit_code, 0) << list.err;
    EXPECT_NE(list.out.find("/"), std::string::npos) << "lists scenarios";
    EXPECT_EQ(list.out.find("manifest/loads-in-host"), std::string::npos) << list.out;
  }
}

TEST(ManifestMatrix, LoadsTheRealisticValidManifests) {
  for (const std::string& protocol : kProtocols) {
    std::string dir = SourceDir() + "/fixtures/" + protocol + "/valid-manifest";
    CommandResult r =
        RunCommand({FakehostBin(), "manifest", "check", dir, "--protocol", protocol}, kDeadline);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find(": loads ("), std::string::npos) << r.out;
  }
}

TEST(ManifestCheck, ExitsTwoWithoutAManifest) {
  std::string dir = MakeTempDir();
  CommandResult r = RunCommand({FakehostBin(), "manifest", "check", dir}, kDeadline);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("has no manifest"), std::string::npos) << r.err;
  r = RunCommand({FakehostBin(), "manifest", "check", dir, "--protocol", "rim-v1"}, kDeadline);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("has no rim-plugin.json"), std::string::npos) << r.err;
  fs::remove_all(dir);
}

class UnrunnablePlugin : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = MakeTempDir(); }
  void TearDown() override { fs::remove_all(dir_); }
  void RimManifest(const std::string& entrypoint) {
    std::ofstream(dir_ + "/rim-plugin.json")
        << R"({"manifest_version":1,"plugin_id":"dev.example.x","display_name":"X",)"
        << R"("version":"1","runtime_kind":"DesktopLocalProcess","entrypoint":")" << entrypoint
        << "\"}";
  }
  void File(const std::string& name, const std::string& text, fs::perms perms) {
    std::ofstream(dir_ + "/" + name) << text;
    fs::permissions(dir_ + "/" + name, perms);
  }
  // `fakehost run` (protocol detected) fails manifest/loads-in-host on `rule` (at `location`,
  // when given), and runs nothing else: a manifest the host refuses is the plugin's failure
  // (exit 1). Read from the JSON report: the failure's check and location, each scenario's status.
  void ExpectLoadsInHostFails(const std::string& rule, const std::string& location = "") {
    std::string out = MakeTempDir();
    CommandResult r = RunCommand(
        {FakehostBin(), "run", "--plugin", dir_, "--out", out, "--no-color", "--jobs", "2"},
        kDeadline);
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    rapidjson::Document report;
    ASSERT_TRUE(json::Parse(ReadFile(out + "/report.json"), &report).ok) << r.out << r.err;
    bool loads = false;
    std::size_t not_run = 0;
    for (const auto& s : report["scenarios"].GetArray()) {
      if (std::string(s["id"].GetString()) != "manifest/loads-in-host") {
        not_run += std::string(s["status"].GetString()) == "not-run";
        continue;
      }
      loads = true;
      EXPECT_STREQ(s["status"].GetString(), "fail") << r.out;
      bool named = false;
      for (const auto& f : s["failures"].GetArray()) {
        const rapidjson::Value* at = json::Find(f, "location");
        named = named || (std::string(f["check"].GetString()) == "manifest " + rule &&
                          (location.empty() || (at && at->GetString() == location)));
      }
      EXPECT_TRUE(named) << "manifest " << rule << " at '" << location << "'\n" << r.out;
    }
    EXPECT_TRUE(loads) << r.out;
    EXPECT_GT(not_run, 0u) << "the other scenarios do not run";
    fs::remove_all(out);
  }
  // `fakehost run` (protocol detected) must stop before any scenario, once, with `reason`.
  void ExpectRefused(const std::string& reason) {
    std::string out = MakeTempDir();
    CommandResult r = RunCommand(
        {FakehostBin(), "run", "--plugin", dir_, "--out", out, "--no-color", "--jobs", "2"},
        kDeadline);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find(reason), std::string::npos) << r.err;
    std::size_t lines = std::count(r.err.begin(), r.err.end(), '\n');
    EXPECT_EQ(lines, 1u) << "one error, not one per scenario:\n" << r.err;
    EXPECT_FALSE(fs::exists(out + "/report.json")) << "nothing may run";
    fs::remove_all(out);
  }
  std::string dir_;
};

TEST_F(UnrunnablePlugin, AnEmptyEntrypoint) {
  RimManifest("p");
  File("p", "", fs::perms::owner_all);
  ExpectRefused("is empty");
}

TEST_F(UnrunnablePlugin, AScriptWithoutAShebang) {
  RimManifest("p.py");
  File("p.py", "print('hi')\n", fs::perms::owner_all);
  ExpectRefused("has no #! line");
}

TEST_F(UnrunnablePlugin, AFifoEntrypoint) {
  RimManifest("p");
  ASSERT_EQ(::mkfifo((dir_ + "/p").c_str(), 0700), 0);
  ExpectRefused("is not a regular file");
}

// Outside the plugin directory is the manifest's fault, not bad input: the host refuses it, so
// manifest/loads-in-host fails (exit 1), with the rule, and nothing else runs.
TEST_F(UnrunnablePlugin, AnEntrypointOutsideThePluginDirectoryFailsLoadsInHost) {
  RimManifest("/bin/true");
  ExpectLoadsInHostFails("entrypoint-inside");
}

// A symlink that leads out of the plugin directory is judged where it leads: the same failure.
TEST_F(UnrunnablePlugin, AnEntrypointSymlinkLeadingOutsideFailsLoadsInHost) {
  RimManifest("p");
  fs::create_symlink("/bin/true", dir_ + "/p");
  ExpectLoadsInHostFails("entrypoint-inside");
}

// Every fixture is in its protocol's real manifest format, except the broken ones that exist to
// fail manifest/loads-in-host and the hostile ones whose entrypoint cannot be run.
TEST(ManifestMatrix, EveryFixtureLoadsInItsRealHost) {
  for (const std::string& protocol : kProtocols) {
    fs::path root = fs::path(FixturesDir()) / protocol;
    for (const char* kind : {"", "broken", "variants", "hostile"}) {
      fs::path base = *kind ? root / kind : root;
      std::error_code ec;
      if (!fs::is_directory(base, ec)) continue;
      for (const auto& e : fs::directory_iterator(base)) {
        std::string name = e.path().filename().string();
        if (!e.is_directory() || (!*kind && name.rfind("reference", 0) != 0)) continue;
        std::string meta = ReadFile((e.path() / "fixture.json").string());
        if (meta.find("manifest/loads-in-host") != std::string::npos ||
            meta.find("\"bad-input\"") != std::string::npos)
          continue;
        CommandResult r =
            RunCommand({FakehostBin(), "manifest", "check", e.path().string()}, kDeadline);
        EXPECT_EQ(r.exit_code, 0) << e.path() << "\n" << r.out << r.err;
      }
    }
  }
}

// Malformed JSON is a manifest the host refuses: the plugin's failure, at its line:col.
TEST_F(UnrunnablePlugin, AMalformedManifestFailsLoadsInHostAtLineAndColumn) {
  std::ofstream(dir_ + "/rim-plugin.json") << "{\n  \"plugin_id\": ,\n}";
  ExpectLoadsInHostFails("json-syntax", dir_ + "/rim-plugin.json:2:16");
}

}  // namespace
}  // namespace fakehost::testing
