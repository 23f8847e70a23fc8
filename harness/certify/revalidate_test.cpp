#include "harness/certify/revalidate.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/report/reporter.hpp"

namespace fakehost::certify {
namespace {

namespace fs = std::filesystem;
using result::Direction;
using result::TranscriptEntry;

// A candidate that forbids "level" in a log notification's params, which plugins send.
constexpr const char* kCandidate = R"({"$defs": {
  "log.notification": {"type": "object", "properties": {
      "params": {"type": "object", "not": {"required": ["level"]}}}},
  "envelope.notification": {"type": "object"},
  "envelope.request": {"type": "object", "required": ["method"]},
  "envelope.response": {"type": "object"}}})";

std::unique_ptr<schema::FrameSchema> Candidate() {
  std::string error;
  auto s = schema::FrameSchema::LoadText(kCandidate, &error);
  EXPECT_TRUE(s) << error;
  return s;
}

TranscriptEntry Entry(std::size_t index, Direction d, std::string kind, std::string method,
                      std::string text, std::string def = "checked") {
  TranscriptEntry e;
  e.index = index;
  e.direction = d;
  EXPECT_TRUE(result::ParseEntryKind(kind, &e.kind)) << kind;
  e.method = std::move(method);
  e.text = std::move(text);
  e.size = e.text.size();
  e.schema_def = std::move(def);
  return e;
}

std::vector<TranscriptEntry> Traffic() {
  std::vector<TranscriptEntry> t;
  t.push_back(Entry(0, Direction::kHostToPlugin, "request", "init", R"({"id":1,"method":"init"})"));
  t.push_back(Entry(1, Direction::kPluginToHost, "notification", "log",
                    R"({"method":"log","params":{"level":"info","message":"hi"}})"));
  t.push_back(Entry(2, Direction::kPluginToHost, "notification", "log",
                    R"({"method":"log","params":{"message":"no level"}})"));
  TranscriptEntry clipped = Entry(3, Direction::kPluginToHost, "notification", "log", R"({"meth)");
  clipped.clipped = true;
  t.push_back(clipped);
  // Sent deliberately invalid: the run's schema did not check it, so neither does the candidate.
  t.push_back(Entry(4, Direction::kHostToPlugin, "request", "", R"({"id":2})", ""));
  t.push_back(Entry(5, Direction::kPluginToHost, "not-json", "", "garbage", ""));
  // The host's own frame, which the candidate rejects too (no method).
  t.push_back(Entry(6, Direction::kHostToPlugin, "request", "x", R"({"id":3})"));
  return t;
}

TEST(Revalidate, ACandidateForbiddingAFieldThePluginSendsListsThoseFrames) {
  auto s = Candidate();
  std::vector<RejectedFrame> rejected;
  RevalidationCounts counts;
  RevalidateTranscript(
      *s, Traffic(), [&](const RejectedFrame& r) { rejected.push_back(r); }, &counts);
  EXPECT_EQ(counts.checked, 4u);
  EXPECT_EQ(counts.rejected, 2u);
  EXPECT_EQ(counts.unchecked, 1u);
  ASSERT_EQ(rejected.size(), 2u);
  EXPECT_EQ(rejected[0].index, 1u);
  EXPECT_TRUE(rejected[0].from_plugin);
  EXPECT_EQ(rejected[0].def, "log.notification");
  ASSERT_EQ(rejected[0].violations.size(), 1u);
  EXPECT_EQ(rejected[0].violations[0].pointer, "/params");
  EXPECT_EQ(rejected[1].index, 6u);
  EXPECT_FALSE(rejected[1].from_plugin);
  EXPECT_EQ(rejected[1].def, "envelope.request");
}

TEST(Revalidate, AFrameOfAKindTheCandidateHasNoEntryForIsRejected) {
  std::string error;
  auto s = schema::FrameSchema::LoadText(R"({"$defs": {"envelope.request": {}}})", &error);
  ASSERT_TRUE(s) << error;
  rapidjson::Document frame;
  frame.Parse("{}");
  std::string def;
  EXPECT_EQ(Revalidate(*s, "notification", "log", frame, &def).size(), 1u);
}

class TranscriptFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("fakehost-revalidate-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "sub");
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

// The file `run --transcripts` writes for these entries, re-read offline: the same verdicts,
// now with their line numbers.
TEST_F(TranscriptFile, OfflineRevalidationFindsTheSameFramesWithTheirLines) {
  result::ScenarioResult r;
  r.transcript = Traffic();
  for (auto& e : r.transcript)
    if (e.schema_def == "checked") e.schema_def = "envelope.any";
  std::string path = (dir_ / "sub" / "logs__x.jsonl").string();
  std::ofstream(path) << report::TranscriptLines(r);
  auto s = Candidate();
  std::vector<RejectedFrame> rejected;
  RevalidationCounts counts;
  std::string error;
  ASSERT_TRUE(RevalidateTranscriptFile(
      *s, path, [&](const RejectedFrame& f) { rejected.push_back(f); }, &counts, &error))
      << error;
  EXPECT_EQ(counts.checked, 4u);
  EXPECT_EQ(counts.unchecked, 1u);
  ASSERT_EQ(rejected.size(), 2u);
  EXPECT_EQ(rejected[0].line, 2u);
  EXPECT_EQ(rejected[0].violations.at(0).pointer, "/params");
  EXPECT_EQ(rejected[1].line, 7u);
  EXPECT_FALSE(rejected[1].from_plugin);

  std::vector<std::string> files;
  ASSERT_TRUE(FindTranscriptFiles({dir_.string()}, &files, &error)) << error;
  EXPECT_EQ(files, std::vector<std::string>{path});
}

TEST_F(TranscriptFile, ALineThatIsNotATranscriptEntryIsBadInputWithItsLine) {
  std::string path = (dir_ / "bad.jsonl").string();
  std::ofstream(path)
      << R"({"index":0,"direction":"host-to-plugin","t_ms":0,"kind":"raw","size":0,"text":""})"
      << "\n{\"frame\": 1}\n";
  auto s = Candidate();
  RevalidationCounts counts;
  std::string error;
  EXPECT_FALSE(RevalidateTranscriptFile(
      *s, path, [](const RejectedFrame&) {}, &counts, &error));
  EXPECT_EQ(error.rfind(path + ":2:", 0), 0u) << error;
  std::ofstream(path) << "{\"index\":0,\"direction\":\"host-to-plugin\",\"kind\":\"frame\"}\n";
  EXPECT_FALSE(RevalidateTranscriptFile(
      *s, path, [](const RejectedFrame&) {}, &counts, &error));
  EXPECT_NE(error.find(":1:1: not a transcript line (kind 'frame'"), std::string::npos) << error;
  // A line an older fakehost wrote (a re-serialised `frame`, or `validation` nested) is
  // refused, not skipped as unchecked.
  for (const char* old : {R"("frame":{},"validation":{"schema_def":"x","valid":true}})",
                          R"("size":2,"schema_def":"x","frame":{}})"}) {
    std::ofstream(path) << R"({"index":0,"direction":"plugin-to-host","t_ms":0,"kind":"response",)"
                        << old << "\n";
    EXPECT_FALSE(RevalidateTranscriptFile(
        *s, path, [](const RejectedFrame&) {}, &counts, &error));
    EXPECT_NE(error.find(":1:1: written by an older fakehost (it has `"), std::string::npos)
        << error;
  }
  std::vector<std::string> files;
  EXPECT_FALSE(FindTranscriptFiles({(dir_ / "nothing-here").string()}, &files, &error));
  EXPECT_FALSE(FindTranscriptFiles({(dir_ / "sub").string()}, &files, &error));  // no .jsonl
}

}  // namespace
}  // namespace fakehost::certify
