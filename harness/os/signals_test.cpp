#include "harness/os/signals.hpp"

#include <gtest/gtest.h>

#include <csignal>

namespace fakehost::os {
namespace {

TEST(Signals, ReadsANameWithOrWithoutSigAndANumber) {
  EXPECT_EQ(SignalNumber("TERM"), SIGTERM);
  EXPECT_EQ(SignalNumber("SIGTERM"), SIGTERM);
  EXPECT_EQ(SignalNumber("15"), 15);
  EXPECT_EQ(SignalNumber("WINCH"), SIGWINCH);
}

TEST(Signals, RefusesWhatNamesNoSignal) {
  EXPECT_EQ(SignalNumber("TERMINATE"), 0);
  EXPECT_EQ(SignalNumber(""), 0);
  EXPECT_EQ(SignalNumber("0"), 0);
  EXPECT_EQ(SignalNumber("65"), 0);
  EXPECT_EQ(SignalNumber("-9"), 0);
  EXPECT_EQ(SignalNumber("SIG"), 0);
}

TEST(Signals, PrintsEveryNameItReadsTheSameWay) {
  for (const char* name : {"HUP", "INT", "KILL", "TERM", "WINCH", "USR1", "XFSZ", "IO"})
    EXPECT_EQ(SignalName(SignalNumber(name)), std::string("SIG") + name);
  EXPECT_EQ(SignalName(34), "signal 34");
}

}  // namespace
}  // namespace fakehost::os
