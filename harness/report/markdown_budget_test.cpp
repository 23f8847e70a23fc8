// The Markdown summary is bounded as a whole (GitHub refuses a job summary above 1 MiB), not
// section by section, and says what it left out.
#include <gtest/gtest.h>

#include <limits>

#include "harness/report/reporter.hpp"
#include "harness/report/synthetic_run.hpp"
#include "harness/result/run_report.hpp"

namespace fakehost::report {
namespace {

using result::Status;

constexpr std::size_t kUnbounded = std::numeric_limits<std::size_t>::max();
constexpr const char* kNote = " more not shown here (size limit)";

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A run of `n` scenarios that pass (or skip, or are untested), each with a long title: the kind
// of run whose unbudgeted summary was 1.07 MB with no failure at all.
result::RunReport ManyQuiet(std::size_t n, Status status) {
  result::RunReport r;
  r.protocol = "rim-v1";
  r.protocol_title = "RIM plugin protocol v1";
  r.plugin.id = "dev.fakehost.reference";
  for (std::size_t i = 0; i < n; ++i) {
    result::ScenarioResult s;
    s.id = "section/scenario-" + std::to_string(i);
    s.title =
        "A title as long as a real requirement sentence can make it, " + std::string(200, 'x');
    s.status = status;
    s.skip_reason = status == Status::kUntested
                        ? "needs the trigger `notify`; add to fakehost.yaml:\n  triggers:\n    "
                          "notify: {method: my.notify}\n"
                        : "requires /capabilities/network";
    r.scenarios.push_back(std::move(s));
  }
  result::Summarise(&r);
  return r;
}

TEST(MarkdownBudget, ManyPassingUntestedOrSkippedScenariosStayUnderTheLimitAndSaySo) {
  for (Status status : {Status::kPass, Status::kUntested, Status::kSkip}) {
    result::RunReport r = ManyQuiet(20000, status);
    ASSERT_GT(MarkdownReport(r, kUnbounded).size(), kMarkdownBudget);  // it would not fit
    std::string md = MarkdownReport(r);
    EXPECT_LE(md.size(), kMarkdownBudget);
    EXPECT_EQ(Count(md, kNote), 1u);
    // The note's count and the entries shown add up to the run.
    std::size_t shown = Count(md, "`section/scenario-");
    std::size_t at = md.find(kNote);
    std::size_t start = md.rfind('*', at) + 1;
    EXPECT_EQ(shown + std::stoul(md.substr(start, at - start)), 20000u);
    if (status == Status::kPass) {
      EXPECT_NE(md.find("\n</details>\n"), std::string::npos);
    }
  }
}

// What a merge of many shards gives: thousands of failures with frames and stderr. The failures
// come first, so they are what is shown; every later section is cut to its heading and note.
TEST(MarkdownBudget, AMergeOfManyShardsStaysUnderTheLimitFailuresFirst) {
  result::RunReport r = SyntheticRun(20000, 12);
  std::string full = MarkdownReport(r, kUnbounded);
  ASSERT_GT(full.size(), 8 * kMarkdownBudget);
  std::string md = MarkdownReport(r);
  EXPECT_LE(md.size(), kMarkdownBudget);
  std::size_t failures = md.find("### Failures and errors");
  ASSERT_NE(failures, std::string::npos);
  EXPECT_NE(md.find(kNote, failures), std::string::npos);
  EXPECT_NE(md.find("### Warnings ("), std::string::npos);  // the heading stays, with its count
  EXPECT_NE(md.find("| passed | failed |"), std::string::npos);
  EXPECT_NE(md.find("passed</summary>"), std::string::npos);
}

// At the boundary: a budget of exactly the document's size cuts nothing; one byte less cuts
// whole entries and stays within the budget, and so does every budget down to a few KiB.
TEST(MarkdownBudget, ABudgetOfExactlyTheSizeCutsNothingAndOneByteLessCuts) {
  result::RunReport r = SyntheticRun(400, 6);
  std::string full = MarkdownReport(r, kUnbounded);
  EXPECT_EQ(full.find(kNote), std::string::npos);
  EXPECT_EQ(MarkdownReport(r, full.size()), full);
  std::string less = MarkdownReport(r, full.size() - 1);
  EXPECT_LE(less.size(), full.size() - 1);
  EXPECT_NE(less.find(kNote), std::string::npos);
  for (std::size_t budget = 16 * 1024; budget < full.size(); budget += 7919) {
    std::string md = MarkdownReport(r, budget);
    EXPECT_LE(md.size(), budget) << budget;
    EXPECT_NE(md.find(kNote), std::string::npos) << budget;
    EXPECT_EQ(Count(md, "<details>"), Count(md, "</details>")) << budget;
  }
}

// A field of a merged shard report can be of any length: the header's plugin id is clipped, so
// one field cannot take the document over the limit.
TEST(MarkdownBudget, AHugeFieldInTheHeaderIsClipped) {
  result::RunReport r = ManyQuiet(3, Status::kPass);
  r.plugin.id = std::string(3 * 1024 * 1024, 'i');
  r.plugin.version = std::string(3 * 1024 * 1024, 'v');
  r.protocol_title = std::string(3 * 1024 * 1024, 't');
  EXPECT_LE(MarkdownReport(r).size(), 4096u);
}

}  // namespace
}  // namespace fakehost::report
