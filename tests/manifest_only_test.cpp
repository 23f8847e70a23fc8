// A Flash manifest-only plugin (no exec) end to end: its host loads it and never spawns it, so
// `run` and `certify` check its manifest, mark every other scenario not applicable with that
// reason, spawn nothing, and count the plugin as passing (exit 0); a manifest-only plugin whose
// manifest the host refuses still fails manifest/loads-in-host (exit 1).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "harness/json/json.hpp"
#include "harness/schema/schema.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;

CommandResult Fakehost(std::vector<std::string> args) {
  args.insert(args.begin(), FakehostBin());
  return RunCommand(args, std::chrono::seconds(60));
}

std::string ManifestOnly() { return SourceDir() + "/fixtures/flash-v1/manifest-only"; }

rapidjson::Document Json(const std::string& path) {
  rapidjson::Document doc;
  EXPECT_TRUE(json::Parse(ReadFile(path), &doc).ok) << path;
  return doc;
}

void ExpectValid(const char* def, const std::string& schema_file, const rapidjson::Value& doc) {
  std::string error;
  auto s = schema::FrameSchema::Load(SourceDir() + "/schema/" + schema_file, &error);
  ASSERT_TRUE(s) << error;
  for (const auto& v : s->Validate(def, doc)) ADD_FAILURE() << v.pointer << ": " << v.message;
}

// Why the plugin was never spawned, as the report says (the run layer words it).
std::string NeverSpawned(const rapidjson::Value& report) {
  const rapidjson::Value* why = json::Find(report["plugin"], "never_spawned");
  EXPECT_TRUE(why && why->IsString() && why->GetStringLength() > 0) << "plugin.never_spawned";
  return why && why->IsString() ? why->GetString() : "?";
}

// Every scenario but the manifest check is `skip` with the reason the plugin was never spawned,
// and none of them ran a step.
void ExpectOnlyTheManifestChecked(const rapidjson::Value& report) {
  const std::string reason = NeverSpawned(report);
  std::size_t skipped = 0;
  for (const auto& s : report["scenarios"].GetArray()) {
    std::string id = s["id"].GetString(), status = s["status"].GetString();
    if (id == "manifest/loads-in-host") {
      EXPECT_EQ(status, "pass");
      continue;
    }
    EXPECT_EQ(status, "skip") << id;
    ASSERT_TRUE(s.HasMember("reason")) << id;
    EXPECT_EQ(s["reason"].GetString(), reason) << id;
    ++skipped;
  }
  EXPECT_GT(skipped, 30u) << "the whole standard suite";
  EXPECT_EQ(report["summary"]["skipped"].GetUint64(), skipped);
  EXPECT_EQ(report["summary"]["passed"].GetInt(), 1);
}

TEST(ManifestOnly, RunChecksTheManifestAndPassesWithEveryOtherScenarioNotApplicable) {
  std::string out = MakeTempDir();
  // --strict and --fail-untested: nothing is left untested or warned either.
  CommandResult r = Fakehost({"run", "--plugin", ManifestOnly(), "--out", out, "--no-color",
                              "--strict", "--fail-untested", "--jobs", "2"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // The verdict (manifest/loads-in-host passes) is read from the JSON report below.
  rapidjson::Document report = Json(out + "/report.json");
  ExpectValid("report", "report.schema.json", report);
  EXPECT_NE(r.out.find(NeverSpawned(report)), std::string::npos) << "the console says why\n"
                                                                 << r.out;
  EXPECT_EQ(report["plugin"]["argv"].Size(), 0u);
  ExpectOnlyTheManifestChecked(report);
  fs::remove_all(out);
}

// The verdict is read back from the JSON reports: merged shards pass as the whole run does.
TEST(ManifestOnly, MergedShardsPassAsTheWholeRunDoes) {
  std::string out = MakeTempDir();
  for (const char* shard : {"1/2", "2/2"}) {
    CommandResult r = Fakehost({"run", "--plugin", ManifestOnly(), "--shard", shard, "--out",
                                out + "/" + std::string(1, shard[0]), "--no-color"});
    EXPECT_EQ(r.exit_code, 0) << shard << "\n" << r.out << r.err;
  }
  CommandResult merged = Fakehost(
      {"report", "merge", out + "/1/report.json", out + "/2/report.json", "--out", out + "/all"});
  EXPECT_EQ(merged.exit_code, 0) << merged.out << merged.err;
  rapidjson::Document report = Json(out + "/all/report.json");
  rapidjson::Document first = Json(out + "/1/report.json");
  EXPECT_EQ(NeverSpawned(report), NeverSpawned(first)) << "the merge keeps why";
  ExpectOnlyTheManifestChecked(report);
  fs::remove_all(out);
}

// Without manifest/loads-in-host selected, nothing at all was checked: not a pass.
TEST(ManifestOnly, RunWithoutTheManifestCheckChecksNothing) {
  std::string out = MakeTempDir();
  CommandResult r =
      Fakehost({"run", "--plugin", ManifestOnly(), "--only", "ids/*", "--out", out, "--no-color"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  // Exit 1 with nothing judged at all (none passed, failed, warned, errored, none listed in a
  // baseline): the run layer's rule that checking nothing is no pass, whatever its words.
  rapidjson::Document report = Json(out + "/report.json");
  const auto& summary = report["summary"];
  EXPECT_GT(summary["total"].GetInt(), 0) << r.out;
  EXPECT_EQ(summary["skipped"].GetInt(), summary["total"].GetInt()) << "never spawned\n" << r.out;
  for (const char* judged : {"passed", "failed", "warned", "errored", "xfailed", "stale"})
    EXPECT_EQ(summary[judged].GetInt(), 0) << judged << "\n" << r.out;
  fs::remove_all(out);
}

// A manifest-only plugin's manifest is still read as the host reads it: listen without exec is
// refused, so manifest/loads-in-host fails and nothing else runs.
TEST(ManifestOnly, ARefusedManifestOnlyPluginFailsLoadsInHost) {
  std::string out = MakeTempDir();
  CommandResult r =
      Fakehost({"run", "--plugin",
                SourceDir() + "/fixtures/flash-v1/broken-manifest/" + "manifest-only-keys", "--out",
                out, "--no-color"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  rapidjson::Document report = Json(out + "/report.json");
  bool loads = false;
  for (const auto& s : report["scenarios"].GetArray()) {
    if (std::string(s["id"].GetString()) == "manifest/loads-in-host") {
      // It fails, on the rule the fixture breaks.
      loads = true;
      EXPECT_STREQ(s["status"].GetString(), "fail") << r.out;
      std::set<std::string> checks;
      for (const auto& f : s["failures"].GetArray()) checks.insert(f["check"].GetString());
      EXPECT_EQ(checks.count("manifest manifest-only-keys"), 1u) << r.out;
      continue;
    }
    EXPECT_STREQ(s["status"].GetString(), "not-run") << s["id"].GetString();
  }
  EXPECT_TRUE(loads) << r.out;
  fs::remove_all(out);
}

TEST(ManifestOnly, FuzzSaysThereIsNothingToFuzz) {
  CommandResult r = Fakehost({"fuzz", "--plugin", ManifestOnly(), "--budget", "1s"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("nothing to fuzz"), std::string::npos) << r.err;
}

// certify: the manifest-only row passes on its manifest check, its other cells not applicable
// with the reason; the refused one is refused, as any plugin whose manifest the host refuses.
TEST(ManifestOnly, CertifyCountsItAsPassing) {
  std::string out = MakeTempDir();
  std::string refused = SourceDir() + "/fixtures/flash-v1/broken-manifest/manifest-only-keys";
  CommandResult r = Fakehost({"certify", ManifestOnly(), refused, "--only", "ids/*", "--only",
                              "manifest/*", "--jobs", "2", "--out", out});
  EXPECT_EQ(r.exit_code, 1) << "the refused one fails the corpus\n" << r.out << r.err;
  rapidjson::Document m = Json(out + "/certify.json");
  ExpectValid("certify", "certify.schema.json", m);
  bool seen = false;
  for (const auto& p : m["plugins"].GetArray()) {
    std::string dir = fs::path(p["dir"].GetString()).filename().string();
    if (dir == "manifest-only-keys") {
      EXPECT_STREQ(p["verdict"].GetString(), "refused");
      continue;
    }
    seen = true;
    EXPECT_EQ(dir, "manifest-only");
    EXPECT_STREQ(p["verdict"].GetString(), "pass");
    // Its other cells are not applicable, each saying why (one reason for all: never spawned).
    std::set<std::string> causes;
    for (const auto& c : p["cells"].GetObject())
      if (std::string(c.value["status"].GetString()) == "skip")
        causes.insert(c.value["cause"].GetString());
    ASSERT_EQ(causes.size(), 1u);
    EXPECT_FALSE(causes.begin()->empty());
  }
  EXPECT_TRUE(seen);

  CommandResult alone = Fakehost({"certify", ManifestOnly(), "--out", out + "/alone"});
  EXPECT_EQ(alone.exit_code, 0) << alone.out << alone.err;
  rapidjson::Document only = Json(out + "/alone/certify.json");
  ASSERT_EQ(only["plugins"].Size(), 1u);
  EXPECT_STREQ(only["plugins"][0]["verdict"].GetString(), "pass") << "runnable, and passing";
  fs::remove_all(out);
}

}  // namespace
}  // namespace fakehost::testing
