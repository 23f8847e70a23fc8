#include "harness/protocol/profile.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "harness/json/json.hpp"
#include "harness/protocol/registry.hpp"

namespace fakehost::protocol {
namespace {

std::unique_ptr<Profile> LoadRim() {
  std::string error;
  auto p = Profile::Load("schema/rim-v1/profile.json", &error);
  EXPECT_TRUE(p) << error;
  return p;
}

// The RIM profile without its "limits" member, to be edited by tests.
std::string ReadProfileText() {
  std::ifstream in("schema/rim-v1/profile.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = text.find(",\n  \"limits\"");
  EXPECT_NE(at, std::string::npos);
  return text.substr(0, at) + "\n}\n";
}

Classified ClassifyText(const Profile& p, const char* text, rapidjson::Document* doc) {
  EXPECT_TRUE(json::Parse(text, doc).ok) << text;
  return p.Classify(*doc);
}

TEST(Profile, LoadsTheRimProfile) {
  auto p = LoadRim();
  ASSERT_TRUE(p);
  EXPECT_EQ(p->name(), "rim-v1");
  EXPECT_EQ(p->framing().name(), "length-prefixed");
  EXPECT_EQ(p->max_payload(), 4194304u);
  EXPECT_EQ(p->manifest().file, "rim-plugin.json");
  EXPECT_EQ(p->DeadlineFor("rim.handshake"), Ms(10000));
  EXPECT_EQ(p->DeadlineFor("rim.heartbeat"), Ms(5000));
  EXPECT_EQ(p->DeadlineFor("rim.command.execute"), Ms(30000));
  EXPECT_EQ(p->IdsFor("rim.heartbeat").start, -1);
  EXPECT_EQ(p->IdsFor("rim.heartbeat").step, -1);
  EXPECT_EQ(p->IdsFor("rim.command.execute").start, 1);
  EXPECT_TRUE(p->AllowedBeforeHandshake("rim.log"));
  EXPECT_FALSE(p->AllowedBeforeHandshake("rim.heartbeat"));
  const auto* stop = p->StopSequence("default");
  ASSERT_TRUE(stop);
  ASSERT_GE(stop->size(), 6u);
  EXPECT_EQ((*stop)[0].kind, StopStepSpec::Kind::kWrite);
  EXPECT_EQ((*stop)[0].method, "rim.shutdown");
  EXPECT_EQ((*stop)[0].time, Ms(250));
  EXPECT_EQ((*stop)[1].kind, StopStepSpec::Kind::kCloseStdin);
  EXPECT_EQ((*stop)[2].time, Ms(1000));
  EXPECT_EQ((*stop)[3].signal, SIGTERM);
  EXPECT_EQ((*stop)[4].time, Ms(2000));
  EXPECT_EQ((*stop)[5].signal, SIGKILL);
}

TEST(Profile, ClassifiesTheFourEnvelopeShapesAsRimSectionFourDoes) {
  auto p = LoadRim();
  ASSERT_TRUE(p);
  rapidjson::Document d;
  EXPECT_EQ(ClassifyText(*p, R"({"jsonrpc":"2.0","id":1,"method":"m"})", &d).kind,
            MessageKind::kRequest);
  EXPECT_EQ(ClassifyText(*p, R"({"jsonrpc":"2.0","method":"m"})", &d).kind,
            MessageKind::kNotification);
  EXPECT_EQ(ClassifyText(*p, R"({"jsonrpc":"2.0","id":null,"method":"m"})", &d).kind,
            MessageKind::kNotification);
  EXPECT_EQ(ClassifyText(*p, R"({"jsonrpc":"2.0","id":"x","result":{}})", &d).kind,
            MessageKind::kResponse);
  EXPECT_EQ(ClassifyText(*p, R"({"jsonrpc":"2.0","result":{}})", &d).kind, MessageKind::kInvalid);
  EXPECT_EQ(ClassifyText(*p, R"([1,2])", &d).kind, MessageKind::kInvalid);
  Classified c = ClassifyText(*p, R"({"id":1,"method":7})", &d);
  EXPECT_EQ(c.kind, MessageKind::kInvalid);
  EXPECT_NE(c.reason.find("integer"), std::string::npos) << c.reason;
}

// envelope.error_without_id (MCP: "except in error cases where the ID could not be read"): an
// error without an id is a response the correlator judges, not an invalid envelope; a result
// without one stays invalid, and in RIM an error without an id does too.
TEST(Profile, AnErrorWithoutAnIdIsAResponseOnlyWhereTheProfileSaysSo) {
  std::string error;
  auto mcp = Profile::Load("schema/mcp-stdio/profile.json", &error);
  ASSERT_TRUE(mcp) << error;
  auto rim = LoadRim();
  ASSERT_TRUE(rim);
  rapidjson::Document d;
  const char* idless = R"({"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}})";
  Classified c = ClassifyText(*mcp, idless, &d);
  EXPECT_EQ(c.kind, MessageKind::kResponse);
  EXPECT_EQ(c.id, nullptr);
  EXPECT_EQ(ClassifyText(*mcp, R"({"jsonrpc":"2.0","result":{}})", &d).kind, MessageKind::kInvalid);
  EXPECT_EQ(ClassifyText(*rim, idless, &d).kind, MessageKind::kInvalid);
}

// Every protocol of the source tree (protocol/registry.hpp) loads under its folder's name and
// states the limits of its plugin processes, which the loader reads.
TEST(Profile, EveryProtocolLoadsUnderItsNameAndReadsItsPluginResourceLimits) {
  std::vector<std::string> names = ProtocolNames(".");
  ASSERT_FALSE(names.empty());
  for (const std::string& name : names) {
    std::string error;
    auto p = Profile::Load(ProfilePath(".", name), &error);
    ASSERT_TRUE(p) << error;
    EXPECT_EQ(p->name(), name) << "a protocol's name is its folder's";
    const rapidjson::Value* cpu = json::Resolve(p->document(), "/limits/cpu_seconds");
    const rapidjson::Value* mib = json::Resolve(p->document(), "/limits/address_space_mib");
    ASSERT_TRUE(cpu && cpu->IsUint64() && mib && mib->IsUint64()) << name << ": no /limits";
    EXPECT_EQ(p->limits().cpu_seconds, cpu->GetUint64()) << name;
    EXPECT_EQ(p->limits().address_space_bytes, mib->GetUint64() << 20) << name;
  }
}

TEST(Profile, RejectsANegativeOrTinyLimitNamingTheMember) {
  std::string text = ReadProfileText();
  std::string error;
  auto bad = [&](const std::string& limits) {
    std::string edited = text;
    edited.insert(edited.rfind('}'), ",\"limits\": " + limits);
    error.clear();
    return Profile::LoadText(edited, "p.json", &error) == nullptr;
  };
  EXPECT_TRUE(bad(R"({"cpu_seconds": -1})"));
  EXPECT_NE(error.find("/limits/cpu_seconds"), std::string::npos) << error;
  EXPECT_TRUE(bad(R"({"address_space_mib": 1})"));
  EXPECT_NE(error.find("/limits/address_space_mib"), std::string::npos) << error;
  EXPECT_TRUE(bad(R"("lots")"));
  EXPECT_NE(error.find("/limits"), std::string::npos) << error;
  EXPECT_FALSE(bad(R"({"cpu_seconds": 0})")) << error;
}

// Every number in a profile has a range: a deadline or hard limit over an hour (INT64_MAX
// overflowed once every duration was turned into nanoseconds) is refused at load, naming it.
TEST(Profile, RefusesADeadlineOverAnHourNamingTheMember) {
  const std::string text = ReadProfileText();
  const std::string member = "\"scenario_timeout_ms\": ";
  const std::size_t at = text.find(member);
  ASSERT_NE(at, std::string::npos);
  const std::size_t end = text.find_first_of(",}", at);
  auto with = [&](const std::string& value, std::string* error) {
    std::string edited = text;
    edited.replace(at, end - at, member + value);
    return Profile::LoadText(edited, "p.json", error) != nullptr;
  };
  for (const char* value : {"9223372036854775807", "3600001"}) {
    std::string error;
    EXPECT_FALSE(with(value, &error)) << value;
    EXPECT_NE(error.find("/scenario_timeout_ms"), std::string::npos) << error;
  }
  std::string error;
  EXPECT_TRUE(with("3600000", &error)) << error;
}

// "perform 10 s (per-entry commands[].timeout_ms overrides)": the entry is found by the
// perform's command and subcommand (a missing subcommand is the top-level "").
TEST(Profile, AFlashCommandsTimeoutMsIsItsPerformsDeadline) {
  std::string error;
  auto p = Profile::Load("schema/flash-v1/profile.json", &error);
  ASSERT_TRUE(p) << error;
  rapidjson::Document manifest, sync, top, other, ping;
  ASSERT_TRUE(json::Parse(R"({"commands":[{"command":"ref","subcommand":"sync","timeout_ms":1500},
      {"command":"ref","timeout_ms":20000},{"command":"ref","subcommand":"add"}]})",
                          &manifest)
                  .ok);
  auto perform = [](const char* sub, rapidjson::Document* d) {
    std::string text = std::string(R"({"id":1,"method":"perform","params":{"kind":"command",)") +
                       R"("command":"ref","subcommand":")" + sub + R"(","args":[]}})";
    EXPECT_TRUE(json::Parse(text, d).ok);
  };
  perform("sync", &sync);
  perform("", &top);
  perform("add", &other);
  ASSERT_TRUE(json::Parse(R"({"id":2,"method":"ping","params":{}})", &ping).ok);
  EXPECT_EQ(p->ManifestDeadlineFor(sync, &manifest), Ms(1500));
  EXPECT_EQ(p->ManifestDeadlineFor(top, &manifest), Ms(20000));
  EXPECT_EQ(p->ManifestDeadlineFor(other, &manifest), std::nullopt);  // no timeout_ms: 10 s
  EXPECT_EQ(p->ManifestDeadlineFor(ping, &manifest), std::nullopt);
  EXPECT_EQ(p->ManifestDeadlineFor(sync, nullptr), std::nullopt);
  EXPECT_EQ(LoadRim()->ManifestDeadlineFor(sync, &manifest), std::nullopt);
}

TEST(Limits, FlagsOverrideTheProfileAndZeroMeansNone) {
  const LimitsSpec profile{60, 4096ull << 20};
  LimitsSpec out;
  std::string error;
  ASSERT_TRUE(ResolveLimits(profile, std::nullopt, std::nullopt, &out, &error)) << error;
  EXPECT_EQ(out.cpu_seconds, 60u);
  ASSERT_TRUE(ResolveLimits(profile, 0, 256, &out, &error)) << error;
  EXPECT_EQ(out.cpu_seconds, 0u);
  EXPECT_EQ(out.address_space_bytes, 256ull << 20);
  ASSERT_TRUE(ResolveLimits(profile, 5, 0, &out, &error)) << error;
  EXPECT_EQ(out.address_space_bytes, 0u);
  EXPECT_FALSE(ResolveLimits(profile, -1, std::nullopt, &out, &error));
  EXPECT_NE(error.find("--limit-cpu"), std::string::npos) << error;
  EXPECT_FALSE(ResolveLimits(profile, std::nullopt, 8, &out, &error));
  EXPECT_NE(error.find("--limit-memory"), std::string::npos) << error;
}

TEST(Profile, ReportsTheOffendingMemberOfABadProfile) {
  std::string error;
  auto p =
      Profile::LoadText(R"({"name":"x","framing":"ndjson","max_payload":"big"})", "p.json", &error);
  EXPECT_FALSE(p);
  EXPECT_NE(error.find("p.json: /max_payload: "), std::string::npos) << error;
  EXPECT_NE(error.find("p.json: /checks: missing\n"), std::string::npos) << error;
  EXPECT_NE(error.find("p.json: /stop_sequences: missing"), std::string::npos) << error;
  p = Profile::LoadText("{", "p.json", &error);
  EXPECT_FALSE(p);
  EXPECT_NE(error.find("p.json"), std::string::npos) << error;
}

std::string ReadProfileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Fills every placeholder a check may use, so a message shows all of its wording.
std::string EveryMessage(const Profile& p, const EngineCheck& check) {
  std::string out = p.CheckMessage(
      check.id, {{"frame", "3"},      {"error", "E"},    {"key", "K"},        {"reason", "R"},
                 {"type", "T"},       {"request", "1"},  {"method", "M"},     {"id", "I"},
                 {"request_id", "J"}, {"first", "2"},    {"what", "W"},       {"notification", "N"},
                 {"ms", "5"},         {"def", "D"},      {"violations", "V"}, {"size", "9"},
                 {"max", "8"},        {"received", "6"}, {"expected", "7"},   {"hex", "H"},
                 {"text", "X"},       {"frames", "F"},   {"bytes", "B"}});
  return out;
}

TEST(ProfileChecks, AFlashRunNeverSpeaksRim) {
  std::string error;
  auto p = Profile::Load("schema/flash-v1/profile.json", &error);
  ASSERT_TRUE(p) << error;
  for (const EngineCheck& check : EngineChecks()) {
    std::string message = EveryMessage(*p, check);
    EXPECT_EQ(message.find("\xC2\xA7"), std::string::npos) << check.id << ": " << message;  // §
    EXPECT_EQ(message.find("rim."), std::string::npos) << check.id << ": " << message;
    EXPECT_EQ(message.find('{'), std::string::npos) << check.id << ": " << message;
    EXPECT_FALSE(p->Check(check.id).text.empty()) << check.id;
  }
  EXPECT_NE(EveryMessage(*p, {"bad-reply-id", {}}).find("positive integers"), std::string::npos);
  EXPECT_NE(EveryMessage(*p, {"before-handshake", {}}).find("log and publish"), std::string::npos);
}

TEST(ProfileChecks, RimMessagesCiteTheirSections) {
  auto p = LoadRim();
  ASSERT_TRUE(p);
  EXPECT_EQ(p->CheckMessage("bad-reply-id", {{"frame", "4"}, {"type", "boolean"}}),
            "frame #4 has an id of type boolean; ids are integers or strings (\xC2\xA7"
            "5)");
  EXPECT_NE(EveryMessage(*p, {"before-handshake", {}}).find("rim.log"), std::string::npos);
  for (const EngineCheck& check : EngineChecks())
    // No placeholder left, and none in the old "{name}" syntax, which is now plain text.
    EXPECT_EQ(EveryMessage(*p, check).find('{'), std::string::npos) << check.id;
  for (const wire::FramingCheck& check : p->framing().checks())
    EXPECT_EQ(EveryMessage(*p, {check.id, check.vars}).find('{'), std::string::npos) << check.id;
}

TEST(ProfileChecks, AsksForTheWordingOfItsFramingsChecksOnly) {
  rapidjson::Document doc;
  ASSERT_TRUE(json::Parse(ReadProfileText("schema/rim-v1/profile.json"), &doc).ok);
  doc["checks"].RemoveMember("header-big-endian");
  std::string error;
  EXPECT_FALSE(Profile::LoadText(json::ToCompact(doc), "p.json", &error));
  EXPECT_NE(error.find("p.json: /checks/header-big-endian: missing"), std::string::npos) << error;
  // NDJSON has no header to diagnose: its profile need not word those checks, and may (a
  // profile whose framing changed), though they are never raised.
  ASSERT_TRUE(json::Parse(ReadProfileText("schema/flash-v1/profile.json"), &doc).ok);
  ASSERT_FALSE(doc["checks"].HasMember("header-text"));
  rapidjson::Value wording(rapidjson::kObjectType);
  wording.AddMember("text", "x", doc.GetAllocator());
  doc["checks"].AddMember("header-text", wording, doc.GetAllocator());
  EXPECT_TRUE(Profile::LoadText(json::ToCompact(doc), "p.json", &error)) << error;
}

TEST(Profile, NamesTheKnownFramingsForAnUnknownOne) {
  rapidjson::Document doc;
  ASSERT_TRUE(json::Parse(ReadProfileText("schema/flash-v1/profile.json"), &doc).ok);
  doc["framing"].SetString("carrier-pigeon");
  std::string error;
  EXPECT_FALSE(Profile::LoadText(json::ToCompact(doc), "p.json", &error));
  EXPECT_NE(error.find("p.json: /framing: no framing is called 'carrier-pigeon' (known: "
                       "length-prefixed, ndjson"),
            std::string::npos)
      << error;
}

TEST(ProfileChecks, RefusesAProfileWithoutWordingForACheckTheEngineRaises) {
  ASSERT_FALSE(ProtocolNames(".").empty());
  for (const std::string& name : ProtocolNames(".")) {
    const std::string path = ProfilePath(".", name);
    rapidjson::Document doc;
    ASSERT_TRUE(json::Parse(ReadProfileText(path), &doc).ok) << path;
    doc["checks"].RemoveMember("unknown-reply-id");
    std::string error;
    EXPECT_FALSE(Profile::LoadText(json::ToCompact(doc), "p.json", &error)) << path;
    EXPECT_NE(error.find("p.json: /checks/unknown-reply-id: missing"), std::string::npos) << error;
    doc.RemoveMember("checks");
    EXPECT_FALSE(Profile::LoadText(json::ToCompact(doc), "p.json", &error)) << path;
    EXPECT_NE(error.find("/checks"), std::string::npos) << error;
  }
}

TEST(ProfileChecks, RefusesAPlaceholderTheEngineDoesNotFill) {
  rapidjson::Document doc;
  ASSERT_TRUE(json::Parse(ReadProfileText("schema/rim-v1/profile.json"), &doc).ok);
  doc["checks"]["null-reply-id"]["text"].SetString("frame #${fram} has id null");
  std::string error;
  EXPECT_FALSE(Profile::LoadText(json::ToCompact(doc), "p.json", &error));
  EXPECT_NE(error.find("/checks/null-reply-id/text: unknown placeholder ${fram}"),
            std::string::npos)
      << error;
  doc["checks"]["null-reply-id"]["text"].SetString("frame #${frame} has id null (${section");
  EXPECT_FALSE(Profile::LoadText(json::ToCompact(doc), "p.json", &error));
  EXPECT_NE(error.find("/checks/null-reply-id/text: unterminated '${'"), std::string::npos)
      << error;
  doc["checks"]["null-reply-id"]["text"].SetString("frame #${frame} {has} id $${null}");
  std::string loaded;
  auto p = Profile::LoadText(json::ToCompact(doc), "p.json", &loaded);
  ASSERT_TRUE(p) << loaded;
  EXPECT_EQ(p->CheckMessage("null-reply-id", {{"frame", "3"}}), "frame #3 {has} id ${null}");
  rapidjson::Value stray(rapidjson::kObjectType);
  stray.AddMember("text", "x", doc.GetAllocator());
  doc["checks"].AddMember("nul-reply-id", stray, doc.GetAllocator());
  EXPECT_FALSE(Profile::LoadText(json::ToCompact(doc), "p.json", &error));
  EXPECT_NE(error.find("/checks/nul-reply-id: not a check the engine or a framing raises"),
            std::string::npos)
      << error;
}

// A protocol with revisions words a check by the text of the revision in play: by_revision for
// the revisions that word its rule otherwise, the check's own wording for the others, ${revision}
// in either; a revision the profile does not know is refused at load.
TEST(ProfileChecks, WordsACheckByTheRevisionInPlay) {
  rapidjson::Document doc;
  ASSERT_TRUE(json::Parse(ReadProfileText("schema/mcp-stdio/profile.json"), &doc).ok);
  auto& a = doc.GetAllocator();
  rapidjson::Value check(rapidjson::kObjectType), by(rapidjson::kArrayType),
      old(rapidjson::kObjectType), names(rapidjson::kArrayType);
  check.AddMember("section", "MCP ${revision}, Messages", a);
  check.AddMember("text", "line #${frame}: 'new words' (${section})", a);
  names.PushBack("2024-11-05", a);
  old.AddMember("revisions", names, a);
  old.AddMember("text", "line #${frame}: 'old words' under ${revision} (${section})", a);
  by.PushBack(old, a);
  check.AddMember("by_revision", by, a);
  doc["checks"]["null-reply-id"] = check;
  std::string error;
  auto p = Profile::LoadText(json::ToCompact(doc), "p.json", &error);
  ASSERT_TRUE(p) << error;
  EXPECT_EQ(p->CheckMessage("null-reply-id", {{"frame", "3"}}, "2024-11-05"),
            "line #3: 'old words' under 2024-11-05 ()");
  EXPECT_EQ(p->CheckMessage("null-reply-id", {{"frame", "3"}}, "2025-06-18"),
            "line #3: 'new words' (MCP 2025-06-18, Messages)");
  // No revision known yet (a frame before the handshake's answer): the revision offered.
  EXPECT_EQ(p->CheckMessage("null-reply-id", {{"frame", "3"}}),
            "line #3: 'new words' (MCP " + p->revisions()->offer + ", Messages)");
  doc["checks"]["null-reply-id"]["by_revision"][0]["revisions"][0].SetString("2023-01-01");
  EXPECT_FALSE(Profile::LoadText(json::ToCompact(doc), "p.json", &error));
  EXPECT_NE(error.find("/checks/null-reply-id/by_revision/0/revisions: '2023-01-01' is not a "
                       "revision the profile knows"),
            std::string::npos)
      << error;
}

// Every member the shipped profiles use is in the schema, and the schema holds them to it: a
// member it does not know, anywhere, is an error naming its pointer; $comment members are not.
TEST(Profile, RefusesAMemberTheSchemaDoesNotKnow) {
  ASSERT_FALSE(ProtocolNames(".").empty());
  for (const std::string& name : ProtocolNames(".")) {
    const std::string path = ProfilePath(".", name);
    rapidjson::Document doc;
    ASSERT_TRUE(json::Parse(ReadProfileText(path), &doc).ok) << path;
    auto& a = doc.GetAllocator();
    doc["ids"].AddMember("$comment_more", "a note", a);
    std::string error;
    EXPECT_TRUE(Profile::LoadText(json::ToCompact(doc), "p.json", &error)) << error;
    doc["handshake"].AddMember("methd", "x", a);
    doc["stop_sequences"]["default"][0].AddMember("wait", 5, a);
    EXPECT_FALSE(Profile::LoadText(json::ToCompact(doc), "p.json", &error)) << path;
    EXPECT_NE(error.find("p.json: /handshake/methd: unexpected property"), std::string::npos)
        << error;
    EXPECT_NE(error.find("p.json: /stop_sequences/default/0"), std::string::npos) << error;
  }
}

TEST(Profile, ReadsTheRequestMemberThatCarriesTheDeadline) {
  std::string error;
  auto flash = Profile::Load("schema/flash-v1/profile.json", &error);
  ASSERT_TRUE(flash) << error;
  EXPECT_EQ(flash->deadline_member(), "deadline_ms");
  ASSERT_EQ(flash->request_members().size(), 1u);
  EXPECT_EQ(flash->request_members()[0].value, nullptr);
  auto rim = LoadRim();
  ASSERT_TRUE(rim);
  EXPECT_EQ(rim->deadline_member(), "");
  EXPECT_TRUE(rim->request_members().empty());
}

// A profile without a manifest identifies its plugins by command line: it loads, says so, and
// keeps its revision; what only a manifest can feed is refused, naming the member.
TEST(Profile, LoadsWithoutAManifestAndRefusesWhatOnlyAManifestFeeds) {
  rapidjson::Document doc;
  ASSERT_TRUE(json::Parse(ReadProfileText("schema/flash-v1/profile.json"), &doc).ok);
  auto& a = doc.GetAllocator();
  ASSERT_TRUE(doc.HasMember("manifest"));
  std::string error;
  auto with = Profile::LoadText(json::ToCompact(doc), "p.json", &error);
  ASSERT_TRUE(with) << error;
  EXPECT_TRUE(with->has_manifest());
  EXPECT_EQ(with->revision(), "");
  doc.RemoveMember("manifest");
  // Flash grants from the manifest and reads deadlines from it: both need one.
  EXPECT_FALSE(Profile::LoadText(json::ToCompact(doc), "p.json", &error));
  EXPECT_NE(error.find("p.json: /deadlines_ms/from_manifest"), std::string::npos) << error;
  doc["deadlines_ms"].RemoveMember("from_manifest");
  EXPECT_FALSE(Profile::LoadText(json::ToCompact(doc), "p.json", &error));
  EXPECT_NE(error.find("p.json: /handshake/granted_capabilities"), std::string::npos) << error;
  doc["handshake"].RemoveMember("granted_capabilities");
  doc.AddMember("revision", "2025-11-25", a);
  auto without = Profile::LoadText(json::ToCompact(doc), "p.json", &error);
  ASSERT_TRUE(without) << error;
  EXPECT_FALSE(without->has_manifest());
  EXPECT_TRUE(without->manifest().file.empty());
  EXPECT_EQ(without->manifest_rules(), nullptr);
  EXPECT_EQ(without->revision(), "2025-11-25");
  doc["revision"].SetInt(20251125);
  EXPECT_FALSE(Profile::LoadText(json::ToCompact(doc), "p.json", &error));
  EXPECT_NE(error.find("p.json: /revision"), std::string::npos) << error;
}

}  // namespace
}  // namespace fakehost::protocol
