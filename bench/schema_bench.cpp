// What the session does with every frame a plugin sends: json::Parse, route to a $defs entry,
// validate against the protocol's schema. Single core, typical frames of each protocol; the
// reported items/s are frames/s. The schemas are read from the source tree.
#include <benchmark/benchmark.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "harness/json/json.hpp"
#include "harness/schema/schema.hpp"

namespace {

using fakehost::schema::FrameKind;
using fakehost::schema::FrameSchema;

const FrameSchema& Schema(const std::string& protocol) {
  static std::unique_ptr<FrameSchema> rim, flash;
  std::unique_ptr<FrameSchema>& slot = protocol == "rim-v1" ? rim : flash;
  if (slot == nullptr) {
    std::string error;
    slot = FrameSchema::Load(std::string(FAKEHOST_SOURCE_DIR) + "/schema/" + protocol +
                                 "/plugin-protocol-v1.schema.json",
                             &error);
    if (slot == nullptr) throw std::runtime_error(error);
  }
  return *slot;
}

// `answers` is the method of the request a response answers (the session knows it from its
// table of pending ids); requests and notifications route by their own method.
void ParseRouteValidate(benchmark::State& state, const char* protocol, const char* answers,
                        const char* text, bool expect_valid) {
  const FrameSchema& schema = Schema(protocol);
  const std::string frame(text);
  rapidjson::Document doc;
  for (auto _ : state) {
    const fakehost::json::ParseResult parsed = fakehost::json::Parse(frame, &doc);
    if (!parsed.ok) {
      state.SkipWithError(parsed.error.c_str());
      break;
    }
    const rapidjson::Value* method = fakehost::json::Find(doc, "method");
    const rapidjson::Value* id = fakehost::json::Find(doc, "id");
    std::string def;
    if (method != nullptr && method->IsString()) {
      const bool request = id != nullptr && !id->IsNull();
      def = fakehost::schema::RouteDef(
          schema, request ? FrameKind::kRequest : FrameKind::kNotification, method->GetString());
    } else {
      def = fakehost::schema::RouteDef(schema, FrameKind::kResponse, answers);
    }
    const auto violations = schema.Validate(def, doc);
    if (violations.empty() != expect_valid) {
      state.SkipWithError("unexpected verdict");
      break;
    }
    benchmark::DoNotOptimize(violations.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * frame.size()));
}

BENCHMARK_CAPTURE(ParseRouteValidate, rim_heartbeat_response, "rim-v1", "rim.heartbeat",
                  R"({"jsonrpc":"2.0","id":-1,"result":{}})", true);
BENCHMARK_CAPTURE(
    ParseRouteValidate, rim_command_result, "rim-v1", "rim.command.execute",
    R"({"jsonrpc":"2.0","id":2,"result":{"payload":[{"name":"api-7f9c","status":"Running"}],"message":"1 pod in prod"}})",
    true);
BENCHMARK_CAPTURE(
    ParseRouteValidate, rim_command_error, "rim-v1", "rim.command.execute",
    R"({"jsonrpc":"2.0","id":3,"error":{"code":-32002,"message":"kubectl failed: context not found"}})",
    true);
BENCHMARK_CAPTURE(
    ParseRouteValidate, rim_log, "rim-v1", "",
    R"({"jsonrpc":"2.0","method":"rim.log","params":{"level":"info","message":"k8stools starting"}})",
    true);
BENCHMARK_CAPTURE(
    ParseRouteValidate, rim_log_bad_level, "rim-v1", "",
    R"({"jsonrpc":"2.0","method":"rim.log","params":{"level":"verbose","message":"k8stools starting"}})",
    false);
BENCHMARK_CAPTURE(ParseRouteValidate, flash_ping_reply, "flash-v1", "ping",
                  R"({"id":7,"result":{"ok":true}})", true);
BENCHMARK_CAPTURE(
    ParseRouteValidate, flash_evaluate_reply, "flash-v1", "evaluate",
    R"({"id":12,"result":{"ok":true,"answers":[{"title":"4","subtitle":"2+2"},{"title":"0x4"}]}})",
    true);
BENCHMARK_CAPTURE(ParseRouteValidate, flash_perform_reply, "flash-v1", "perform",
                  R"({"id":20,"result":{"ok":true,"target_pid":812,"message":"switched to prod"}})",
                  true);
BENCHMARK_CAPTURE(ParseRouteValidate, flash_perform_unhandled, "flash-v1", "perform",
                  R"({"id":21,"result":{"ok":false,"unhandled":true}})", true);
BENCHMARK_CAPTURE(
    ParseRouteValidate, flash_log, "flash-v1", "",
    R"({"method":"log","params":{"level":"info","message":"catalog published","fields":{"rows":1},"trace":"a1b2"}})",
    true);
BENCHMARK_CAPTURE(ParseRouteValidate, flash_ping_reply_string_ok, "flash-v1", "ping",
                  R"({"id":7,"result":{"ok":"true"}})", false);

}  // namespace

BENCHMARK_MAIN();
