#include "harness/scenario/duration.hpp"

#include <gtest/gtest.h>

namespace fakehost::scenario {
namespace {

using std::chrono::milliseconds;

milliseconds Parsed(std::string_view text) {
  milliseconds out{-1};
  std::string error;
  EXPECT_TRUE(ParseDuration(text, &out, &error)) << text << ": " << error;
  return out;
}

std::string Refused(std::string_view text) {
  milliseconds out{-1};
  std::string error;
  EXPECT_FALSE(ParseDuration(text, &out, &error)) << text;
  EXPECT_EQ(out, milliseconds(-1)) << "a refused duration must leave the output alone";
  return error;
}

TEST(ParseDuration, ReadsEachUnit) {
  EXPECT_EQ(Parsed("250ms"), milliseconds(250));
  EXPECT_EQ(Parsed("10s"), milliseconds(10'000));
  EXPECT_EQ(Parsed("2m"), milliseconds(120'000));
  EXPECT_EQ(Parsed("1h"), milliseconds(3'600'000));
  EXPECT_EQ(Parsed("0s"), milliseconds(0));
}

TEST(ParseDuration, ReadsFractionsThatAreWholeMilliseconds) {
  EXPECT_EQ(Parsed("1.5s"), milliseconds(1500));
  EXPECT_EQ(Parsed("0.001s"), milliseconds(1));
  EXPECT_EQ(Parsed("0.5m"), milliseconds(30'000));
  EXPECT_EQ(Parsed("1.000000000000000000000s"), milliseconds(1000));
  EXPECT_NE(Refused("1.5ms").find("not a whole number of milliseconds"), std::string::npos);
  EXPECT_NE(Refused("0.0001s").find("not a whole number of milliseconds"), std::string::npos);
  EXPECT_NE(Refused("0.0000000001h").find("not a whole number"), std::string::npos);
}

TEST(ParseDuration, AcceptsExactlyTheUpperBound) {
  EXPECT_EQ(Parsed("3600000ms"), kMaxDuration);
  EXPECT_EQ(Parsed("60m"), kMaxDuration);
  EXPECT_NE(Refused("3600001ms").find("longer than 1h"), std::string::npos);
  EXPECT_NE(Refused("1.001h").find("longer than 1h"), std::string::npos);
}

TEST(ParseDuration, RefusesHugeValuesWithoutOverflowing) {
  EXPECT_NE(Refused("3000000h").find("longer than 1h"), std::string::npos);
  EXPECT_NE(Refused("100000h").find("longer than 1h"), std::string::npos);
  EXPECT_NE(Refused("99999999999999999999ms").find("longer than 1h"), std::string::npos);
  // 2^64 / 3.6e6 h would wrap to a small value with unchecked arithmetic.
  EXPECT_NE(Refused("5124095576030431h").find("longer than 1h"), std::string::npos);
  EXPECT_NE(Refused(std::string(5000, '9') + "h").find("longer than 1h"), std::string::npos);
}

TEST(ParseDuration, RefusesEverythingOutsideTheGrammar) {
  for (const char* text :
       {"",    "s",    "10",  "-1s",  "+1s", "1e3ms", "1E3ms", "1 s",   " 1s",    "1s ", "1.s",
        ".5s", "1,5s", "nan", "infs", "1S",  "1sec",  "1d",    "0x10s", "1.5.5s", "1hh"}) {
    const std::string error = Refused(text);
    EXPECT_NE(error.find("bad duration '" + std::string(text) + "'"), std::string::npos) << error;
  }
}

TEST(ParseDuration, StatesTheGrammarAndTheBoundInEveryError) {
  for (const char* text : {"1e3ms", "2h", "1.5ms", "10"}) {
    const std::string error = Refused(text);
    EXPECT_NE(error.find("a non-negative decimal number and a unit (ms, s, m or h)"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("at most 1h"), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace fakehost::scenario
