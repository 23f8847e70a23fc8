// `fakehost schema diff`: the table of schema changes in tests/schema_diff/cases.json, each with
// the verdict and rule it must get, and the command end to end (exit codes, the JSON output
// against schema/schema-diff.schema.json, Markdown, bad input, schema check on a copy).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "harness/json/json.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/protocol/versioning.hpp"
#include "harness/schema/schema.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;
using rapidjson::Value;

std::string S(const Value& v) { return {v.GetString(), v.GetStringLength()}; }

rapidjson::Document ParseFile(const std::string& path) {
  rapidjson::Document d;
  json::ParseResult r = json::Parse(ReadFile(path), &d);
  EXPECT_TRUE(r.ok) << path << ": " << r.error;
  return d;
}

std::string Unescape(std::string token) {
  for (std::size_t at = token.find('~'); at != std::string::npos; at = token.find('~', at + 1))
    token.replace(at, 2, token[at + 1] == '1' ? "/" : "~");
  return token;
}

// RFC 6902 add, remove and replace, enough for the cases: false with a message when the path
// does not resolve.
bool Apply(rapidjson::Document* doc, const Value& op, std::string* error) {
  const std::string kind = S(op["op"]), path = S(op["path"]);
  const std::size_t slash = path.rfind('/');
  Value* parent = doc;
  for (std::size_t at = 1; parent && at <= slash; at = path.find('/', at) + 1) {
    const std::string token = Unescape(path.substr(at, path.find('/', at) - at));
    if (parent->IsObject()) {
      auto it = parent->FindMember(token.c_str());
      parent = it == parent->MemberEnd() ? nullptr : &it->value;
    } else if (parent->IsArray() && std::stoul(token) < parent->Size()) {
      parent = &(*parent)[static_cast<rapidjson::SizeType>(std::stoul(token))];
    } else {
      parent = nullptr;
    }
  }
  const std::string last = Unescape(path.substr(slash + 1));
  if (!parent) return *error = path + ": no parent", false;
  auto& a = doc->GetAllocator();
  if (parent->IsArray()) {
    const auto index = last == "-" ? parent->Size() : static_cast<unsigned>(std::stoul(last));
    if (kind == "add") {
      parent->PushBack(Value(op["value"], a), a);
      for (auto i = parent->Size() - 1; i > index; --i) (*parent)[i].Swap((*parent)[i - 1]);
    } else if (index >= parent->Size()) {
      return *error = path + ": no such index", false;
    } else if (kind == "remove") {
      parent->Erase(parent->Begin() + index);
    } else {
      (*parent)[index].CopyFrom(op["value"], a);
    }
    return true;
  }
  if (!parent->IsObject()) return *error = path + ": parent is not a container", false;
  const bool exists = parent->HasMember(last.c_str());
  if (kind == "remove" || kind == "replace") {
    if (!exists) return *error = path + ": nothing to " + kind, false;
    parent->RemoveMember(last.c_str());
    if (kind == "remove") return true;
  }
  if (kind == "add" && exists) parent->RemoveMember(last.c_str());
  parent->AddMember(Value(last.c_str(), a), Value(op["value"], a), a);
  return true;
}

struct Version {
  std::unique_ptr<schema::FrameSchema> schema;
  std::unique_ptr<protocol::Profile> profile;
};

// The shipped files of `protocol` with the case's patches applied.
Version Build(const std::string& protocol, const std::vector<const Value*>& schema_ops,
              const std::vector<const Value*>& profile_ops) {
  const std::string dir = SourceDir() + "/schema/" + protocol;
  rapidjson::Document s = ParseFile(dir + "/plugin-protocol-v1.schema.json");
  rapidjson::Document p = ParseFile(dir + "/profile.json");
  std::string error;
  for (const Value* op : schema_ops) EXPECT_TRUE(Apply(&s, *op, &error)) << error;
  for (const Value* op : profile_ops) EXPECT_TRUE(Apply(&p, *op, &error)) << error;
  Version v;
  v.schema = schema::FrameSchema::LoadText(json::ToCompact(s), &error);
  EXPECT_TRUE(v.schema) << error;
  v.profile = protocol::Profile::LoadText(json::ToCompact(p), dir + "/profile.json", &error);
  EXPECT_TRUE(v.profile) << error;
  return v;
}

std::vector<const Value*> Ops(const Value& c, std::initializer_list<const char*> keys) {
  std::vector<const Value*> out;
  for (const char* k : keys)
    for (const auto& op : c[k].GetArray()) out.push_back(&op);
  return out;
}

TEST(SchemaDiffCases, EveryChangeGetsItsVerdictAndRule) {
  rapidjson::Document doc = ParseFile(SourceDir() + "/tests/schema_diff/cases.json");
  const Value& cases = doc["cases"];
  ASSERT_GE(cases.Size(), 30u);
  std::set<std::string> protocols, verdicts;
  for (const auto& c : cases.GetArray()) {
    const std::string name = S(c["name"]), protocol = S(c["protocol"]);
    SCOPED_TRACE(name);
    Version old_v = Build(protocol, Ops(c, {"both"}), {});
    Version new_v = Build(protocol, Ops(c, {"both", "schema"}), Ops(c, {"profile"}));
    ASSERT_TRUE(old_v.schema && old_v.profile && new_v.schema && new_v.profile);
    protocol::VersionDiff diff;
    std::string error;
    ASSERT_TRUE(protocol::DiffVersions(*old_v.profile, old_v.schema->Document(), *new_v.profile,
                                       new_v.schema->Document(), &diff, &error))
        << error;
    const Value& expect = c["expect"];
    std::string got;
    for (const auto& ch : diff.changes)
      got += "\n  " + ch.kind + " " + ch.pointer + " " +
             (ch.rule.allowed ? "allowed" : "breaking") + " " + ch.rule.id + " (" + ch.detail + ")";
    ASSERT_EQ(diff.changes.size(), expect.Size()) << got;
    for (rapidjson::SizeType i = 0; i < expect.Size(); ++i) {
      const auto& want = expect[i];
      const auto& ch = diff.changes[i];
      EXPECT_EQ(ch.kind, S(want["kind"])) << got;
      EXPECT_EQ(ch.pointer, S(want["pointer"])) << got;
      EXPECT_EQ(ch.rule.allowed ? "allowed" : "breaking", S(want["verdict"])) << got;
      EXPECT_EQ(ch.rule.id, S(want["rule"])) << got;
      verdicts.insert(S(want["verdict"]));
    }
    EXPECT_EQ(diff.ExitCode(), c["exit"].GetInt()) << got;
    protocols.insert(protocol);
  }
  EXPECT_EQ(protocols.size(), 2u);
  EXPECT_EQ(verdicts.size(), 2u);
}

// The cases are listed in docs/schema-diff.md ("The cases it is tested on").
TEST(SchemaDiffCases, TheDocsTableListsEveryCase) {
  rapidjson::Document doc = ParseFile(SourceDir() + "/tests/schema_diff/cases.json");
  const std::string page = ReadFile(SourceDir() + "/docs/schema-diff.md");
  ASSERT_FALSE(page.empty()) << "docs/schema-diff.md is missing";
  for (const auto& c : doc["cases"].GetArray())
    EXPECT_NE(page.find("`" + S(c["name"]) + "`"), std::string::npos)
        << S(c["name"]) << " is missing from docs/schema-diff.md's table";
}

CommandResult Fakehost(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {FakehostBin()};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunCommand(argv, std::chrono::seconds(60));
}

// A copy of fakehost's data layout (schema/ and scenarios/ of one protocol) under a temp dir,
// with `edit` applied to the schema text.
std::string CopyData(const std::string& protocol, const std::string& from, const std::string& to) {
  const std::string dir = MakeTempDir();
  fs::create_directories(dir + "/schema");
  fs::copy(SourceDir() + "/schema/" + protocol, dir + "/schema/" + protocol,
           fs::copy_options::recursive);
  fs::create_directories(dir + "/scenarios");
  fs::copy(SourceDir() + "/scenarios/" + protocol, dir + "/scenarios/" + protocol,
           fs::copy_options::recursive);
  const std::string file = dir + "/schema/" + protocol + "/plugin-protocol-v1.schema.json";
  std::string text = ReadFile(file);
  if (!from.empty()) {
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
  }
  std::ofstream(file, std::ios::trunc) << text;
  return dir;
}

const std::string kRimSchema = "/schema/rim-v1/plugin-protocol-v1.schema.json";
const std::string kHandshakeError = R"("error": {"type": "string"}
      },)";
const std::string kHandshakeDebug = R"("error": {"type": "string"},
        "debug": {"type": "string"}
      },)";

TEST(SchemaDiffCommand, ASchemaAgainstItselfHasNoChangesAndExitsZero) {
  CommandResult r =
      Fakehost({"schema", "diff", SourceDir() + kRimSchema, SourceDir() + "/schema/rim-v1"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("0 changes"), std::string::npos) << r.out;
}

TEST(SchemaDiffCommand, TheIssuesExampleExitsOneAndItsJsonMatchesItsSchema) {
  const std::string dir = CopyData("rim-v1", kHandshakeError, kHandshakeDebug);
  CommandResult r =
      Fakehost({"schema", "diff", SourceDir() + kRimSchema,
                dir + "/schema/rim-v1/plugin-protocol-v1.schema.json", "--format", "json"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  rapidjson::Document out;
  ASSERT_TRUE(json::Parse(r.out, &out).ok) << r.out;
  std::string error;
  auto s = schema::FrameSchema::Load(SourceDir() + "/schema/schema-diff.schema.json", &error);
  ASSERT_TRUE(s) << error;
  for (const auto& v : s->Validate("schema-diff", out))
    ADD_FAILURE() << v.pointer << ": " << v.message;
  ASSERT_EQ(out["changes"].Size(), 1u);
  const Value& c = out["changes"][0];
  EXPECT_EQ(S(c["verdict"]), "breaking");
  EXPECT_EQ(S(c["level"]), "error");
  EXPECT_EQ(S(c["pointer"]), "/result/debug");
  EXPECT_EQ(S(c["direction"]), "plugin->host");
  EXPECT_EQ(S(c["rule"]["text"]),
            "Adding, removing, renaming or retyping a field in any frozen frame, including an "
            "optional field.");
  EXPECT_EQ(out["exit_code"].GetInt(), 1);
  fs::remove_all(dir);
}

TEST(SchemaDiffCommand, MarkdownIsATableForAPullRequestComment) {
  const std::string dir = CopyData("rim-v1", kHandshakeError, kHandshakeDebug);
  CommandResult r = Fakehost({"schema", "diff", SourceDir() + "/schema/rim-v1",
                              dir + "/schema/rim-v1", "--format", "markdown"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("| verdict | change | where | direction | rule |"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("| **breaking** | optional field 'debug' added"), std::string::npos)
      << r.out;
  fs::remove_all(dir);
}

// A host maintainer's candidate copied elsewhere has no profile beside it: OLD's profile judges
// it, and every output says so.
TEST(SchemaDiffCommand, ACandidateWithoutAProfileIsJudgedByOldsProfile) {
  const std::string dir = CopyData("rim-v1", kHandshakeError, kHandshakeDebug);
  const std::string candidate = MakeTempDir() + "/candidate.json";
  fs::copy_file(dir + "/schema/rim-v1/plugin-protocol-v1.schema.json", candidate);
  CommandResult r = Fakehost({"schema", "diff", SourceDir() + kRimSchema, candidate});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("judged by " + SourceDir() + "/schema/rim-v1/profile.json (OLD's profile)"),
            std::string::npos)
      << r.out;
  CommandResult j =
      Fakehost({"schema", "diff", SourceDir() + kRimSchema, candidate, "--format", "json"});
  rapidjson::Document out;
  ASSERT_TRUE(json::Parse(j.out, &out).ok) << j.out;
  EXPECT_EQ(S(out["new"]["profile_from"]), "OLD's profile");
  EXPECT_EQ(S(out["old"]["profile_from"]), "beside the schema");
  fs::remove_all(dir);
  fs::remove_all(fs::path(candidate).parent_path());
}

TEST(SchemaDiffCommand, BadInputExitsTwo) {
  CommandResult missing =
      Fakehost({"schema", "diff", "/nonexistent.json", SourceDir() + kRimSchema});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("/nonexistent.json"), std::string::npos) << missing.err;
  const std::string dir = MakeTempDir();
  fs::copy_file(SourceDir() + kRimSchema, dir + "/s.json");
  fs::copy_file(SourceDir() + kRimSchema, dir + "/old.json");
  CommandResult alone = Fakehost({"schema", "diff", dir + "/old.json", dir + "/s.json"});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.err.find("old.json: no profile.json beside it"), std::string::npos) << alone.err;
  EXPECT_NE(alone.err.find("--protocol"), std::string::npos) << alone.err;
  CommandResult named = Fakehost(
      {"schema", "diff", SourceDir() + kRimSchema, dir + "/s.json", "--protocol", "rim-v1"});
  EXPECT_EQ(named.exit_code, 0) << named.out << named.err;
  CommandResult format =
      Fakehost({"schema", "diff", SourceDir() + kRimSchema, dir + "/s.json", "--format", "xml"});
  EXPECT_EQ(format.exit_code, 2);
  fs::remove_all(dir);
}

TEST(SchemaCheck, ACopyIsCheckedWithTheSuiteBesideIt) {
  const std::string dir = CopyData("rim-v1", "", "");
  // A suite step that sends a value outside a closed set: only the copy's suite has it.
  std::ofstream(dir + "/scenarios/rim-v1/commands/robot-initiator.yaml") << R"(title: A robot
spec: "§9"
requirement: The host sends only user or agent.
steps:
  - send:
      method: rim.command.execute
      params: {commandId: greet, args: {}, invoker: null, initiator: robot, confirmed: false}
)";
  CommandResult r =
      Fakehost({"schema", "check", dir + "/schema/rim-v1/plugin-protocol-v1.schema.json"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("the suite " + dir + "/scenarios/rim-v1:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("FAIL  commands/robot-initiator"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

TEST(SchemaCheck, AnEntryWithoutItsAnnotationsFails) {
  const std::string dir = CopyData("rim-v1", R"("x-frozen": true,)", "");
  CommandResult r =
      Fakehost({"schema", "check", dir + "/schema/rim-v1/plugin-protocol-v1.schema.json"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("x-frozen: missing (true or false)"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fakehost::testing
