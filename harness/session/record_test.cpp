// What a session keeps: transcript entries and findings within their caps.
#include "harness/session/record.hpp"

#include <gtest/gtest.h>

namespace fakehost::session {
namespace {

result::TranscriptEntry Entry(std::string text) {
  result::TranscriptEntry e;
  e.kind = result::EntryKind::kNotification;
  e.size = text.size();
  e.text = std::move(text);
  e.notes = {"one", "two", "three"};
  return e;
}

TEST(TranscriptLog, NumbersEveryFrameWhetherItKeepsItOrNot) {
  TranscriptLog log({/*text_bytes=*/1000, /*entries=*/3});
  for (int i = 0; i < 5; ++i) EXPECT_EQ(log.Record(Entry("x")), static_cast<std::size_t>(i));
  EXPECT_EQ(log.next_frame(), 5u);
  ASSERT_EQ(log.entries().size(), 3u);
  EXPECT_EQ(log.entries()[2].kind, result::EntryKind::kTally);
  EXPECT_EQ(log.entries()[2].size, 3u) << "the tally counts the bytes of the frames it holds";
  EXPECT_EQ(log.Entry(1)->index, 1u);
  EXPECT_EQ(log.Entry(2), nullptr);
  EXPECT_EQ(log.Entry(4), nullptr);
}

TEST(TranscriptLog, SummarisesPastItsTextBudgetAndTalliesPastTwiceIt) {
  TranscriptLog log({/*text_bytes=*/100, /*entries=*/100});
  log.Record(Entry(std::string(80, 'a')));
  log.Record(Entry(std::string(80, 'b')));
  ASSERT_EQ(log.entries().size(), 2u);
  EXPECT_FALSE(log.entries()[0].summarised);
  EXPECT_TRUE(log.entries()[1].summarised);
  EXPECT_TRUE(log.entries()[1].text.empty());
  EXPECT_EQ(log.entries()[1].notes.size(), 2u);
  for (int i = 0; i < 40; ++i) log.Record(Entry(std::string(80, 'c')));
  EXPECT_EQ(log.entries().back().kind, result::EntryKind::kTally);
}

TEST(TranscriptLog, NotesAnEntryButNeverATalliedFrame) {
  TranscriptLog log({/*text_bytes=*/1000, /*entries=*/2});
  log.Record(Entry("x"));
  log.Record(Entry("y"));
  log.Note(0, "answered");
  log.Note(1, "lost");
  EXPECT_EQ(log.entries()[0].notes.back(), "answered");
  EXPECT_NE(log.entries()[1].notes.back(), "lost");
}

TEST(FindingLog, ListsAFewPerCheckAndCountsTheRestInOne) {
  FindingLog log(2);
  for (std::size_t i = 0; i < 5; ++i) log.Raise({result::Severity::kMust, "schema", "bad", i});
  log.Raise({result::Severity::kMust, "framing", "cut", 9});
  ASSERT_EQ(log.findings().size(), 4u);
  EXPECT_EQ(log.findings()[2].message,
            "3 more schema findings after the first 2 are not listed (the last on frame #4)");
  EXPECT_FALSE(log.findings()[2].frame.has_value());
  EXPECT_EQ(log.findings()[3].check, "framing");
}

}  // namespace
}  // namespace fakehost::session
