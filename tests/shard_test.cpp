// Sharded runs end to end: both suites played whole and as three shards, the shards merged with
// `fakehost report merge`, and the merged report compared with the whole run's. Also the CLI
// of shards, merges, tags and custom suites.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "harness/json/json.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;
using Value = rapidjson::Value;

CommandResult Fakehost(std::vector<std::string> args) {
  args.insert(args.begin(), FakehostBin());
  return RunCommand(args, std::chrono::seconds(300));
}

rapidjson::Document ReadReport(const std::string& path) {
  rapidjson::Document doc;
  json::ParseResult parsed = json::Parse(ReadFile(path), &doc);
  EXPECT_TRUE(parsed.ok) << path << ": " << parsed.error;
  if (!parsed.ok || !doc.IsObject()) doc.SetObject();
  return doc;
}

const Value& Scenarios(const Value& report) {
  static const Value empty(rapidjson::kArrayType);
  const Value* s = json::Find(report, "scenarios");
  return s && s->IsArray() ? *s : empty;
}

std::string Id(const Value& scenario) {
  const Value* id = json::Find(scenario, "id");
  return id && id->IsString() ? id->GetString() : "";
}

// What two runs of one plugin may differ in without either being wrong, removed: timings
// (durations, start, frame and exit times, and times quoted in notes and messages), and how the
// teardown found a plugin that was not graded on its exit (whether it had already left on its
// own is a race with the teardown, not a result).
void Normalise(Value& v, rapidjson::Document::AllocatorType& a) {
  static const std::regex kTime(R"(\d+(\.\d+)? ?(ms|s)\b)");
  if (v.IsString()) {
    std::string masked = std::regex_replace(v.GetString(), kTime, "<time>");
    v.SetString(masked.c_str(), static_cast<rapidjson::SizeType>(masked.size()), a);
  } else if (v.IsArray()) {
    for (auto& e : v.GetArray()) Normalise(e, a);
  } else if (v.IsObject()) {
    for (const char* key : {"duration_ms", "started_at", "t_ms", "at_ms", "stop_ms"})
      v.RemoveMember(key);
    const Value* graded = json::Find(v, "graded");
    if (graded && graded->IsBool() && !graded->GetBool()) v.RemoveMember("stop_stage");
    for (auto& m : v.GetObject()) Normalise(m.value, a);
  }
}

// A readable account of where two normalised reports differ (first differing scenarios).
std::string Differences(const Value& a, const Value& b) {
  std::string out;
  for (const auto& m : a.GetObject()) {
    const Value* other = json::Find(b, m.name.GetString());
    if (!other || *other != m.value) out += std::string("top-level ") + m.name.GetString() + "\n";
  }
  const Value& sa = Scenarios(a);
  const Value& sb = Scenarios(b);
  for (rapidjson::SizeType i = 0; i < std::min(sa.Size(), sb.Size()); ++i)
    if (sa[i] != sb[i])
      out += json::Abbreviate(json::ToCompact(sa[i]), 2000) + "\n  vs\n" +
             json::Abbreviate(json::ToCompact(sb[i]), 2000) + "\n";
  return out;
}

struct SuiteCase {
  std::string name, protocol, fixture;
  int expected_exit;
};

void PrintTo(const SuiteCase& c, std::ostream* os) { *os << c.fixture; }

// One suite played whole and as three shards in a temporary folder, the shards then merged.
class ShardedRun : public ::testing::TestWithParam<SuiteCase> {
 protected:
  void SetUp() override { dir_ = MakeTempDir(); }

  // `fakehost run` of the case's plugin, with `extra` arguments.
  CommandResult Run(const std::vector<std::string>& extra) const {
    const SuiteCase& c = GetParam();
    std::vector<std::string> args = {
        "run",    "--protocol", c.protocol,  "--plugin", FixturesDir() + "/" + c.fixture,
        "--jobs", "2",          "--no-color"};
    args.insert(args.end(), extra.begin(), extra.end());
    return Fakehost(args);
  }

  // Plays the three shards, each scenario in one only; returns their report paths.
  std::vector<std::string> RunThreeShards(std::map<std::string, int>* shard_of) const {
    std::vector<std::string> inputs;
    for (int k = 1; k <= 3; ++k) {
      std::string out = dir_ + "/shard-" + std::to_string(k);
      CommandResult shard = Run({"--shard", std::to_string(k) + "/3", "--out", out});
      EXPECT_TRUE(shard.exit_code == 0 || shard.exit_code == 1) << shard.out << shard.err;
      inputs.push_back(out + "/report.json");
      rapidjson::Document report = ReadReport(inputs.back());
      for (const auto& s : Scenarios(report).GetArray()) {
        auto [at, fresh] = shard_of->emplace(Id(s), k);
        EXPECT_TRUE(fresh) << Id(s) << " is in shard " << at->second << " and shard " << k;
      }
    }
    return inputs;
  }

  // `fakehost report merge` of the shards into dir_/merged, in every format.
  CommandResult Merge(const std::vector<std::string>& inputs) const {
    std::vector<std::string> merge = {"report", "merge"};
    merge.insert(merge.end(), inputs.begin(), inputs.end());
    for (std::string format : {"junit", "markdown", "html"})
      merge.push_back("--report=" + format + "=" + dir_ + "/merged/report." + format);
    merge.insert(merge.end(), {"--out", dir_ + "/merged", "--no-color"});
    return Fakehost(merge);
  }

  // Exactly the shards' results, every field (timings, transcripts) as the shards wrote them.
  void ExpectTheShardsResults(const rapidjson::Document& merged,
                              const std::vector<std::string>& inputs) const {
    std::map<std::string, rapidjson::Document> shard_reports;
    for (std::size_t k = 0; k < inputs.size(); ++k)
      shard_reports[inputs[k]] = ReadReport(inputs[k]);
    for (const auto& s : Scenarios(merged).GetArray()) {
      const Value* original = nullptr;
      for (const auto& [path, report] : shard_reports)
        for (const auto& o : Scenarios(report).GetArray())
          if (Id(o) == Id(s)) original = &o;
      ASSERT_TRUE(original) << Id(s);
      EXPECT_TRUE(*original == s) << json::Abbreviate(json::ToCompact(s), 1500);
    }
  }

  // Two of the three shards are not the run: refused, naming the missing one, unless the merge
  // is asked to be partial, which its report then records.
  void ExpectTwoOfThreeRefusedUnlessPartial(const std::vector<std::string>& inputs) const {
    CommandResult two = Fakehost({"report", "merge", inputs[0], inputs[2], "--out", dir_ + "/two"});
    EXPECT_EQ(two.exit_code, 2) << two.out << two.err;
    EXPECT_NE(two.err.find("shard 2 of 3 is missing"), std::string::npos) << two.err;
    EXPECT_FALSE(fs::exists(dir_ + "/two/report.json"));
    CommandResult partial = Fakehost(
        {"report", "merge", inputs[0], inputs[2], "--allow-partial", "--out", dir_ + "/partial"});
    EXPECT_TRUE(partial.exit_code == 0 || partial.exit_code == 1) << partial.out << partial.err;
    rapidjson::Document partial_report = ReadReport(dir_ + "/partial/report.json");
    const Value* missing = json::Find(partial_report, "missing_shards");
    ASSERT_TRUE(missing && missing->IsArray() && missing->Size() == 1) << partial.err;
    EXPECT_EQ((*missing)[0].GetInt(), 2);
  }

  std::string dir_;
};

TEST_P(ShardedRun, ThreeShardsMergeIntoTheReportOfTheWholeRun) {
  const SuiteCase& c = GetParam();
  CommandResult whole = Run({"--out", dir_ + "/whole"});
  ASSERT_EQ(whole.exit_code, c.expected_exit) << whole.out << whole.err;

  std::map<std::string, int> shard_of;  // scenario id -> shard
  const std::vector<std::string> inputs = RunThreeShards(&shard_of);
  rapidjson::Document expected = ReadReport(dir_ + "/whole/report.json");
  EXPECT_EQ(shard_of.size(), Scenarios(expected).Size());
  for (const auto& s : Scenarios(expected).GetArray())
    EXPECT_EQ(shard_of.count(Id(s)), 1u) << Id(s) << " is in no shard";
  EXPECT_EQ(shard_of["manifest/loads-in-host"], 1);

  CommandResult merged_run = Merge(inputs);
  EXPECT_EQ(merged_run.exit_code, whole.exit_code) << merged_run.out << merged_run.err;
  rapidjson::Document merged = ReadReport(dir_ + "/merged/report.json");
  ASSERT_NO_FATAL_FAILURE(ExpectTheShardsResults(merged, inputs));

  // And the whole run's report, but for what two runs may differ in.
  Normalise(expected, expected.GetAllocator());
  Normalise(merged, merged.GetAllocator());
  EXPECT_TRUE(expected == merged) << Differences(expected, merged);
  int failed = json::Find(*json::Find(merged, "summary"), "failed")->GetInt();
  EXPECT_EQ(failed > 0, c.expected_exit == 1);
  for (std::string format : {"junit", "markdown", "html"})
    EXPECT_GT(ReadFile(dir_ + "/merged/report." + format).size(), 500u) << format;
  EXPECT_NE(ReadFile(dir_ + "/merged/report.junit")
                .find("tests=\"" + std::to_string(shard_of.size()) + "\""),
            std::string::npos);

  ASSERT_NO_FATAL_FAILURE(ExpectTwoOfThreeRefusedUnlessPartial(inputs));
  if (!HasFailure()) fs::remove_all(dir_);
}

INSTANTIATE_TEST_SUITE_P(
    BothSuites, ShardedRun,
    ::testing::Values(SuiteCase{"rim_broken", "rim-v1", "rim-v1/broken/accept-any-version", 1},
                      SuiteCase{"flash_reference", "flash-v1", "flash-v1/reference", 0}),
    [](const ::testing::TestParamInfo<SuiteCase>& c) { return c.param.name; });

std::string RimReference() { return FixturesDir() + "/rim-v1/reference"; }

void Write(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

std::vector<std::string> ReportIds(const std::string& path) {
  std::vector<std::string> ids;
  rapidjson::Document report = ReadReport(path);
  for (const auto& s : Scenarios(report).GetArray()) ids.push_back(Id(s));
  return ids;
}

TEST(ShardFlag, AnythingButKOfNIsBadInputAndNothingRuns) {
  std::string dir = MakeTempDir();
  for (const char* bad : {"0/3", "4/3", "x/3", "3", "1/0", "1/3/3"}) {
    CommandResult r = Fakehost({"run", "--plugin", RimReference(), "--shard", bad, "--out", dir});
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
    EXPECT_NE(r.err.find("--shard"), std::string::npos) << r.err;
    EXPECT_EQ(Fakehost({"list", "--protocol", "rim-v1", "--shard", bad}).exit_code, 2) << bad;
  }
  EXPECT_FALSE(fs::exists(dir + "/report.json"));
  fs::remove_all(dir);
}

TEST(ShardFlag, AShardBeyondTheSelectionIsEmptyAndPasses) {
  std::string dir = MakeTempDir();
  std::vector<std::string> inputs = {"report", "merge"};
  for (int k = 1; k <= 3; ++k) {
    std::string out = dir + "/" + std::to_string(k);
    CommandResult r = Fakehost({"run", "--plugin", RimReference(), "--only", "ids/*", "--shard",
                                std::to_string(k) + "/3", "--out", out});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    inputs.push_back(out + "/report.json");
  }
  // Three ids/ scenarios, three shards: one each.
  for (std::size_t k = 2; k < inputs.size(); ++k) EXPECT_EQ(ReportIds(inputs[k]).size(), 1u);
  CommandResult few =
      Fakehost({"run", "--plugin", RimReference(), "--only", "ids/integer-id-echoed-as-integer",
                "--shard", "2/3", "--out", dir + "/few"});
  EXPECT_EQ(few.exit_code, 0) << few.err;
  EXPECT_NE(few.err.find("holds none of the 1 selected"), std::string::npos) << few.err;
  EXPECT_TRUE(ReportIds(dir + "/few/report.json").empty());
  inputs.insert(inputs.end(), {"--out", dir + "/merged"});
  CommandResult merged = Fakehost(inputs);
  EXPECT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(ReportIds(dir + "/merged/report.json").size(), 3u);
  fs::remove_all(dir);
}

TEST(ShardFlag, ARefusedManifestFailsEveryShardAndIsReportedByTheFirst) {
  std::string dir = MakeTempDir();
  std::string plugin = SourceDir() + "/fixtures/rim-v1/broken-manifest/plugin-id";
  std::vector<std::string> merge = {"report", "merge"};
  for (int k = 1; k <= 3; ++k) {
    std::string out = dir + "/" + std::to_string(k);
    CommandResult r =
        Fakehost({"run", "--plugin", plugin, "--shard", std::to_string(k) + "/3", "--out", out});
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    std::vector<std::string> ids = ReportIds(out + "/report.json");
    EXPECT_EQ(std::count(ids.begin(), ids.end(), "manifest/loads-in-host"), k == 1 ? 1 : 0) << k;
    merge.push_back(out + "/report.json");
  }
  merge.insert(merge.end(), {"--out", dir + "/merged"});
  CommandResult merged = Fakehost(merge);
  EXPECT_EQ(merged.exit_code, 1) << merged.err;
  EXPECT_EQ(ReportIds(dir + "/merged/report.json").size(),
            ReportIds(dir + "/1/report.json").size() + ReportIds(dir + "/2/report.json").size() +
                ReportIds(dir + "/3/report.json").size());
  fs::remove_all(dir);
}

TEST(ReportMerge, RefusesReportsOfDifferentRunsAndScenariosTwice) {
  std::string dir = MakeTempDir();
  ASSERT_EQ(Fakehost({"run", "--plugin", RimReference(), "--only", "ids/*", "--out", dir + "/rim"})
                .exit_code,
            0);
  ASSERT_EQ(Fakehost({"run", "--plugin", FixturesDir() + "/flash-v1/reference", "--only",
                      "liveness/ping-answers-ok", "--out", dir + "/flash"})
                .exit_code,
            0);
  std::string rim = dir + "/rim/report.json", flash = dir + "/flash/report.json";
  CommandResult mixed = Fakehost({"report", "merge", rim, flash, "--out", dir + "/m"});
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_NE(mixed.err.find("protocol rim-v1 vs flash-v1"), std::string::npos) << mixed.err;
  CommandResult twice = Fakehost({"report", "merge", rim, rim, "--out", dir + "/m"});
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("is in both " + rim + " and " + rim), std::string::npos) << twice.err;
  Write(dir + "/not-a-report.json", "{\"tool\": {\"name\": \"fakehost\"}}");
  CommandResult junk =
      Fakehost({"report", "merge", rim, dir + "/not-a-report.json", "--out", dir + "/m"});
  EXPECT_EQ(junk.exit_code, 2);
  EXPECT_NE(junk.err.find(dir + "/not-a-report.json: /tool/version: missing"), std::string::npos)
      << junk.err;
  CommandResult format =
      Fakehost({"report", "merge", rim, "--report", "pdf=x.pdf", "--out", dir + "/m"});
  EXPECT_EQ(format.exit_code, 2);
  EXPECT_FALSE(fs::exists(dir + "/m/report.json"));
  fs::remove_all(dir);
}

constexpr const char* kCustomScenario = R"(title: The plugin shuts down after my handshake
spec: "§15 Shutdown"
requirement: A scenario of my own, using the standard suite's handshake fragment.
level: must
tags: [custom, shutdown]
steps:
  - use: handshake
  - shutdown: {}
)";

TEST(CustomSuite, RunsBesideTheStandardSuiteAndUsesItsFragments) {
  std::string dir = MakeTempDir();
  Write(dir + "/mine/custom/uses-handshake.yaml", kCustomScenario);
  CommandResult both =
      Fakehost({"run", "--plugin", RimReference(), "--suite", "standard", "--suite", dir + "/mine",
                "--only", "custom/*", "--only", "shutdown/*", "--out", dir + "/both"});
  EXPECT_EQ(both.exit_code, 0) << both.out << both.err;
  EXPECT_EQ(ReportIds(dir + "/both/report.json"),
            (std::vector<std::string>{"custom/uses-handshake", "shutdown/exits-promptly",
                                      "shutdown/sends-nothing-after-shutdown"}));
  rapidjson::Document report = ReadReport(dir + "/both/report.json");
  const Value* suites = json::Find(report, "suites");
  ASSERT_TRUE(suites && suites->IsArray() && suites->Size() == 2)
      << ReadFile(dir + "/both/report.json");
  EXPECT_EQ(std::string((*suites)[1].GetString()), dir + "/mine");
  EXPECT_EQ(std::string(json::Find(report, "suite")->GetString()), (*suites)[0].GetString());

  CommandResult alone = Fakehost(
      {"run", "--plugin", RimReference(), "--suite", dir + "/mine", "--out", dir + "/alone"});
  EXPECT_EQ(alone.exit_code, 0) << alone.out << alone.err;
  EXPECT_EQ(ReportIds(dir + "/alone/report.json"),
            (std::vector<std::string>{"manifest/loads-in-host", "custom/uses-handshake"}));
  fs::remove_all(dir);
}

TEST(CustomSuite, AnIdTheStandardSuiteHasIsBadInputNamingBothFiles) {
  std::string dir = MakeTempDir();
  Write(dir + "/mine/shutdown/exits-promptly.yaml", kCustomScenario);
  CommandResult r = Fakehost({"run", "--plugin", RimReference(), "--suite", "standard", "--suite",
                              dir + "/mine", "--out", dir + "/out"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(dir + "/mine/shutdown/exits-promptly.yaml"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("scenarios/rim-v1/shutdown/exits-promptly.yaml"), std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir + "/out/report.json"));
  fs::remove_all(dir);
}

TEST(Tags, RunAndListSelectTheSameScenariosByTag) {
  std::string dir = MakeTempDir();
  CommandResult list = Fakehost(
      {"list", "--protocol", "rim-v1", "--tag", "refusal", "--tag", "eof", "--skip-tag", "exit"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  std::vector<std::string> listed;
  std::istringstream lines(list.out);
  for (std::string line; std::getline(lines, line);)
    listed.push_back(line.substr(0, line.find(' ')));
  EXPECT_EQ(listed, (std::vector<std::string>{"framing/eof-inside-frame-ends-plugin",
                                              "handshake/refuses-unoffered-version",
                                              "handshake/refuses-wrong-plugin-id"}))
      << list.out;
  CommandResult run = Fakehost({"run", "--plugin", RimReference(), "--tag", "refusal", "--tag",
                                "eof", "--skip-tag", "exit", "--out", dir});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(ReportIds(dir + "/report.json"), listed);
  EXPECT_EQ(Fakehost({"list", "--protocol", "rim-v1", "--tag", "no-such-tag"}).exit_code, 2);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fakehost::testing
