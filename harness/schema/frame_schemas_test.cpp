// Every protocol's frame schema (schema/<protocol>/plugin-protocol-v1.schema.json, for each
// protocol of the source tree: protocol/registry.hpp), checked entry by entry against its own
// examples. Paths are relative to the repo root, where CTest
// runs the tests.
#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "harness/json/json.hpp"
#include "harness/protocol/registry.hpp"
#include "harness/schema/schema.hpp"

namespace fakehost::schema {
namespace {

const std::vector<std::string> kProtocols = protocol::ProtocolNames(".");

std::string SchemaPath(const std::string& protocol) {
  return "schema/" + protocol + "/plugin-protocol-v1.schema.json";
}

struct Loaded {
  std::unique_ptr<FrameSchema> schema;
  std::string error;
};

// Each file is loaded once per process (a function-local static, so test discovery also sees
// the entry names).
const Loaded& Get(const std::string& protocol) {
  static std::map<std::string, Loaded> cache;
  auto it = cache.find(protocol);
  if (it == cache.end()) {
    Loaded loaded;
    loaded.schema = FrameSchema::Load(SchemaPath(protocol), &loaded.error);
    it = cache.emplace(protocol, std::move(loaded)).first;
  }
  return it->second;
}

struct EntryParam {
  std::string protocol;
  std::string def;  // "" when the file did not load: the test then reports why
};

void PrintTo(const EntryParam& param, std::ostream* os) {
  *os << param.protocol << " " << (param.def.empty() ? "(did not load)" : param.def);
}

std::vector<EntryParam> AllEntries() {
  std::vector<EntryParam> out;
  for (const std::string& protocol : kProtocols) {
    const Loaded& loaded = Get(protocol);
    if (loaded.schema == nullptr) {
      out.push_back({protocol, ""});
      continue;
    }
    for (const std::string& def : loaded.schema->DefNames()) out.push_back({protocol, def});
  }
  return out;
}

std::string ParamName(const testing::TestParamInfo<EntryParam>& info) {
  std::string name =
      info.param.protocol + "__" + (info.param.def.empty() ? "load" : info.param.def);
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

class FrameSchemaEntry : public testing::TestWithParam<EntryParam> {};

TEST_P(FrameSchemaEntry, ValidatesItsExamplesAndCatchesItsCounterexamplesAtTheirPointer) {
  const Loaded& loaded = Get(GetParam().protocol);
  ASSERT_NE(loaded.schema, nullptr) << loaded.error;
  const FrameSchema& schema = *loaded.schema;
  const std::string& def = GetParam().def;
  const rapidjson::Value* entry = schema.Def(def);
  ASSERT_NE(entry, nullptr);

  const rapidjson::Value* examples = json::Find(*entry, "examples");
  ASSERT_NE(examples, nullptr) << def << " has no examples";
  ASSERT_TRUE(examples->IsArray() && !examples->Empty());
  for (const rapidjson::Value& frame : examples->GetArray()) {
    for (const Violation& v : schema.Validate(def, frame)) {
      ADD_FAILURE() << "example " << json::Abbreviate(json::ToCompact(frame), 200) << " fails at '"
                    << v.pointer << "': " << v.message;
    }
  }

  const rapidjson::Value* bad = json::Find(*entry, "x-invalid-examples");
  ASSERT_NE(bad, nullptr) << def << " has no x-invalid-examples";
  ASSERT_TRUE(bad->IsArray() && !bad->Empty());
  for (const rapidjson::Value& item : bad->GetArray()) {
    const rapidjson::Value* frame = json::Find(item, "frame");
    const rapidjson::Value* pointer = json::Find(item, "pointer");
    const rapidjson::Value* why = json::Find(item, "why");
    ASSERT_TRUE(frame != nullptr && pointer != nullptr && pointer->IsString() && why != nullptr &&
                why->IsString())
        << json::ToCompact(item);
    const std::string expected = pointer->GetString();
    const std::vector<Violation> violations = schema.Validate(def, *frame);
    SCOPED_TRACE(std::string(why->GetString()) + ": " +
                 json::Abbreviate(json::ToCompact(*frame), 200));
    ASSERT_FALSE(violations.empty()) << "validates, but must fail at '" << expected << "'";
    // Stricter than CheckSchema: each counterexample breaks one rule, so every violation it
    // gets lies at or below its pointer; anything else is an untargeted message.
    for (const Violation& v : violations) {
      EXPECT_TRUE(PointerAtOrBelow(v.pointer, expected))
          << "expected '" << expected << "', got '" << v.pointer << "': " << v.message;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(BothProtocols, FrameSchemaEntry, testing::ValuesIn(AllEntries()),
                         ParamName);

// ---- Properties of the files as a whole ------------------------------------------------------

rapidjson::Document Frame(std::string_view text) {
  rapidjson::Document doc;
  EXPECT_TRUE(json::Parse(text, &doc).ok) << text;
  return doc;
}

const FrameSchema& Rim() {
  const Loaded& loaded = Get("rim-v1");
  if (loaded.schema == nullptr) throw std::runtime_error(loaded.error);
  return *loaded.schema;
}

const FrameSchema& Flash() {
  const Loaded& loaded = Get("flash-v1");
  if (loaded.schema == nullptr) throw std::runtime_error(loaded.error);
  return *loaded.schema;
}

// What `fakehost schema check` reports, once per file (the per-entry test above is stricter).
TEST(FrameSchemaFiles, AreCleanInTheSchemaChecker) {
  ASSERT_FALSE(kProtocols.empty())
      << "no schema/<protocol>/profile.json below " << std::filesystem::current_path();
  for (const std::string& protocol : kProtocols) {
    const Loaded& loaded = Get(protocol);
    ASSERT_NE(loaded.schema, nullptr) << loaded.error;
    const std::vector<CheckRow> rows = CheckSchema(*loaded.schema);
    EXPECT_EQ(rows.size(), loaded.schema->DefNames().size());
    for (const CheckRow& row : rows) {
      EXPECT_GT(row.examples, 0) << protocol << " " << row.def;
      EXPECT_EQ(row.passed, row.examples) << protocol << " " << row.def;
      EXPECT_GT(row.counterexamples, 0) << protocol << " " << row.def;
      EXPECT_EQ(row.caught, row.counterexamples) << protocol << " " << row.def;
      for (const std::string& p : row.problems)
        ADD_FAILURE() << protocol << " " << row.def << ": " << p;
    }
  }
}

TEST(RimSchema, GivesARimLogWithAnUnknownLevelExactlyOneViolationAtTheLevel) {
  auto frame =
      Frame(R"({"jsonrpc":"2.0","method":"rim.log","params":{"level":"verbose","message":"x"}})");
  const auto v = Rim().Validate("rim.log.notification", frame);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].pointer, "/params/level");
  EXPECT_NE(v[0].message.find("\"verbose\""), std::string::npos) << v[0].message;
}

TEST(RimSchema, HasEveryFrozenMethodAndTheFallbacks) {
  for (const char* def :
       {"rim.handshake.request", "rim.handshake.response", "rim.command.execute.request",
        "rim.command.execute.response", "rim.heartbeat.request", "rim.heartbeat.response",
        "rim.log.notification", "rim.log.request", "rim.log.response", "rim.shutdown.notification",
        "rim.principal.changed.notification", "rim.principals.remapped.notification",
        "envelope.request", "envelope.notification", "envelope.response"}) {
    EXPECT_TRUE(Rim().Has(def)) << def;
  }
  EXPECT_EQ(RouteDef(Rim(), FrameKind::kRequest, "rim.kube.config"), "envelope.request");
  EXPECT_EQ(RouteDef(Rim(), FrameKind::kResponse, "rim.heartbeat"), "rim.heartbeat.response");
}

// RIM §18, frame by frame, routed as the session routes them: requests and notifications by
// their method, responses by the method of the request they answer.
TEST(RimSchema, ValidatesEveryFrameOfTheWorkedSessionWhereTheRouterSendsIt) {
  struct Step {
    const char* answers;  // for responses: the method of the request answered
    const char* frame;
  };
  const Step steps[] = {
      {"",
       R"({"jsonrpc":"2.0","id":1,"method":"rim.handshake","params":{"protocolVersion":1,"supportedVersions":[1],"pluginId":"dev.example.k8stools","hostVersion":"0.1.0","grantedCapabilities":["plugin.dev.example.k8stools.restart_pod"],"principal":{"principalId":"rimp0_PWcag22GowE59KogGTaUReeoF_q4E5EVi28q83uaGBU","displayName":"Jakub"}}})"},
      {"",
       R"({"jsonrpc":"2.0","method":"rim.log","params":{"level":"info","message":"k8stools starting"}})"},
      {"rim.handshake",
       R"({"jsonrpc":"2.0","id":1,"result":{"accepted":true,"protocolVersion":1,"pluginId":"dev.example.k8stools"}})"},
      {"",
       R"({"jsonrpc":"2.0","id":2,"method":"rim.command.execute","params":{"commandId":"list_pods","args":{"namespace":"prod"},"invoker":{"principalId":"rimp0_PWcag22GowE59KogGTaUReeoF_q4E5EVi28q83uaGBU","displayName":"Jakub"},"initiator":"user","confirmed":false}})"},
      {"rim.command.execute",
       R"({"jsonrpc":"2.0","id":2,"result":{"payload":[{"name":"api-7f9c","status":"Running"}],"message":"1 pod in prod"}})"},
      {"", R"({"jsonrpc":"2.0","id":"p-1","method":"rim.kube.config"})"},
      {"rim.kube.config",
       R"({"jsonrpc":"2.0","id":"p-1","error":{"code":-32601,"message":"method not found: rim.kube.config"}})"},
      {"",
       R"({"jsonrpc":"2.0","id":3,"method":"rim.command.execute","params":{"commandId":"restart_pod","args":{"namespace":"prod","pod":"api-7f9c"},"invoker":{"principalId":"rimp0_PWcag22GowE59KogGTaUReeoF_q4E5EVi28q83uaGBU","displayName":"Jakub"},"initiator":"user","confirmed":true}})"},
      {"rim.command.execute",
       R"({"jsonrpc":"2.0","id":3,"error":{"code":-32002,"message":"kubectl failed: context not found"}})"},
      {"", R"({"jsonrpc":"2.0","id":-1,"method":"rim.heartbeat"})"},
      {"rim.heartbeat", R"({"jsonrpc":"2.0","id":-1,"result":{}})"},
      {"", R"({"jsonrpc":"2.0","method":"rim.principal.changed","params":{"principal":null}})"},
      {"", R"({"jsonrpc":"2.0","method":"rim.shutdown"})"},
  };
  std::vector<std::string> routed;
  for (const Step& step : steps) {
    auto frame = Frame(step.frame);
    const rapidjson::Value* method = json::Find(frame, "method");
    std::string def;
    if (method != nullptr) {
      def =
          RouteDef(Rim(), json::Find(frame, "id") ? FrameKind::kRequest : FrameKind::kNotification,
                   method->GetString());
    } else {
      def = RouteDef(Rim(), FrameKind::kResponse, step.answers);
    }
    routed.push_back(def);
    for (const Violation& v : Rim().Validate(def, frame)) {
      ADD_FAILURE() << def << ": " << step.frame << " fails at '" << v.pointer
                    << "': " << v.message;
    }
  }
  EXPECT_EQ(routed,
            (std::vector<std::string>{
                "rim.handshake.request", "rim.log.notification", "rim.handshake.response",
                "rim.command.execute.request", "rim.command.execute.response", "envelope.request",
                "envelope.response", "rim.command.execute.request", "rim.command.execute.response",
                "rim.heartbeat.request", "rim.heartbeat.response",
                "rim.principal.changed.notification", "rim.shutdown.notification"}));
}

TEST(RimSchema, AcceptsPluginCodesOutsideTheReservedRangeOnly) {
  for (int code : {-32769, -31999, 0, 1, 4001}) {
    auto frame = Frame(R"({"jsonrpc":"2.0","id":2,"error":{"code":)" + std::to_string(code) +
                       R"(,"message":"m"}})");
    EXPECT_TRUE(Rim().Validate("rim.command.execute.response", frame).empty()) << code;
  }
  for (int code : {-32768, -32700, -32603, -32600, -32004, -32099}) {
    auto frame = Frame(R"({"jsonrpc":"2.0","id":2,"error":{"code":)" + std::to_string(code) +
                       R"(,"message":"m"}})");
    const auto v = Rim().Validate("rim.command.execute.response", frame);
    ASSERT_EQ(v.size(), 1u) << code;
    EXPECT_EQ(v[0].pointer, "/error/code");
  }
}

TEST(FlashSchema, GivesAPingReplyWithAStringOkExactlyOneViolationAtOk) {
  auto frame = Frame(R"({"id":7,"result":{"ok":"true"}})");
  const auto v = Flash().Validate("ping.response", frame);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].pointer, "/result/ok");
}

TEST(FlashSchema, HasEveryMethodOfTheTextInBothDirections) {
  for (const char* method : {"initialize", "ping", "evaluate", "search", "hints", "perform"}) {
    EXPECT_TRUE(Flash().Has(std::string(method) + ".request")) << method;
    EXPECT_TRUE(Flash().Has(std::string(method) + ".response")) << method;
  }
  for (const char* method : {"event", "publish", "status", "poll", "log"}) {
    EXPECT_TRUE(Flash().Has(std::string(method) + ".notification")) << method;
  }
  for (const char* method :
       {"host.ping", "host.fetch", "host.normal_mode_target", "host.activate", "host.open",
        "host.post_media_key", "host.process_table", "host.signal", "host.clipboard_write",
        "host.notify", "host.wifi_info", "host.storage_get", "host.storage_set", "host.post_keys",
        "host.post_global_key", "host.ax_snapshot", "host.ax_perform", "host.ax_set",
        "host.ax_select_child"}) {
    EXPECT_TRUE(Flash().Has(std::string(method) + ".request")) << method;
    EXPECT_TRUE(Flash().Has(std::string(method) + ".response")) << method;
  }
}

TEST(FlashSchema, EnforcesTheMetadataValueQuota) {
  const std::string at_quota(65536, 'v');
  auto ok =
      Frame(R"({"method":"publish","params":{"rows":[{"metadata":{"k":")" + at_quota + R"("}}]}})");
  EXPECT_TRUE(Flash().Validate("publish.notification", ok).empty());
  auto over = Frame(R"({"method":"publish","params":{"rows":[{"metadata":{"k":")" + at_quota +
                    R"(v"}}]}})");
  const auto v = Flash().Validate("publish.notification", over);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].pointer, "/params/rows/0/metadata/k");
}

TEST(FlashSchema, TellsTheThreePerformAnswersApart) {
  EXPECT_TRUE(
      Flash()
          .Validate("perform.response", Frame(R"({"id":1,"result":{"ok":false,"unhandled":true}})"))
          .empty());
  EXPECT_TRUE(
      Flash()
          .Validate("perform.response", Frame(R"({"id":1,"result":{"ok":false,"error":"broke"}})"))
          .empty());
  // Elsewhere the unhandled form breaks the response law.
  const auto v = Flash().Validate("ping.response",
                                  Frame(R"({"id":1,"result":{"ok":false,"unhandled":true}})"));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].pointer, "/result");
}

TEST(FlashSchema, MarksTheCapabilityOfEveryHostCall) {
  for (const std::string& def : Flash().DefNames()) {
    if (def.rfind("host.", 0) != 0 || def.find(".request") == std::string::npos) continue;
    const rapidjson::Value* cap = json::Find(*Flash().Def(def), "x-capability");
    ASSERT_NE(cap, nullptr) << def;
    EXPECT_TRUE(cap->IsString() || cap->IsNull()) << def;
  }
  EXPECT_TRUE(json::Find(*Flash().Def("host.storage_set.request"), "x-capability")->IsNull());
  EXPECT_STREQ(json::Find(*Flash().Def("host.fetch.request"), "x-capability")->GetString(),
               "network_fetch");
}

}  // namespace
}  // namespace fakehost::schema
