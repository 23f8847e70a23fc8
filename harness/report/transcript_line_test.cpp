// A transcript entry through its line and back (TranscriptLine, ParseTranscriptLine): the
// payload's bytes exactly as received, whatever they hold, and lines of an older fakehost refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/report/json_report_read.hpp"
#include "harness/report/reporter.hpp"

namespace fakehost::report {
namespace {

using result::EntryKind;
using result::TranscriptEntry;

TranscriptEntry Entry(std::string payload, EntryKind kind = EntryKind::kRequest) {
  TranscriptEntry e;
  e.index = 7;
  e.direction = result::Direction::kPluginToHost;
  e.t_ms = 12.345;
  e.kind = kind;
  e.method = "rim.log";
  e.id = "\"a-1\"";
  e.size = payload.size();
  e.text = std::move(payload);
  e.schema_def = "rim.log.request";
  e.violations = {{"/params/level", "not one of the allowed values"}, {"", "whole frame"}};
  e.notes = {"answers #3 after 12 ms"};
  return e;
}

TranscriptEntry RoundTrip(const TranscriptEntry& e) {
  TranscriptEntry back;
  std::string error;
  EXPECT_TRUE(ParseTranscriptLine(TranscriptLine(e), &back, &error)) << error;
  return back;
}

void ExpectSameEntry(const TranscriptEntry& back, const TranscriptEntry& e) {
  EXPECT_EQ(back.text, e.text);  // byte for byte
  EXPECT_EQ(back.index, e.index);
  EXPECT_EQ(back.direction, e.direction);
  EXPECT_EQ(back.t_ms, e.t_ms);
  EXPECT_EQ(back.kind, e.kind);
  EXPECT_EQ(back.method, e.method);
  EXPECT_EQ(back.id, e.id);
  EXPECT_EQ(back.size, e.size);
  EXPECT_EQ(back.clipped, e.clipped);
  EXPECT_EQ(back.summarised, e.summarised);
  EXPECT_EQ(back.schema_def, e.schema_def);
  ASSERT_EQ(back.violations.size(), e.violations.size());
  for (std::size_t i = 0; i < e.violations.size(); ++i) {
    EXPECT_EQ(back.violations[i].pointer, e.violations[i].pointer);
    EXPECT_EQ(back.violations[i].message, e.violations[i].message);
  }
  EXPECT_EQ(back.notes, e.notes);
}

// What a re-serialisation would change: number spellings, integers past 2^64, \u escapes,
// spacing, controls; and bytes that are no UTF-8 at all.
TEST(TranscriptLine, KeepsHostilePayloadsByteForByte) {
  const std::vector<std::string> valid = {
      R"({"jsonrpc":"2.0","id":1E2,"result":{"n":-0,"f":3.00}})",
      R"({"big":18446744073709551616,"bigger":-123456789012345678901234567890,"e":1e400})",
      R"({"s":"\u00e9\ud83d\ude00\u0000\"\\\/","k\u0041":1})",
      " {\"a\" :\t[ 1 , 2 ]\r\n}\n  ",
      std::string("{\"c\":\"\x1b]52;c;aGk=\x07\x7f\"}\x00 tail", 26),
      "{\"u\":\"\xe2\x80\xa8 \xef\xbb\xbf \xf0\x9f\x98\x80\"}",
      "",
  };
  for (const std::string& payload : valid) {
    TranscriptEntry e = Entry(payload);
    std::string line = TranscriptLine(e);
    EXPECT_NE(line.find("\"text\":"), std::string::npos) << line;
    EXPECT_EQ(line.find("\"base64\""), std::string::npos) << line;
    ExpectSameEntry(RoundTrip(e), e);
  }
  // Nothing re-spelled: the payload is in the line as it came, only JSON-string escaped.
  EXPECT_NE(TranscriptLine(Entry(valid[0])).find(R"(\"id\":1E2,)"), std::string::npos);
  const std::vector<std::string> not_utf8 = {
      "{\"s\":\"\xff\xfe\"}",
      "{\"cut\":\"\xc3",                       // clipped in a character
      "{\"s\":\"\xed\xa0\x80\"}",              // a surrogate, encoded
      "{\"s\":\"\xc0\xaf\"}",                  // an overlong '/'
      std::string("\x00\x00\x10\x00\x80", 5),  // a length prefix and a stray byte
  };
  for (const std::string& payload : not_utf8) {
    TranscriptEntry e = Entry(payload, EntryKind::kNotJson);
    e.clipped = true;
    std::string line = TranscriptLine(e);
    EXPECT_NE(line.find("\"base64\":"), std::string::npos) << line;
    EXPECT_EQ(line.find("\"text\""), std::string::npos) << line;
    ExpectSameEntry(RoundTrip(e), e);
  }
}

TEST(TranscriptLine, KeepsATenMebibyteLine) {
  std::string payload = "{\"data\":\"";
  while (payload.size() < std::size_t{10} * 1024 * 1024) payload += "ab\\u00e9 \xc3\xa9\\n1E2 ";
  payload += "\"}";
  TranscriptEntry e = Entry(payload);
  ExpectSameEntry(RoundTrip(e), e);
  e.text.back() = '\xff';
  ExpectSameEntry(RoundTrip(e), e);
}

TEST(TranscriptLine, RefusesALineOfAnOlderFakehostOnce) {
  const std::string start = R"({"index":0,"direction":"plugin-to-host","t_ms":1,"kind":"response")";
  for (const std::string& old :
       {start + R"(,"size":2,"frame":{}})", start + R"(,"size":2,"raw_base64":"e30="})",
        start + R"(,"size":2,"text":"{}","validation":{"valid":true}})"}) {
    TranscriptEntry e;
    std::string error;
    EXPECT_FALSE(ParseTranscriptLine(old, &e, &error)) << old;
    EXPECT_EQ(error.rfind("1: written by an older fakehost (it has `", 0), 0u) << error;
    EXPECT_NE(error.find("`): write the transcripts again with run --transcripts"),
              std::string::npos)
        << error;
  }
}

// A line is read whole, so its length is capped before it is parsed (file:line says which).
TEST(TranscriptLine, RefusesALineOverItsCapBeforeParsingIt) {
  std::string line = R"({"index":0,"direction":"plugin-to-host","t_ms":1,"kind":"raw","size":1,)";
  line += R"("text":")" + std::string(kTranscriptLineCap, 'a') + R"("})";
  TranscriptEntry e;
  std::string error;
  EXPECT_FALSE(ParseTranscriptLine(line, &e, &error));
  EXPECT_EQ(
      error.rfind("1: a line of " + std::to_string(line.size()) + " bytes, over the 32 MiB", 0), 0u)
      << error.substr(0, 200);
}

TEST(TranscriptLine, RefusesALineNotAsItIsWritten) {
  const std::string start = R"({"index":0,"direction":"plugin-to-host","t_ms":1,"kind":"raw")";
  struct Case {
    std::string line, error;
  };
  for (const Case& c : std::vector<Case>{
           {start + R"(,"size":2,"text":"{}","base64":"e30="})",
            "1: not a transcript line: /: holds both text and base64"},
           {start + R"(,"size":2})", "1: not a transcript line: /: holds neither text nor base64"},
           {start + R"(,"size":2,"base64":"e3!="})", "1: not a transcript line: /base64: "},
           {start + R"(,"text":"{}"})", "1: not a transcript line: /size: missing"},
           {start + R"(,"size":-1})", "1: not a transcript line: /size: expected an integer"},
           {start + R"(,"size":1,"text":"a","violations":[{"pointer":"/a"}]})",
            "1: not a transcript line: /violations/0/message: missing"},
           {R"({"index":0,"direction":"up","kind":"raw"})", "1: not a transcript line (a JSON"},
           {R"({"index":0,"direction":"up")", "28: missing a comma"},
       }) {
    TranscriptEntry e;
    std::string error;
    EXPECT_FALSE(ParseTranscriptLine(c.line, &e, &error)) << c.line;
    EXPECT_EQ(error.rfind(c.error, 0), 0u) << error;
  }
}

}  // namespace
}  // namespace fakehost::report
