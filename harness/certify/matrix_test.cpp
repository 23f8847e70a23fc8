#include "harness/certify/matrix.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "harness/certify/writers.hpp"
#include "harness/json/json.hpp"
#include "harness/schema/schema.hpp"

namespace fakehost::certify {
namespace {

using result::Status;

Cell C(Status s, std::string cause = "") {
  Cell c;
  c.status = s;
  c.cause = std::move(cause);
  return c;
}

Row R(std::string key, std::map<std::string, Cell> cells) {
  Row r;
  r.key = r.id = key;
  r.dir = "/corpus/" + key;
  r.cells = std::move(cells);
  Grade(&r);
  return r;
}

Matrix M(std::vector<std::string> columns, std::vector<Row> rows) {
  Matrix m;
  m.protocol = "rim-v1";
  m.tool_version = "0.1.0";
  m.started_at = "2026-12-02T04:59:32Z";
  for (auto& c : columns) m.columns.push_back({c, "title of " + c, "§7", "a requirement"});
  m.rows = std::move(rows);
  Finish(&m);
  return m;
}

TEST(MatrixCell, KeepsTheHeadlineMissItsStepAndFrameButNotTheTranscript) {
  result::ScenarioResult r;
  r.status = Status::kFail;
  result::Failure f;
  f.check = "step";
  f.step = 3;
  f.step_kind = "expect";
  f.loc = {"scenarios/x.yaml", 9, 5};
  f.message = "no answer\nwithin 2 s";
  f.frame = 4;
  r.failures.push_back(f);
  r.transcript.resize(5);
  Cell c = CellFor(r, false);
  EXPECT_EQ(c.status, Status::kFail);
  EXPECT_EQ(c.cause, "step 3 expect: no answer within 2 s");
  EXPECT_EQ(c.location, "scenarios/x.yaml:9:5, frame #4");
  r.status = Status::kPass;
  r.failures.clear();
  EXPECT_EQ(CellFor(r, false).cause, "");
}

TEST(MatrixRow, AnErrorOutranksAFailureAndNothingCheckedIsNotAPass) {
  EXPECT_EQ(R("a", {{"x", C(Status::kFail)}, {"y", C(Status::kError)}}).verdict, Verdict::kError);
  EXPECT_EQ(R("a", {{"x", C(Status::kFail)}, {"y", C(Status::kPass)}}).verdict, Verdict::kFail);
  EXPECT_EQ(R("a", {{"x", C(Status::kWarn)}, {"y", C(Status::kSkip)}}).verdict, Verdict::kPass);
  EXPECT_EQ(R("a", {{"x", C(Status::kSkip)}, {"y", C(Status::kUntested)}}).verdict,
            Verdict::kUntested);
  Row refused;
  refused.verdict = Verdict::kRefused;
  refused.cells["x"] = C(Status::kPass);
  Grade(&refused);
  EXPECT_EQ(refused.verdict, Verdict::kRefused);
}

TEST(MatrixRow, SaysWhichRevisionsItsCellsWereJudgedUnder) {
  result::ScenarioResult judged;
  judged.status = Status::kFail;
  judged.revision = "2024-11-05";
  result::ScenarioResult skipped;
  skipped.status = Status::kSkip;
  skipped.revision = "2025-11-25";  // not applicable: judged under nothing
  result::ScenarioResult passed;
  passed.status = Status::kPass;
  passed.revision = "2024-11-05";
  Row r = R("p", {{"a", CellFor(judged, false)},
                  {"b", CellFor(skipped, false)},
                  {"c", CellFor(passed, false)}});
  EXPECT_EQ(RevisionsJudged(r), "2024-11-05: 2 judged, 1 failing");
  EXPECT_EQ(RevisionsJudged(R("q", {{"a", C(Status::kPass)}})), "") << "no revisions";
}

TEST(MatrixRow, PluginsSharingAnIdGetTheirDirectoryInTheirKey) {
  Row a = R("same", {}), b = R("same", {});
  b.dir = "/corpus/other";
  Matrix m = M({}, {a, b});
  EXPECT_EQ(m.rows[0].key, "same (/corpus/other)");
  EXPECT_EQ(m.rows[1].key, "same (/corpus/same)");
}

TEST(MatrixDiff, SaysWhatNewlyFailsPassesAppearsAndVanishes) {
  Matrix before = M({"a", "b", "gone"}, {R("p", {{"a", C(Status::kPass)}, {"b", C(Status::kFail)}}),
                                         R("old", {{"a", C(Status::kPass)}})});
  Matrix after =
      M({"a", "b", "new"},
        {R("p", {{"a", C(Status::kFail)}, {"b", C(Status::kPass)}, {"new", C(Status::kError)}}),
         R("fresh", {{"a", C(Status::kFail)}})});
  Diff d = Compare(before, after);
  std::vector<std::string> failing;
  for (const Change& c : d.newly_failing)
    failing.push_back(c.plugin + "|" + c.scenario + "|" + c.before);
  EXPECT_EQ(failing, (std::vector<std::string>{"fresh||", "fresh|a|", "p|a|pass", "p|new|"}));
  ASSERT_EQ(d.newly_passing.size(), 1u);
  EXPECT_EQ(d.newly_passing[0].scenario, "b");
  EXPECT_EQ(d.plugins_appeared, std::vector<std::string>{"fresh"});
  EXPECT_EQ(d.plugins_vanished, std::vector<std::string>{"old"});
  EXPECT_EQ(d.scenarios_appeared, std::vector<std::string>{"new"});
  EXPECT_EQ(d.scenarios_vanished, std::vector<std::string>{"gone"});
}

TEST(MatrixExit, AKnownFailureDoesNotFailARunSinceAMatrixThatHadIt) {
  Matrix m = M({"a"}, {R("p", {{"a", C(Status::kFail)}})});
  EXPECT_EQ(ExitCode(m), 1);
  m.diff = Compare(m, m);
  EXPECT_EQ(ExitCode(m), 0);
  m.candidate = "candidate.json";
  m.rows[0].frames_rejected = 1;
  EXPECT_EQ(ExitCode(m), 1);  // a rejected real frame always fails
}

Matrix Sample() {
  Row p = R("dev.<b>&\"x\"",
            {{"a", C(Status::kPass)}, {"b", C(Status::kFail, "step 1 expect: <script>")}});
  p.frames_checked = 3;
  p.frames_rejected = 1;
  p.rejections.push_back({"b", 2, true, "rim.log.notification", {{"/params", "forbidden"}}});
  Row q;
  q.key = q.dir = "/corpus/broken";
  q.verdict = Verdict::kUnrunnable;
  q.detail = "entrypoint missing";
  q.cells["a"] = C(Status::kNotRun, "not run");
  Matrix m = M({"a", "b"}, {p, q});
  m.candidate = "candidate.json";
  m.diff = Compare(M({"a"}, {}), m);
  m.diff.since = "previous.json";
  return m;
}

TEST(MatrixJson, ReadsBackWhatItWroteAndMatchesItsSchema) {
  Matrix m = Sample();
  std::string text = JsonMatrix(m);
  Matrix back;
  std::string error;
  ASSERT_TRUE(ParseJsonMatrix(text, "m.json", &back, &error)) << error;
  ASSERT_EQ(back.rows.size(), 2u);
  EXPECT_EQ(back.rows[1].key, m.rows[1].key);
  EXPECT_EQ(back.rows[1].cells.at("b").cause, "step 1 expect: <script>");
  EXPECT_EQ(back.rows[1].rejections.at(0).violations.at(0).first, "/params");
  EXPECT_EQ(back.rows[0].verdict, Verdict::kUnrunnable);
  EXPECT_EQ(back.columns.size(), 2u);
  EXPECT_EQ(back.candidate, "candidate.json");

  auto s = schema::FrameSchema::Load(FAKEHOST_SOURCE_DIR "/schema/certify.schema.json", &error);
  ASSERT_TRUE(s) << error;
  rapidjson::Document doc;
  ASSERT_TRUE(json::Parse(text, &doc).ok);
  for (const auto& v : s->Validate("certify", doc)) ADD_FAILURE() << v.pointer << ": " << v.message;
}

TEST(MatrixJson, ARunReportIsNotAMatrix) {
  Matrix m;
  std::string error;
  EXPECT_FALSE(
      ParseJsonMatrix(R"({"tool":{"name":"fakehost"},"scenarios":[]})", "r.json", &m, &error));
  EXPECT_NE(error.find("r.json: not a certify matrix"), std::string::npos) << error;
}

TEST(MatrixMerge, UnitesShardsAndRefusesAPluginInTwo) {
  Matrix one = M({"a"}, {R("p", {{"a", C(Status::kPass)}})});
  Matrix two = M({"a", "b"}, {R("q", {{"b", C(Status::kFail)}})});
  one.shard = "1/2";
  two.shard = "2/2";
  Matrix merged;
  std::string error;
  ASSERT_TRUE(Merge({one, two}, {"1.json", "2.json"}, false, &merged, &error)) << error;
  EXPECT_EQ(merged.rows.size(), 2u);
  EXPECT_EQ(merged.columns.size(), 2u);
  EXPECT_EQ(merged.shard, "");
  EXPECT_TRUE(merged.missing_shards.empty());
  Matrix same_plugin = one;
  same_plugin.shard = "2/2";
  EXPECT_FALSE(Merge({one, same_plugin}, {"1.json", "2.json"}, false, &merged, &error));
  EXPECT_NE(error.find("plugin"), std::string::npos) << error;
  two.protocol = "flash-v1";
  EXPECT_FALSE(Merge({one, two}, {"1.json", "2.json"}, false, &merged, &error));
}

TEST(MatrixMerge, RefusesAMissingDuplicatedOrForeignShard) {
  Matrix one = M({"a"}, {R("p", {{"a", C(Status::kPass)}})});
  Matrix three = M({"a"}, {R("r", {{"a", C(Status::kPass)}})});
  one.shard = "1/3";
  three.shard = "3/3";
  Matrix merged;
  std::string error;
  EXPECT_FALSE(Merge({one, three}, {"1.json", "3.json"}, false, &merged, &error));
  EXPECT_NE(error.find("shard 2 of 3 is missing"), std::string::npos) << error;
  ASSERT_TRUE(Merge({one, three}, {"1.json", "3.json"}, true, &merged, &error)) << error;
  EXPECT_EQ(merged.missing_shards, std::vector<int>{2});
  EXPECT_FALSE(Merge({one, one}, {"1.json", "again.json"}, true, &merged, &error));
  EXPECT_NE(error.find("shard 1/3 is given twice: 1.json and again.json"), std::string::npos)
      << error;
  Matrix whole = three;
  whole.shard = "";
  EXPECT_FALSE(Merge({one, whole}, {"1.json", "whole.json"}, true, &merged, &error));
  EXPECT_NE(error.find("whole.json is not a shard"), std::string::npos) << error;
  Matrix other_suite = three;
  other_suite.suite = "elsewhere";
  EXPECT_FALSE(Merge({one, other_suite}, {"1.json", "x.json"}, true, &merged, &error));
  EXPECT_NE(error.find("x.json is of another run"), std::string::npos) << error;
}

TEST(MatrixHtml, LinksEveryNonPassCellToItsDetailAndEscapesPluginText) {
  std::string html = HtmlMatrix(Sample());
  EXPECT_NE(html.find("id=\"matrix\""), std::string::npos);
  EXPECT_EQ(html.find("dev.<b>"), std::string::npos) << "plugin text must be escaped";
  EXPECT_NE(html.find("dev.&lt;b&gt;&amp;&quot;x&quot;"), std::string::npos);
  EXPECT_EQ(html.find("expect: <script>"), std::string::npos);
  // Row 1 (dev...) column 1 (b) fails: the cell links to a detail with that id.
  EXPECT_NE(html.find("href=\"#d1-1\""), std::string::npos);
  EXPECT_NE(html.find("id=\"d1-1\""), std::string::npos);
  EXPECT_NE(html.find("href=\"#p0\""), std::string::npos);  // the unrunnable row's reason
  EXPECT_NE(html.find("Newly failing"), std::string::npos);
  EXPECT_NE(html.find("forbidden"), std::string::npos);
}

// The formats are one table: each writes, an unknown one is named with every known one, and the
// certify page names each.
TEST(MatrixFormats, EachWritesAndAnUnknownOneNamesThemAll) {
  ASSERT_GE(MatrixFormats().size(), 4u);
  std::ifstream in(FAKEHOST_SOURCE_DIR "/docs/certify.md");
  std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Matrix m;
  for (const MatrixFormat& f : MatrixFormats()) {
    EXPECT_TRUE(KnownFormat(f.name));
    EXPECT_FALSE(f.write(m).empty()) << f.name;
    EXPECT_NE(page.find("`" + std::string(f.name) + "`"), std::string::npos)
        << "docs/certify.md does not name " << f.name;
  }
  std::string error;
  EXPECT_FALSE(WriteMatrix("xml", "/tmp/x", m, &error));
  EXPECT_NE(error.find(MatrixFormatNames()), std::string::npos) << error;
}

TEST(MatrixJUnit, HasOneTestsuitePerPlugin) {
  std::string xml = JUnitMatrix(Sample());
  std::size_t suites = 0;
  for (std::size_t at = xml.find("<testsuite "); at != std::string::npos;
       at = xml.find("<testsuite ", at + 1))
    ++suites;
  EXPECT_EQ(suites, 2u);
  EXPECT_NE(xml.find("<failure message=\"step 1 expect: &lt;script&gt;\""), std::string::npos)
      << xml;
  EXPECT_NE(xml.find("name=\"plugin can be run\""), std::string::npos);
}

// Plugin text is only ever in code spans (report::MarkdownText), where nothing is markup.
TEST(MatrixMarkdown, ListsTheChangesAndKeepsPluginTextInCodeSpans) {
  std::string md = MarkdownMatrix(Sample());
  EXPECT_NE(md.find("Newly failing: "), std::string::npos);
  for (const char* tag : {"<b>", "<script>"}) {
    std::size_t at = md.find(tag);
    if (at == std::string::npos) continue;
    std::size_t open = md.rfind('`', at), line = md.rfind('\n', at);
    EXPECT_TRUE(open != std::string::npos && (line == std::string::npos || open > line))
        << tag << " outside a code span:\n"
        << md;
  }
}

}  // namespace
}  // namespace fakehost::certify

namespace fakehost::certify {
namespace {

TEST(MatrixDiff, MatchesAPluginByItsDirectoryWhenItsKeyGainedASuffix) {
  Row a = R("same", {{"x", C(Status::kPass)}});
  Row b = R("same", {{"x", C(Status::kPass)}});
  b.dir = "/corpus/other";
  Matrix before = M({"x"}, {a, b});  // keys "same (/corpus/...)"
  Matrix after = M({"x"}, {a});      // key "same"
  Diff d = Compare(before, after);
  EXPECT_TRUE(d.plugins_appeared.empty());
  EXPECT_EQ(d.plugins_vanished, std::vector<std::string>{"same (/corpus/other)"});
  EXPECT_TRUE(d.newly_failing.empty());
}

}  // namespace
}  // namespace fakehost::certify
