#include "harness/text/printable.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace fakehost::text {
namespace {

TEST(Printable, ShowsTerminalControlsAsEscapes) {
  // ESC (a CSI), OSC 52 (set the clipboard) ended by BEL, CR, DEL and the C1 CSI (U+009B).
  EXPECT_EQ(Printable("a\x1b[2Jb"), "a\\x1b[2Jb");
  EXPECT_EQ(Printable("\x1b]52;c;aGk=\x07"), "\\x1b]52;c;aGk=\\x07");
  EXPECT_EQ(Printable("ok\rFAKE"), "ok\\x0dFAKE");
  EXPECT_EQ(Printable("x\x7fy"), "x\\x7fy");
  EXPECT_EQ(Printable("x\xc2\x9by"), "x\\x9by");
  EXPECT_EQ(Printable("a\nb"), "a\\x0ab");
  EXPECT_EQ(Printable("a\nb", true), "a\nb");
}

TEST(Printable, BreaksTheLegacyWorkflowCommandAnywhereInALine) {
  EXPECT_EQ(Printable("##[stop-commands]x"), "##\\x5bstop-commands]x");
  EXPECT_EQ(Printable("method ##[error]boom"), "method ##\\x5berror]boom");
  EXPECT_EQ(Printable("###[a] ##[b]"), "###\\x5ba] ##\\x5bb]");
  // A text ending in '#' cannot make "##[" with what is printed after it.
  EXPECT_EQ(Printable("id#"), "id\\x23");
  EXPECT_EQ(Printable("##"), "#\\x23");
  EXPECT_EQ(Printable("a # b"), "a # b");
}

TEST(Printable, BreaksACommandAtTheStartOfEveryLineItHolds) {
  EXPECT_EQ(Printable("::add-mask::secret"), "\\x3a:add-mask::secret");
  EXPECT_EQ(Printable("  ::stop-commands::t"), "  \\x3a:stop-commands::t");
  // The runner trims Unicode blanks too (here U+00A0 and U+3000).
  EXPECT_EQ(Printable("\xc2\xa0\xe3\x80\x80::error::x"), "\xc2\xa0\xe3\x80\x80\\x3a:error::x");
  EXPECT_EQ(Printable("ok\n::error::x\n\t::warning::y", true),
            "ok\n\\x3a:error::x\n\\x09::warning::y");
  // Not at a line's start: left alone, so ordinary text reads the same.
  EXPECT_EQ(Printable("a::b, key: value"), "a::b, key: value");
}

TEST(Printable, RepairsInvalidUtf8AndKeepsValidText) {
  EXPECT_EQ(Printable("\xff\xc0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(Printable("héllo → ✓ 🙂"), "héllo → ✓ 🙂");
  EXPECT_EQ(ValidUtf8("\xed\xa0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
}

// Whatever the input, no output line starts (after blanks) with "::" or holds "##[" or a
// control character: every byte from 0 to 255 in every position of a short window.
TEST(Printable, NoInputGivesAnOutputLineTheRunnerWouldActOn) {
  const std::string alphabet = std::string("#:[ \n\r\x1b\x07\xc2\xa0\x9b", 11) + "a";
  std::vector<std::string> inputs{""}, level{""};
  for (int len = 1; len <= 4; ++len) {
    std::vector<std::string> next;
    for (const auto& s : level)
      for (char c : alphabet) next.push_back(s + c);
    inputs.insert(inputs.end(), next.begin(), next.end());
    level = std::move(next);
  }
  for (const auto& in : inputs) {
    for (bool keep : {false, true}) {
      std::string out = Printable(in, keep);
      ASSERT_EQ(out.find("##["), std::string::npos) << in;
      for (unsigned char c : out) ASSERT_TRUE(c >= 0x20 || c == '\n') << in;
      std::size_t at = 0;
      while (at <= out.size()) {
        std::size_t nl = out.find('\n', at);
        std::string line = out.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
        std::size_t k = 0;
        while (k < line.size() && (line[k] == ' ' || line.compare(k, 2, "\xc2\xa0") == 0))
          k += line[k] == ' ' ? 1 : 2;
        ASSERT_NE(line.compare(k, 2, "::"), 0) << in;
        if (nl == std::string::npos) break;
        at = nl + 1;
      }
      // Glued after a "#" or "##" of ours, it still makes no "##[".
      ASSERT_EQ(("x" + out + "[").find("##["), std::string::npos) << in;
    }
  }
}

TEST(YamlSafeJson, EscapesWhatYamlRefusesAndKeepsTheRest) {
  EXPECT_EQ(YamlSafeJson("\"a\xc2\x9b\x7f\xef\xbb\xbf\xc2\x85\xc3\xa9\""),
            "\"a\\u009b\\u007f\\ufeff\xc2\x85\xc3\xa9\"");
  EXPECT_EQ(YamlSafeJson("\"\xff\""), "\"\xef\xbf\xbd\"");  // invalid: U+FFFD
  EXPECT_EQ(YamlSafeJson("{\"k\":1}"), "{\"k\":1}");
}

// The bytes after the text are never read: a sequence cut at its end is invalid even when the
// buffer goes on with the continuation bytes it lacks (a transcript entry is cut at a byte cap).
TEST(IsValidUtf8, JudgesOnlyItsOwnBytes) {
  const std::string buffer = "ab\xF1\x80\x80\x80";
  EXPECT_TRUE(IsValidUtf8(buffer));
  EXPECT_FALSE(IsValidUtf8(std::string_view(buffer).substr(0, 3)));
  EXPECT_FALSE(IsValidUtf8(std::string_view(buffer).substr(0, 5)));
  EXPECT_TRUE(IsValidUtf8("\xE2\x82\xAC and \xF0\x9F\x98\x80"));
  EXPECT_FALSE(IsValidUtf8("\xED\xA0\x80"));      // a surrogate
  EXPECT_FALSE(IsValidUtf8("\xC0\xAF"));          // overlong
  EXPECT_FALSE(IsValidUtf8("\xF4\x90\x80\x80"));  // past U+10FFFF
  EXPECT_TRUE(IsValidUtf8(std::string_view("a\0b", 3)));
}

}  // namespace
}  // namespace fakehost::text
