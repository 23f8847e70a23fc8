// Hostile scenario files: each is a LoadError placed at file:line:col, never a crash, a hang, an
// exception or unbounded memory. (Speed and memory are measured in the report, not asserted.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/json/text_file.hpp"
#include "harness/scenario/loader.hpp"

namespace fakehost::scenario {
namespace {

constexpr const char* kHead = "title: T\nspec: S\nrequirement: R\n";

// The first error loading `yaml` gives ("" if it loads).
std::string FirstError(const std::string& yaml) {
  Scenario scenario;
  std::vector<LoadError> errors;
  const bool ok = LoadScenarioText(yaml, "s.yaml", "s", {}, &scenario, &errors);
  EXPECT_EQ(ok, errors.empty());
  return errors.empty() ? "" : errors[0].ToString();
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

// 9 anchors, each a list of 9 aliases of the previous: 9^9 nodes once expanded.
std::string AliasBomb() {
  std::string yaml = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (char c = 'b'; c <= 'i'; ++c) {
    yaml += std::string(1, c) + ": &" + c + " [";
    for (int i = 0; i < 9; ++i) yaml += std::string(i ? ", " : "") + "*" + char(c - 1);
    yaml += "]\n";
  }
  return yaml;
}

TEST(HostileScenario, ALoneCommaIsASyntaxError) {
  EXPECT_PRED2(StartsWith, FirstError(","), "s.yaml:1:1: YAML syntax: ");
}

TEST(HostileScenario, AnInvalidByteInACommentIsAnEncodingError) {
  EXPECT_EQ(FirstError("#\xff\n,"),
            "s.yaml:1:2: the text is not valid UTF-8 YAML input: invalid leading UTF-8 octet "
            "(byte 0xFF)");
}

TEST(HostileScenario, InvalidUtf8InAValueIsAnEncodingError) {
  EXPECT_PRED2(StartsWith,
               FirstError(std::string(kHead) + "tags: [a\xc3(b]\nsteps: [sleep: 1ms]\n"),
               "s.yaml:4:10: the text is not valid UTF-8 YAML input: invalid trailing UTF-8 octet");
}

TEST(HostileScenario, AnAliasBombIsRefusedAtItsFirstAnchor) {
  EXPECT_PRED2(StartsWith, FirstError(AliasBomb()), "s.yaml:1:4: an anchor (&a) is not supported");
}

TEST(HostileScenario, AnAliasIsRefusedWhereItIsUsed) {
  EXPECT_PRED2(StartsWith, FirstError(std::string(kHead) + "steps:\n  - *step\n"),
               "s.yaml:5:5: an alias (*step) is not supported");
}

TEST(HostileScenario, AMapWhereAListBelongsIsAnErrorAtTheMap) {
  const std::string steps = "steps: [sleep: 1ms]\n";
  EXPECT_EQ(FirstError(std::string(kHead) + "requires: {a: /b}\n" + steps),
            "s.yaml:4:11: requires must be a list of JSON pointers into the manifest, {announced: "
            "POINTER} and {not_announced: POINTER}");
  EXPECT_EQ(FirstError(std::string(kHead) + "tags: {a: b}\n" + steps),
            "s.yaml:4:7: tags must be a list of strings");
  EXPECT_EQ(FirstError(std::string(kHead) + "steps: {sleep: 1ms}\n"),
            "s.yaml:4:8: steps must be a list (each item '- KIND: ...')");
  EXPECT_EQ(FirstError(std::string(kHead) +
                       "steps:\n  - for_each:\n      items: {a: b}\n      steps: [sleep: 1ms]\n"),
            "s.yaml:6:14: items must be a string, not a map");
  EXPECT_EQ(FirstError(std::string(kHead) +
                       "steps:\n  - for_each:\n      items: /a\n      steps: {sleep: 1ms}\n"),
            "s.yaml:7:14: steps must be a list (each item '- KIND: ...')");
}

TEST(HostileScenario, AListWhereAMapBelongsIsAnErrorAtTheList) {
  const std::string steps = "steps: [sleep: 1ms]\n";
  EXPECT_EQ(FirstError(std::string(kHead) + "host: [1, 2]\n" + steps),
            "s.yaml:4:7: host must be a map with replies: or after_handshake:");
  EXPECT_EQ(FirstError(std::string(kHead) + "vars: [1]\n" + steps),
            "s.yaml:4:7: vars must be a map of name: value");
  EXPECT_EQ(FirstError(std::string(kHead) + "steps:\n  - send: [1]\n"),
            "s.yaml:5:11: send takes a map: {method: ..., params: ...}");
  EXPECT_EQ(FirstError("[title, spec]\n"),
            "s.yaml:1:1: a scenario is a map with title, spec, requirement and steps");
}

TEST(HostileScenario, AnAbsurdRepeatIsRefusedBeforeItIsMultiplied) {
  EXPECT_PRED2(StartsWith,
               FirstError(std::string(kHead) +
                          "steps:\n  - send_raw: {text: ab, repeat: 9223372036854775807}\n"),
               "s.yaml:5:34: repeat must be between 1 and 67108864");
  // 4 * 2^62 wraps to 0 in 64 bits; 2^62 is within int64 but is refused for its product.
  EXPECT_PRED2(StartsWith,
               FirstError(std::string(kHead) +
                          "steps:\n  - send_raw: {text: abcd, repeat: 4611686018427387904}\n"),
               "s.yaml:5:36: repeat must be between 1 and 67108864");
  EXPECT_EQ(
      FirstError(std::string(kHead) + "steps:\n  - send_raw: {text: abcd, repeat: 16777217}\n"),
      "s.yaml:5:36: repeat 16777217 times 4 bytes is more than the 67108864 bytes (64 MiB) "
      "one send_raw may send");
}

TEST(HostileScenario, ASendRawOfExactlyTheMaximumLoads) {
  EXPECT_EQ(
      FirstError(std::string(kHead) + "steps:\n  - send_raw: {text: abcd, repeat: 16777216}\n"),
      "");
}

TEST(HostileScenario, AnAbsurdPadToOrChunkIsRefused) {
  EXPECT_PRED2(StartsWith,
               FirstError(std::string(kHead) +
                          "steps:\n  - send: {method: m}\n    pad_to: 9223372036854775807\n"),
               "s.yaml:6:13: pad_to must be between 1 and 67108864");
  EXPECT_PRED2(
      StartsWith,
      FirstError(std::string(kHead) + "steps:\n  - send_raw: {text: ab, chunk: 0, delay: 1ms}\n"),
      "s.yaml:5:33: chunk must be between 1 and 67108864");
}

TEST(HostileScenario, DurationsPastTheBoundAreRefused) {
  EXPECT_PRED2(StartsWith, FirstError(std::string(kHead) + "steps:\n  - sleep: 3000000h\n"),
               "s.yaml:5:12: sleep: bad duration '3000000h' (longer than 1h)");
  EXPECT_PRED2(StartsWith,
               FirstError(std::string(kHead) + "steps:\n  - sleep: 99999999999999999999ms\n"),
               "s.yaml:5:12: sleep: bad duration '99999999999999999999ms' (longer than 1h)");
  EXPECT_PRED2(StartsWith,
               FirstError(std::string(kHead) + "timeout: 100000h\nsteps: [sleep: 1ms]\n"),
               "s.yaml:4:10: timeout: bad duration '100000h' (longer than 1h)");
  EXPECT_PRED2(
      StartsWith,
      FirstError(std::string(kHead) + "steps:\n  - send_raw: {text: ab, chunk: 1, delay: 2h}\n"),
      "s.yaml:5:43: delay: bad duration '2h' (longer than 1h)");
}

TEST(HostileScenario, AFileOverTheInputCapIsRefusedBeforeParsing) {
  const std::string yaml =
      std::string(kHead) + "steps: [sleep: 1ms]\n#" + std::string(json::kInputFileCap, 'x') + "\n";
  EXPECT_EQ(FirstError(yaml), "s.yaml: larger than 1048576 bytes");
}

TEST(HostileScenario, DeepNestingStopsAtTheLimit) {
  EXPECT_EQ(FirstError("a: " + std::string(1000, '[')),
            "s.yaml:1:67: nesting deeper than 64 levels");
}

TEST(HostileScenario, ThousandsOfErrorsAreCutAfterAHundred) {
  std::string yaml = std::string(kHead) + "steps: [sleep: 1ms]\n";
  for (int i = 0; i < 5000; ++i) yaml += "k" + std::to_string(i) + ": 1\n";
  Scenario scenario;
  std::vector<LoadError> errors;
  EXPECT_FALSE(LoadScenarioText(yaml, "s.yaml", "s", {}, &scenario, &errors));
  ASSERT_EQ(errors.size(), kMaxLoadErrorsPerFile + 1);
  EXPECT_PRED2(StartsWith, errors[0].ToString(), "s.yaml:5:1: unknown key 'k0'");
  EXPECT_EQ(errors.back().ToString(), "s.yaml: and 4900 more errors not shown");
}

// Every input above, and a few more a fuzzer would try, loads to an error and returns.
TEST(HostileScenario, EveryHostileInputCompletesWithAnError) {
  const std::vector<std::string> inputs = {",",
                                           "#\xff\n,",
                                           "\xff",
                                           "\xef\xbb\xbf,",
                                           "]",
                                           "}",
                                           "- - - - ,",
                                           "{,",
                                           "[,",
                                           "? ? ? ,",
                                           ":",
                                           "&",
                                           "*",
                                           "!",
                                           "%YAML 1.2\n---\n,",
                                           "a: !<tag:x> b",
                                           "\t,",
                                           std::string(1, '\0'),
                                           "a: \"\\",
                                           "a: |\n\t",
                                           AliasBomb(),
                                           std::string(20000, '[') + std::string(20000, ']'),
                                           std::string(20000, '-') + " ,",
                                           "a: &x [*x]"};
  for (const std::string& yaml : inputs) {
    EXPECT_NE(FirstError(yaml), "") << ::testing::PrintToString(yaml);
  }
}

}  // namespace
}  // namespace fakehost::scenario
