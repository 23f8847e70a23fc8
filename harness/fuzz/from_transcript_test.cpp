#include "harness/fuzz/from_transcript.hpp"

#include <gtest/gtest.h>

#include "harness/fuzz/test_support.hpp"
#include "harness/scenario/loader.hpp"

namespace fakehost::fuzz {
namespace {

// A RIM session as `run --transcripts` writes it (each payload as received, in `text`):
// handshake, a command, the plugin's own call answered by the host, an odd raw write, an answer
// to nobody, and the shutdown.
const char* kTranscript =
    R"({"index":0,"direction":"host-to-plugin","t_ms":0.1,"kind":"request","method":"rim.handshake","id":"1","size":80,"text":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"rim.handshake\",\"params\":{\"protocolVersion\":1}}","schema_def":"rim.handshake.request"}
{"index":1,"direction":"plugin-to-host","t_ms":3.2,"kind":"response","method":"rim.handshake","id":"1","size":86,"text":"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"accepted\":true,\"protocolVersion\":1,\"pluginId\":\"x\"}}"}
{"index":2,"direction":"host-to-plugin","t_ms":4,"kind":"request","method":"rim.command.execute","id":"\"c-1\"","size":85,"text":"{\"jsonrpc\":\"2.0\",\"id\":\"c-1\",\"method\":\"rim.command.execute\",\"params\":{\"commandId\":\"\"}}","schema_def":"rim.command.execute.request","violations":[{"pointer":"/params/commandId","message":"shorter than 1"}]}
{"index":3,"direction":"plugin-to-host","t_ms":5,"kind":"request","method":"rim.log","id":"\"call-1\"","size":90,"text":"{\"jsonrpc\":\"2.0\",\"id\":\"call-1\",\"method\":\"rim.log\",\"params\":{\"level\":\"info\",\"message\":\"m\"}}"}
{"index":4,"direction":"host-to-plugin","t_ms":5.5,"kind":"response","method":"rim.log","id":"\"call-1\"","size":52,"text":"{\"jsonrpc\":\"2.0\",\"id\":\"call-1\",\"result\":{\"ok\":true}}"}
{"index":5,"direction":"plugin-to-host","t_ms":6,"kind":"response","method":"rim.command.execute","id":"\"c-1\"","size":68,"text":"{\"jsonrpc\":\"2.0\",\"id\":\"c-1\",\"error\":{\"code\":-32602,\"message\":\"bad\"}}"}
{"index":6,"direction":"host-to-plugin","t_ms":7,"kind":"raw","size":3,"text":"\u0000\u0001\u0002"}
{"index":7,"direction":"plugin-to-host","t_ms":8,"kind":"response","id":"99","size":37,"text":"{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}"}
{"index":8,"direction":"host-to-plugin","t_ms":9,"kind":"notification","method":"rim.shutdown","size":41,"text":"{\"jsonrpc\":\"2.0\",\"method\":\"rim.shutdown\"}"}
{"index":9,"direction":"plugin-to-host","t_ms":10,"kind":"notification","method":"rim.log","size":48,"text":"{\"jsonrpc\":\"2.0\",\"method\":\"rim.log\",\"params\":{}}"}
)";

TEST(FromTranscript, TurnsHostFramesIntoStepsAndPluginFramesIntoLooseExpectations) {
  testing::Protocol p = testing::LoadProtocol("rim-v1");
  ASSERT_TRUE(p.profile);
  std::string yaml, error;
  ASSERT_TRUE(ScenarioFromTranscript(kTranscript, "t.jsonl", *p.profile, &yaml, &error)) << error;
  auto has = [&](const std::string& s) { return yaml.find(s) != std::string::npos; };
  EXPECT_TRUE(
      has(R"({"send":{"id":1,"method":"rim.handshake","params":{"protocolVersion":1}},"as":"r1"})"))
      << yaml;
  EXPECT_TRUE(has(
      R"({"expect":{"reply_to":"r1","result":{"accepted":{"$type":"boolean"},"protocolVersion":{"$type":"integer"},"pluginId":{"$type":"string"}}}})"))
      << yaml;
  EXPECT_TRUE(has(R"("as":"r2","invalid":true})")) << yaml;  // sent invalid, marked so
  EXPECT_TRUE(has(R"({"expect":{"request":"rim.log"},"as":"p3","reply":{"result":{"ok":true}}})"))
      << yaml;
  EXPECT_TRUE(has(R"({"expect":{"reply_to":"r2","error":{"code":-32602}}})")) << yaml;
  EXPECT_TRUE(has(R"({"send_raw":{"hex":"000102","framed":false}})")) << yaml;
  EXPECT_TRUE(has("# plugin entry #7 (response) answers no request the host sent")) << yaml;
  EXPECT_TRUE(has(R"({"shutdown":{}})")) << yaml;
  EXPECT_FALSE(has("jsonrpc")) << yaml;       // the profile adds it
  EXPECT_FALSE(has("notification")) << yaml;  // nothing after the shutdown
  scenario::Scenario sc;
  std::vector<scenario::LoadError> errors;
  EXPECT_TRUE(scenario::LoadScenarioText(yaml, "t.yaml", "t", {}, &sc, &errors))
      << (errors.empty() ? "" : errors.front().ToString());
  EXPECT_EQ(FirstHostMethod(kTranscript), "rim.handshake");
}

// Plugin text stays text: a C1 control (U+009B, a terminal's CSI), DEL and U+FEFF in a frame are
// written as \u escapes, so the scenario is valid UTF-8 that YAML loads, holding the same text.
TEST(FromTranscript, WritesControlsAsEscapesSoTheScenarioLoads) {
  testing::Protocol p = testing::LoadProtocol("rim-v1");
  ASSERT_TRUE(p.profile);
  const std::string transcript =
      R"({"index":0,"direction":"host-to-plugin","t_ms":0.1,"kind":"request","method":"rim.handshake","id":"1","size":10,"text":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"rim.handshake\",\"params\":{\"note\":\"a\\u009b31m\\u007fb\\ufeffc\\u0085d\"}}"})"
      "\n";
  std::string yaml, error;
  ASSERT_TRUE(ScenarioFromTranscript(transcript, "t\x9b.jsonl", *p.profile, &yaml, &error))
      << error;
  EXPECT_NE(yaml.find(R"("note":"a\u009b31m\u007fb\ufeffc)"), std::string::npos) << yaml;
  EXPECT_EQ(yaml.find("\xc2\x9b"), std::string::npos) << yaml;
  scenario::Scenario sc;
  std::vector<scenario::LoadError> errors;
  ASSERT_TRUE(scenario::LoadScenarioText(yaml, "t.yaml", "t", {}, &sc, &errors))
      << (errors.empty() ? "" : errors.front().ToString());
}

TEST(FromTranscript, RefusesALineThatIsNotATranscriptEntry) {
  testing::Protocol p = testing::LoadProtocol("rim-v1");
  ASSERT_TRUE(p.profile);
  std::string yaml, error;
  EXPECT_FALSE(ScenarioFromTranscript("{\"index\":0}\n", "bad.jsonl", *p.profile, &yaml, &error));
  EXPECT_EQ(error,
            "bad.jsonl:1:1: not a transcript line (a JSON object with index, direction and a "
            "kind schema/report.schema.json names; written by run --transcripts?)");
  EXPECT_FALSE(
      ScenarioFromTranscript("{\"index\":0,\"direction\":\"host-to-plugin\",\"kind\":\"frame\"}\n",
                             "odd.jsonl", *p.profile, &yaml, &error));
  EXPECT_EQ(error,
            "odd.jsonl:1:1: not a transcript line (kind 'frame' is not one that "
            "schema/report.schema.json names)");
  EXPECT_FALSE(ScenarioFromTranscript(
      R"({"index":0,"direction":"host-to-plugin","t_ms":0,"kind":"raw","size":0,"frame":{}})"
      "\n",
      "old.jsonl", *p.profile, &yaml, &error));
  EXPECT_EQ(error.rfind("old.jsonl:1:1: written by an older fakehost", 0), 0u) << error;
  EXPECT_FALSE(ScenarioFromTranscript("\n", "empty.jsonl", *p.profile, &yaml, &error));
}

// Issue 20: RapidJSON's recursive parser overflowed the stack on a line nested a million deep.
// Every line, and every payload, goes through json::Parse, whose depth is capped.
TEST(FromTranscript, RefusesALineNestedAMillionDeepWithoutCrashing) {
  testing::Protocol p = testing::LoadProtocol("rim-v1");
  ASSERT_TRUE(p.profile);
  const std::string start =
      R"({"index":0,"direction":"host-to-plugin","t_ms":0,"kind":"request","size":2000000,)";
  std::string deep =
      start + "\"notes\":" + std::string(1000000, '[') + std::string(1000000, ']') + "}\n";
  std::string yaml, error;
  EXPECT_FALSE(ScenarioFromTranscript(deep, "deep.jsonl", *p.profile, &yaml, &error));
  EXPECT_EQ(error.rfind("deep.jsonl:1:", 0), 0u) << error;
  EXPECT_NE(error.find("nesting deeper than"), std::string::npos) << error;
  EXPECT_EQ(FirstHostMethod(deep), "");
  std::string deep_payload =
      start + "\"text\":\"" + std::string(1000000, '[') + std::string(1000000, ']') + "\"}\n";
  EXPECT_EQ(FirstHostMethod(deep_payload), "");
}

TEST(FromTranscript, ReadsAFrameNestedAsDeepAsASessionAccepts) {
  // 128 levels is the session's cap for a frame (json::ParseLimits): the payload is parsed as
  // the session parsed it, so a frame it accepted is read, and one level more is not a frame.
  std::string params = std::string(127, '[') + std::string(127, ']');
  const std::string start =
      R"({"index":0,"direction":"host-to-plugin","t_ms":0,"kind":"notification","size":9,)";
  std::string line = start + R"("text":"{\"method\":\"m\",\"params\":)" + params + "}\"}\n";
  EXPECT_EQ(FirstHostMethod(line), "m");
  std::string deeper = start + R"("text":"{\"method\":\"m\",\"params\":[)" + params + "]}\"}\n";
  EXPECT_EQ(FirstHostMethod(deeper), "");
}

}  // namespace
}  // namespace fakehost::fuzz
