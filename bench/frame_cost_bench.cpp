// The cost of one large frame (issue 31: "A 6 MB tools/list of 100,000 tools is validated and
// matched in under 2 s of CPU"): an MCP tools/list answer of N tools, parsed, validated against
// the frame schema's tools/list response, and matched by the suite's tools/ patterns ($unique on
// the names, $each over the input schemas). Single core; the time per iteration is the frame's.
// Before $unique hashed, tools/names-are-unique compared the names pairwise: 41 s of CPU for
// 100,000 tools.
#include <benchmark/benchmark.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "harness/json/json.hpp"
#include "harness/scenario/matcher.hpp"
#include "harness/schema/schema.hpp"

namespace {

using fakehost::schema::FrameSchema;

std::string ToolsList(std::int64_t n) {
  std::string text = R"({"jsonrpc":"2.0","id":2,"result":{"tools":[)";
  for (std::int64_t i = 0; i < n; ++i)
    text += (i ? "," : "") + std::string(R"({"name":"tool_)") + std::to_string(i) +
            R"(","inputSchema":{"type":"object"}})";
  return text + "]}}";
}

const FrameSchema& McpSchema() {
  static std::unique_ptr<FrameSchema> schema = [] {
    std::string error;
    auto s = FrameSchema::Load(
        std::string(FAKEHOST_SOURCE_DIR) + "/schema/mcp-stdio/plugin-protocol-v1.schema.json",
        &error);
    if (!s) throw std::runtime_error(error);
    return s;
  }();
  return *schema;
}

rapidjson::Document Pattern(const char* text) {
  rapidjson::Document d;
  if (!fakehost::json::Parse(text, &d).ok) throw std::runtime_error(text);
  return d;
}

void ParseValidateMatch(benchmark::State& state) {
  const std::string frame = ToolsList(state.range(0));
  const FrameSchema& schema = McpSchema();
  const std::string def =
      fakehost::schema::RouteDef(schema, fakehost::schema::FrameKind::kResponse, "tools/list");
  const rapidjson::Document unique = Pattern(R"({"tools": {"$unique": "/name"}})");
  const rapidjson::Document each =
      Pattern(R"({"tools": {"$each": {"inputSchema": {"type": "object"}}}})");
  rapidjson::Document doc;
  for (auto _ : state) {
    if (!fakehost::json::Parse(frame, &doc).ok) return state.SkipWithError("parse");
    if (!schema.Validate(def, doc).empty()) return state.SkipWithError("invalid");
    const rapidjson::Value* result = fakehost::json::Find(doc, "result");
    if (!fakehost::scenario::Match(unique, result, nullptr) ||
        !fakehost::scenario::Match(each, result, nullptr))
      return state.SkipWithError("no match");
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * frame.size()));
  state.counters["frame_MB"] = static_cast<double>(frame.size()) / 1e6;
}

BENCHMARK(ParseValidateMatch)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
