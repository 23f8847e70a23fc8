// `fakehost certify`, `certify merge` and `validate` end to end: small corpora of fixture plugins
// (a few scenarios each, both protocols), the matrix in every format, a candidate schema that
// forbids a field the reference sends, and the same check offline on recorded transcripts.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "harness/json/json.hpp"
#include "harness/schema/schema.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;

CommandResult Fakehost(std::vector<std::string> args) {
  args.insert(args.begin(), FakehostBin());
  return RunCommand(args, std::chrono::seconds(180));
}

rapidjson::Document Json(const std::string& path) {
  rapidjson::Document doc;
  EXPECT_TRUE(json::Parse(ReadFile(path), &doc).ok) << path;
  return doc;
}

// The matrix's verdict for the plugin in `dir`.
std::string Verdict(const rapidjson::Value& matrix, const std::string& dir) {
  for (const auto& p : matrix["plugins"].GetArray())
    if (fs::path(p["dir"].GetString()).filename() == fs::path(dir).filename())
      return p["verdict"].GetString();
  return "absent";
}

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The RIM schema with one more rule: a handshake answer must not carry result.pluginId, which
// every conforming plugin sends.
std::string CandidateForbiddingPluginId(const std::string& dir) {
  rapidjson::Document s = Json(SourceDir() + "/schema/rim-v1/plugin-protocol-v1.schema.json");
  rapidjson::Value& all = s["$defs"]["rim.handshake.response"]["allOf"];
  rapidjson::Document rule;
  rule.Parse(R"({"properties": {"result": {"not": {"required": ["pluginId"]}}}})");
  all.PushBack(rapidjson::Value(rule, s.GetAllocator()), s.GetAllocator());
  std::string path = dir + "/candidate.json";
  std::ofstream(path) << json::ToCompact(s);
  return path;
}

void CheckAgainstSchema(const rapidjson::Value& matrix) {
  std::string error;
  auto s = schema::FrameSchema::Load(SourceDir() + "/schema/certify.schema.json", &error);
  ASSERT_TRUE(s) << error;
  for (const auto& v : s->Validate("certify", matrix))
    ADD_FAILURE() << v.pointer << ": " << v.message;
}

// One corpus run, then every format it wrote checked in turn.
TEST(Certify, WritesTheMatrixOfARimCorpusInEveryFormatWithTheCandidatesRejections) {
  std::string out = MakeTempDir();
  std::string rim = FixturesDir() + "/rim-v1";
  // A plugin whose fakehost.yaml has an error cannot be run: a row, not an abort.
  std::string unrunnable = out + "/unrunnable";
  fs::create_directories(unrunnable);
  fs::copy_file(rim + "/reference/rim-plugin.json", unrunnable + "/rim-plugin.json");
  fs::copy_file(rim + "/reference/rim-fixture-plugin", unrunnable + "/rim-fixture-plugin");
  std::ofstream(unrunnable + "/fakehost.yaml") << "protocol: [not, a, name\n";
  std::ofstream(out + "/corpus.txt") << "# two fixtures\n"
                                     << rim << "/reference\n"
                                     << rim << "/broken/bad-log-level\n";
  std::string candidate = CandidateForbiddingPluginId(out);
  CommandResult r = Fakehost(
      {"certify", out + "/corpus.txt", unrunnable, "--only", "handshake/accepts-offered-version",
       "--only", "heartbeat/answers-within-5s", "--jobs", "2", "--schema", candidate, "--out",
       out + "/m", "--report", "html=" + out + "/m.html", "--report", "junit=" + out + "/m.xml",
       "--report", "markdown=" + out + "/m.md"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  rapidjson::Document m = Json(out + "/m/certify.json");
  CheckAgainstSchema(m);
  EXPECT_STREQ(m["protocol"].GetString(), "rim-v1");
  ASSERT_EQ(m["plugins"].Size(), 3u);
  EXPECT_EQ(m["scenarios"].Size(), 2u);
  EXPECT_EQ(Verdict(m, "reference"), "pass");
  EXPECT_EQ(Verdict(m, "bad-log-level"), "fail");
  EXPECT_EQ(Verdict(m, "unrunnable"), "unrunnable");
  // The candidate rejects the reference's handshake answers, at /result, coming from the plugin.
  bool listed = false;
  for (const auto& p : m["plugins"].GetArray()) {
    if (fs::path(p["dir"].GetString()).filename() != "reference") continue;
    EXPECT_GE(p["candidate"]["rejected"].GetUint64(), 2u);
    const auto& x = p["candidate"]["rejections"][0];
    EXPECT_STREQ(x["direction"].GetString(), "plugin-to-host");
    EXPECT_STREQ(x["def"].GetString(), "rim.handshake.response");
    EXPECT_STREQ(x["violations"][0]["pointer"].GetString(), "/result");
    listed = true;
  }
  EXPECT_TRUE(listed);
  EXPECT_NE(r.out.find("rim.handshake.response) /result"), std::string::npos) << r.out;

  std::string html = ReadFile(out + "/m.html");
  EXPECT_NE(html.find("<table id=\"matrix\">"), std::string::npos);
  EXPECT_NE(html.find("heartbeat/answers-within-5s</th>"), std::string::npos);
  EXPECT_NE(html.find("bad-log-level"), std::string::npos);
  EXPECT_EQ(Count(ReadFile(out + "/m.xml"), "<testsuite "), 3u);
  EXPECT_NE(ReadFile(out + "/m.md").find("| unrunnable |"), std::string::npos);

  // Since that matrix, the reference alone: nothing newly fails, two plugins vanished.
  CommandResult again = Fakehost(
      {"certify", rim + "/reference", "--only", "handshake/accepts-offered-version", "--only",
       "heartbeat/answers-within-5s", "--since", out + "/m/certify.json", "--out", out + "/again"});
  EXPECT_EQ(again.exit_code, 0) << again.out << again.err;
  rapidjson::Document a = Json(out + "/again/certify.json");
  CheckAgainstSchema(a);
  EXPECT_EQ(a["since"]["newly_failing"].Size(), 0u);
  EXPECT_EQ(a["since"]["plugins_vanished"].Size(), 2u);
  EXPECT_NE(again.out.find("0 newly failing"), std::string::npos) << again.out;
  fs::remove_all(out);
}

TEST(Certify, ShardsOfAFlashCorpusMergeIntoTheWholeMatrix) {
  std::string out = MakeTempDir();
  std::string flash = FixturesDir() + "/flash-v1";
  std::vector<std::string> base = {"certify",
                                   flash + "/reference",
                                   flash + "/broken/ping-ok-string",
                                   "--only",
                                   "initialize/*",
                                   "--only",
                                   "poll/*",
                                   "--jobs",
                                   "2"};
  for (const char* shard : {"1/2", "2/2"}) {
    std::vector<std::string> args = base;
    args.insert(args.end(), {"--shard", shard, "--out", out + "/" + shard[0]});
    CommandResult r = Fakehost(args);
    EXPECT_NE(r.exit_code, 2) << r.out << r.err;
    EXPECT_EQ(Json(out + "/" + shard[0] + "/certify.json")["plugins"].Size(), 1u);
  }
  CommandResult merged =
      Fakehost({"certify", "merge", out + "/1/certify.json", out + "/2/certify.json", "--out",
                out + "/all", "--report", "junit=" + out + "/all.xml"});
  EXPECT_NE(merged.exit_code, 2) << merged.out << merged.err;
  rapidjson::Document m = Json(out + "/all/certify.json");
  CheckAgainstSchema(m);
  EXPECT_STREQ(m["protocol"].GetString(), "flash-v1");
  EXPECT_EQ(m["plugins"].Size(), 2u);
  EXPECT_STREQ(m["shard"].GetString(), "");
  EXPECT_EQ(Verdict(m, "reference"), "pass");
  EXPECT_EQ(Count(ReadFile(out + "/all.xml"), "<testsuite "), 2u);
  // The same shard twice, or one shard of two, is bad input; --allow-partial merges what there
  // is and records what is missing.
  CommandResult twice =
      Fakehost({"certify", "merge", out + "/1/certify.json", out + "/1/certify.json"});
  EXPECT_EQ(twice.exit_code, 2) << twice.out << twice.err;
  EXPECT_NE(twice.err.find("shard 1/2 is given twice"), std::string::npos) << twice.err;
  CommandResult half = Fakehost({"certify", "merge", out + "/1/certify.json"});
  EXPECT_EQ(half.exit_code, 2) << half.out << half.err;
  EXPECT_NE(half.err.find("shard 2 of 2 is missing"), std::string::npos) << half.err;
  CommandResult partial = Fakehost(
      {"certify", "merge", out + "/1/certify.json", "--allow-partial", "--out", out + "/partial"});
  EXPECT_NE(partial.exit_code, 2) << partial.out << partial.err;
  rapidjson::Document p = Json(out + "/partial/certify.json");
  CheckAgainstSchema(p);
  ASSERT_TRUE(p.HasMember("missing_shards"));
  EXPECT_EQ(p["missing_shards"][0].GetInt(), 2);
  fs::remove_all(out);
}

// A protocol without manifests: a corpus entry is a directory whose fakehost.yaml starts the
// plugin (and names the protocol, so --protocol is not needed); each row is named as its server
// announced itself (serverInfo), and two that announce the same name are told apart by their
// directories in the row's key.
TEST(Certify, ACorpusOfPluginsWithoutManifestsIsRunByTheirCommands) {
  std::string out = MakeTempDir();
  std::string mcp = FixturesDir() + "/mcp-stdio";
  std::ofstream(out + "/corpus.txt") << mcp << "/reference\n" << mcp << "/broken/answer-null-id\n";
  CommandResult r = Fakehost({"certify", out + "/corpus.txt", "--only",
                              "ids/null-id-gets-no-null-answer", "--out", out + "/m"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  rapidjson::Document m = Json(out + "/m/certify.json");
  ASSERT_TRUE(m.IsObject()) << r.out << r.err;
  CheckAgainstSchema(m);
  EXPECT_STREQ(m["protocol"].GetString(), "mcp-stdio");
  ASSERT_EQ(m["plugins"].Size(), 2u);
  std::set<std::string> ids, keys;
  for (const auto& p : m["plugins"].GetArray()) {
    ids.insert(p["id"].GetString());
    keys.insert(p["key"].GetString());
  }
  EXPECT_EQ(ids, (std::set<std::string>{"fakehost-mcp-reference"}));  // both run its code
  EXPECT_EQ(keys,
            (std::set<std::string>{"fakehost-mcp-reference (" + mcp + "/reference)",
                                   "fakehost-mcp-reference (" + mcp + "/broken/answer-null-id)"}));
  EXPECT_EQ(Verdict(m, "reference"), "pass");
  EXPECT_EQ(Verdict(m, "answer-null-id"), "fail");
  // No manifest, so no manifest/loads-in-host column.
  for (const auto& c : m["scenarios"].GetArray())
    EXPECT_STRNE(c["id"].GetString(), "manifest/loads-in-host");
  fs::remove_all(out);
}

TEST(Certify, ACorpusNamingAMissingPluginIsBadInputAndNothingRuns) {
  std::string out = MakeTempDir();
  std::ofstream(out + "/corpus.txt") << FixturesDir() << "/rim-v1/reference\nno/such/plugin\n";
  CommandResult r =
      Fakehost({"certify", out + "/corpus.txt", "--protocol", "rim-v1", "--out", out});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("corpus.txt:2:1: "), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out + "/certify.json"));
  fs::remove_all(out);
}

TEST(Validate, ReChecksRecordedTranscriptsAgainstACandidateSchema) {
  std::string out = MakeTempDir();
  CommandResult run = Fakehost({"run", "--plugin", FixturesDir() + "/rim-v1/reference", "--only",
                                "handshake/accepts-offered-version", "--transcripts", out + "/t",
                                "--out", out + "/run"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  std::string file = out + "/t/handshake__accepts-offered-version.jsonl";
  CommandResult rejected =
      Fakehost({"validate", out + "/t", "--schema", CandidateForbiddingPluginId(out)});
  EXPECT_EQ(rejected.exit_code, 1) << rejected.out << rejected.err;
  EXPECT_NE(rejected.out.find(file + ":3: frame #2 plugin → host (rim.handshake.response)"),
            std::string::npos)
      << rejected.out;
  EXPECT_NE(rejected.out.find("    /result: "), std::string::npos) << rejected.out;
  CommandResult valid = Fakehost({"validate", file, "--protocol", "rim-v1"});
  EXPECT_EQ(valid.exit_code, 0) << valid.out << valid.err;
  EXPECT_NE(valid.out.find("0 rejected"), std::string::npos) << valid.out;
  EXPECT_EQ(Fakehost({"validate", out + "/nothing", "--protocol", "rim-v1"}).exit_code, 2);
  EXPECT_EQ(Fakehost({"validate", out + "/run/report.json", "--protocol", "rim-v1"}).exit_code, 2);
  fs::remove_all(out);
}

// The run's verdict on each frame a transcript line records: "FILE #INDEX POINTER" for each
// schema violation of a message the run's schema checked.
std::set<std::string> RunVerdicts(const std::string& dir) {
  std::set<std::string> out;
  for (const auto& file : fs::directory_iterator(dir)) {
    std::istringstream in(ReadFile(file.path().string()));
    for (std::string line; std::getline(in, line);) {
      rapidjson::Document e;
      EXPECT_TRUE(json::Parse(line, &e).ok) << line;
      const rapidjson::Value* violations = json::Find(e, "violations");
      const std::string kind = e["kind"].GetString();
      if (!json::Find(e, "schema_def") || !violations ||
          (kind != "request" && kind != "notification" && kind != "response"))
        continue;
      for (const auto& v : violations->GetArray()) {
        std::string pointer = v["pointer"].GetString();
        out.insert(file.path().string() + " #" + std::to_string(e["index"].GetUint64()) + " " +
                   (pointer.empty() ? "(frame)" : pointer));
      }
    }
  }
  return out;
}

// The same from what validate prints: "FILE:LINE: frame #N ... rejected", then "    POINTER: why".
std::set<std::string> ValidateVerdicts(const std::string& printed) {
  std::set<std::string> out;
  std::istringstream in(printed);
  std::string frame;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("    ", 0) == 0) {
      out.insert(frame + " " + line.substr(4, line.find(": ") - 4));
      continue;
    }
    auto at = line.find(": frame #");
    if (at == std::string::npos) continue;
    auto index = line.substr(at + 9, line.find(' ', at + 9) - at - 9);
    frame = line.substr(0, line.rfind(':', at - 1)) + " #" + index;
  }
  return out;
}

// What the run's schema rejected is what validate rejects in the transcripts it wrote, frame by
// frame and pointer by pointer: both judge the bytes as received, not a re-serialisation.
TEST(Validate, GivesTheRunsOwnVerdictsOnTheTranscriptsItWrote) {
  std::string out = MakeTempDir();
  CommandResult run =
      Fakehost({"run", "--plugin", FixturesDir() + "/rim-v1/broken/bad-log-level", "--only",
                "heartbeat/*", "--transcripts", out + "/t", "--out", out + "/run"});
  ASSERT_EQ(run.exit_code, 1) << run.out << run.err;
  std::set<std::string> by_run = RunVerdicts(out + "/t");
  ASSERT_FALSE(by_run.empty());  // the fixture's log level is rejected: not a vacuous match
  CommandResult validate = Fakehost({"validate", out + "/t", "--protocol", "rim-v1"});
  EXPECT_EQ(validate.exit_code, 1) << validate.out << validate.err;
  EXPECT_EQ(ValidateVerdicts(validate.out), by_run) << validate.out;
  EXPECT_EQ(validate.out.find("not re-checkable"), std::string::npos) << validate.out;
  fs::remove_all(out);
}

}  // namespace
}  // namespace fakehost::testing
