#include "harness/process/tail_buffer.hpp"

#include <gtest/gtest.h>

namespace fakehost::process {
namespace {

TEST(TailBuffer, KeepsEverythingUnderItsCap) {
  TailBuffer tail(8);
  tail.Append("abc");
  tail.Append("");
  tail.Append("defgh");
  EXPECT_EQ(tail.Text(), "abcdefgh");
  EXPECT_EQ(tail.dropped(), 0u);
}

TEST(TailBuffer, KeepsTheLastBytesAndCountsTheOnesBefore) {
  TailBuffer tail(8);
  tail.Append("abcdef");
  tail.Append("ghij");  // wraps round: "ab" is dropped
  EXPECT_EQ(tail.Text(), "cdefghij");
  EXPECT_EQ(tail.dropped(), 2u);
  for (char c = 'k'; c <= 'z'; ++c) tail.Append(std::string_view(&c, 1));
  EXPECT_EQ(tail.Text(), "stuvwxyz");
  EXPECT_EQ(tail.dropped(), 18u);
  tail.Append("0123456");  // wraps across the end of the ring
  EXPECT_EQ(tail.Text(), "z0123456");
  EXPECT_EQ(tail.dropped(), 25u);
}

TEST(TailBuffer, KeepsTheEndOfOneAppendLargerThanItsCap) {
  TailBuffer tail(4);
  tail.Append("ab");
  tail.Append("0123456789");
  EXPECT_EQ(tail.Text(), "6789");
  EXPECT_EQ(tail.dropped(), 8u);
  tail.Append("x");
  EXPECT_EQ(tail.Text(), "789x");
}

TEST(TailBuffer, WithCapZeroOnlyCounts) {
  TailBuffer tail(0);
  tail.Append("abc");
  EXPECT_EQ(tail.Text(), "");
  EXPECT_EQ(tail.dropped(), 3u);
}

}  // namespace
}  // namespace fakehost::process
