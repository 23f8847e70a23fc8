// Reading a JSON report back: every field JsonReport writes comes back, and what is not a
// report is refused at its JSON pointer.
#include "harness/report/json_report_read.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "harness/report/causes.hpp"
#include "harness/report/reporter.hpp"
#include "harness/report/synthetic_run.hpp"

namespace fakehost::report {
namespace {

using result::Status;

// A synthetic run with every status and every optional field JsonReport can write.
result::RunReport RichRun() {
  result::RunReport r = SyntheticRun(24, 5);
  r.suites = {"scenarios/rim-v1", "/home/me/my-scenarios"};
  r.strict = true;
  r.scenarios[0].duration_ms =
      1.0015;  // written 1.001, which is 1000.9999… microseconds: truncated, it would drift
  r.summary.duration_ms = 0.29;
  r.scenarios[1].status = Status::kUntested;
  r.scenarios[1].skip_reason = "needs the trigger 'slow'";
  r.scenarios[2].status = Status::kNotRun;
  r.scenarios[2].skip_reason = "interrupted";
  for (auto& s : r.scenarios) {
    if (s.status != Status::kFail) continue;
    s.stderr_bytes_dropped = 4096;
    s.exit = {true, "killed by SIGTERM", std::nullopt, 15, 1012.25, "SIGTERM", 1000.5, true};
    s.transcript[0].clipped = true;
    s.transcript[1].summarised = true;
    s.transcript[1].notes = {"answers #0 after 2 ms", "framing: announced 12"};
    s.transcript[2].method.clear();
    s.transcript[2].id.clear();
    s.transcript[2].kind = result::EntryKind::kNotJson;
    s.transcript[2].text = std::string("\xff\x00{\"n\":1E2}", 11);  // no UTF-8: base64
    result::Failure f;
    f.check = "manifest unknown-field";
    f.message = "no step, no location, no frame";
    s.failures.push_back(f);
    result::Failure colons = s.failures.front();
    colons.loc = {"C:/odd:path/x.yaml", 12, 3};
    colons.reason = result::Reason::kPluginExited;
    s.failures.push_back(colons);
  }
  result::Summarise(&r);
  return r;
}

TEST(JsonReportRead, ReadsBackEveryFieldJsonReportWrites) {
  result::RunReport original = RichRun();
  std::string text = JsonReport(original);
  result::RunReport back;
  std::string error;
  ASSERT_TRUE(ParseJsonReport(text, &back, &error)) << error;
  EXPECT_EQ(JsonReport(back), text);

  EXPECT_EQ(back.suites, original.suites);
  ASSERT_EQ(back.scenarios.size(), original.scenarios.size());
  for (std::size_t i = 0; i < back.scenarios.size(); ++i) {
    const auto& a = original.scenarios[i];
    const auto& b = back.scenarios[i];
    EXPECT_EQ(b.status, a.status) << a.id;
    EXPECT_EQ(b.loc.ToString(), a.loc.ToString()) << a.id;
    ASSERT_EQ(b.failures.size(), a.failures.size()) << a.id;
    for (std::size_t k = 0; k < a.failures.size(); ++k) {
      EXPECT_EQ(b.failures[k].loc.ToString(), a.failures[k].loc.ToString());
      EXPECT_EQ(b.failures[k].frame, a.failures[k].frame);
      EXPECT_EQ(b.failures[k].level, a.failures[k].level);
      EXPECT_EQ(b.failures[k].reason, a.failures[k].reason);
    }
    bool kept =
        a.status == Status::kFail || a.status == Status::kWarn || a.status == Status::kError;
    EXPECT_EQ(b.transcript.size(), kept ? a.transcript.size() : 0u) << a.id;
    EXPECT_EQ(b.transcript.size() + b.transcript_elided, a.transcript.size()) << a.id;
    if (kept && !a.transcript.empty()) {
      EXPECT_EQ(b.transcript[1].direction, a.transcript[1].direction);
      for (std::size_t k = 0; k < a.transcript.size(); ++k)
        EXPECT_EQ(b.transcript[k].text, a.transcript[k].text) << a.id << " #" << k;
      EXPECT_EQ(b.transcript.back().violations.size(), a.transcript.back().violations.size());
    }
    EXPECT_EQ(b.exit.signal, a.exit.signal);
    EXPECT_EQ(b.exit.code, a.exit.code);
  }
}

TEST(JsonReportRead, ReadsEveryStatusName) {
  for (Status s : {Status::kPass, Status::kFail, Status::kWarn, Status::kSkip, Status::kError,
                   Status::kNotRun, Status::kUntested}) {
    Status back = s == Status::kPass ? Status::kFail : Status::kPass;
    EXPECT_TRUE(result::ParseStatus(result::StatusName(s), &back)) << result::StatusName(s);
    EXPECT_EQ(back, s);
  }
  Status untouched = Status::kWarn;
  EXPECT_FALSE(result::ParseStatus("passed", &untouched));
  EXPECT_FALSE(result::ParseStatus("", &untouched));
  EXPECT_EQ(untouched, Status::kWarn);
}

// The report of RichRun with `from` replaced by `to` (which must occur).
std::string Edited(const std::string& from, const std::string& to) {
  std::string text = JsonReport(RichRun());
  auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

TEST(JsonReportRead, RefusesWhatIsNotAReportAtItsPointer) {
  struct Case {
    std::string text, where;
  };
  for (const Case& c : std::vector<Case>{
           {Edited(R"("status":"pass")", R"("status":"passed")"), "/scenarios/0/status"},
           {Edited(R"("protocol":"rim-v1",)", ""), "/protocol: missing"},
           {Edited(R"("level":"must")", R"("level":"could")"), "level"},
           {Edited(R"("reason":"plugin-exited")", R"("reason":"gone")"), "/reason"},
           {Edited(R"("strict":true)", R"("strict":"yes")"), "/strict"},
           {Edited(R"("direction":"host-to-plugin")", R"("direction":"sideways")"), "/direction"},
           {Edited(R"("failures":[)", R"("failures":7,"x":[)"), "/failures: expected an array"},
           {"[]", "expected a JSON object"},
       }) {
    result::RunReport r;
    std::string error;
    EXPECT_FALSE(ParseJsonReport(c.text, &r, &error)) << c.where;
    EXPECT_NE(error.find(c.where), std::string::npos) << error;
  }
}

// report merge groups causes as the run did: the reasons it reads back say the same.
TEST(JsonReportRead, KeepsWhatCausedWhatThroughAReadBack) {
  result::RunReport original = RichRun();
  result::ScenarioResult& r = original.scenarios[0];
  result::Failure step;
  step.check = "step";
  step.step = 2;
  step.reason = result::Reason::kFramingLost;
  result::Failure framing;
  framing.check = "framing";
  framing.frame = 0;
  framing.reason = result::Reason::kFramingLost;
  r.failures = {step, framing};
  r.status = Status::kFail;
  std::string text = JsonReport(original);
  EXPECT_NE(text.find(R"("caused_by":1)"), std::string::npos);
  result::RunReport back;
  std::string error;
  ASSERT_TRUE(ParseJsonReport(text, &back, &error)) << error;
  EXPECT_EQ(CausedBy(back.scenarios[0]), CausedBy(r));
  // A report written before failures had a reason reads back with none that explains another.
  std::string old = text;
  for (auto at = old.find(R"("reason":"framing-lost",)"); at != std::string::npos;
       at = old.find(R"("reason":"framing-lost",)"))
    old.erase(at, std::string(R"("reason":"framing-lost",)").size());
  ASSERT_TRUE(ParseJsonReport(old, &back, &error)) << error;
  EXPECT_EQ(back.scenarios[0].failures[0].reason, result::Reason::kCheckFired);
}

TEST(JsonReportRead, NamesTheFileAndLineOfBrokenJson) {
  auto path = (std::filesystem::temp_directory_path() / "fakehost-report-read-test.json").string();
  std::ofstream(path) << "{\n  \"tool\": {,\n}";
  result::RunReport r;
  std::string error;
  EXPECT_FALSE(ReadJsonReport(path, &r, &error));
  EXPECT_EQ(error.rfind(path + ":2:", 0), 0u) << error;
  std::remove(path.c_str());
  EXPECT_FALSE(ReadJsonReport(path, &r, &error));
  EXPECT_NE(error.find(path), std::string::npos) << error;
}

}  // namespace
}  // namespace fakehost::report
