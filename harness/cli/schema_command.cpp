#include "harness/cli/schema_command.hpp"
#include "harness/protocol/host_frame.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>
#include <variant>

#include "harness/cli/cli.hpp"
#include "harness/cli/command.hpp"
#include "harness/interpreter/interpreter.hpp"
#include "harness/json/json.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/run/runner.hpp"
#include "harness/schema/diff.hpp"
#include "harness/schema/schema.hpp"
#include "harness/session/session.hpp"

namespace fakehost::cli {
namespace {

namespace fs = std::filesystem;

// A frame the host builds, and what it should validate as.
struct HostFrameCase {
  std::string label;
  std::string answers;  ///< for a response: the method of the request it answers
  rapidjson::Document frame;
};

rapidjson::Document Message(const rapidjson::Value* id, std::string_view method,
                            const rapidjson::Value* body) {
  rapidjson::Document m;
  m.SetObject();
  auto& a = m.GetAllocator();
  if (id) m.AddMember("id", rapidjson::Value(*id, a), a);
  if (!method.empty())
    m.AddMember("method",
                rapidjson::Value(method.data(), static_cast<rapidjson::SizeType>(method.size()), a),
                a);
  if (body && body->IsObject())
    for (const auto& member : body->GetObject())
      m.AddMember(rapidjson::Value(member.name, a), rapidjson::Value(member.value, a), a);
  return m;
}

// Everything the profile makes the fake host send: the stop sequences' notifications, the
// barrier request, what follows a successful handshake, and its answers to plugin requests.
std::vector<HostFrameCase> ProfileHostFrames(const protocol::Profile& profile) {
  std::vector<HostFrameCase> out;
  auto add = [&](std::string label, std::string answers, rapidjson::Document message) {
    out.push_back(
        {std::move(label), std::move(answers), protocol::HostFrame(profile, std::move(message))});
  };
  for (const char* name : {"default", "teardown", "after_refusal"})
    if (const auto* seq = profile.StopSequence(name))
      for (const auto& step : *seq)
        if (step.kind == protocol::StopStepSpec::Kind::kWrite)
          add(std::string("stop sequence '") + name + "': " + step.method, "",
              Message(nullptr, step.method, nullptr));
  rapidjson::Value barrier_id(profile.IdsFor(profile.barrier_method()).start);
  add("barrier " + profile.barrier_method(), "",
      Message(&barrier_id, profile.barrier_method(), nullptr));
  if (const protocol::AfterHandshake* after = profile.after_handshake())
    for (const rapidjson::Value* m : after->send) {
      rapidjson::Document copy;
      copy.CopyFrom(*m, copy.GetAllocator());
      add("after the handshake: " + json::Abbreviate(json::ToCompact(*m), 60), "", std::move(copy));
    }
  // Answers go to plugin requests: id 1 stands for the plugin's own id (an integer is an id in
  // every protocol; Flash allows nothing else).
  rapidjson::Value plugin_id(1);
  const protocol::HostSpec& host = profile.host();
  for (const auto& [method, reply] : host.replies)
    if (reply.body) add("reply to " + method, method, Message(&plugin_id, "", reply.body.get()));
  for (const auto& [key, answer] :
       {std::pair{"denied", &host.denied}, std::pair{"rate_limited", &host.rate_limited},
        std::pair{"unknown", &host.unknown},
        std::pair{"unimplemented_granted", &host.unimplemented_granted}})
    if (*answer)
      add(std::string("host answer '") + key + "'", "",
          Message(&plugin_id, "", (*answer)->body.get()));
  return out;
}

// The frames the suite's `send`/`notify` steps build, with the profile's variables and an
// example plugin; steps marked `invalid: true` and steps whose variables only a live run
// knows (${item...} inside for_each, captures) are left out and counted.
std::vector<HostFrameCase> SuiteHostFrames(const std::string& suite_dir,
                                           const protocol::Profile& profile,
                                           std::size_t* unchecked) {
  std::vector<HostFrameCase> out;
  std::vector<scenario::Scenario> scenarios;
  std::vector<std::string> errors;
  run::LoadSuite(suite_dir, profile, &scenarios, &errors);
  rapidjson::Document vars;
  vars.CopyFrom(profile.vars(), vars.GetAllocator());
  rapidjson::Document plugin;
  json::Parse(R"({"id":"dev.example.plugin","version":"1.0.0","dir":"/"})", &plugin);
  vars.AddMember("plugin", rapidjson::Value(plugin, vars.GetAllocator()), vars.GetAllocator());
  auto lookup = [&](std::string_view path) -> const rapidjson::Value* {
    const rapidjson::Value* v = &vars;
    while (v && !path.empty()) {
      std::string_view seg = path.substr(0, path.find('.'));
      path = seg.size() < path.size() ? path.substr(seg.size() + 1) : "";
      v = v->IsObject() ? json::Find(*v, seg) : nullptr;
    }
    return v;
  };
  for (const auto& sc : scenarios) {
    auto sent = [&](const scenario::Step& step, const scenario::Send& send) {
      rapidjson::Document message;
      std::string error;
      rapidjson::Value id(profile.IdsFor(send.method).start);
      // A trigger's request is the plugin's own (its fakehost.yaml), known only in a run.
      if (send.invalid || !send.trigger.empty() ||
          !interpreter::BuildSendMessage(send, lookup, id, &message, &error)) {
        ++*unchecked;
        return;
      }
      out.push_back({sc.id + " (" + step.loc.ToString().substr(step.loc.file.rfind('/') + 1) +
                         "): " + send.method,
                     "", protocol::HostFrame(profile, std::move(message))});
    };
    // Only a send writes a frame known before the run: raw bytes are not a frame, and an answer
    // (an `answer` step, an expect's `reply`) takes the id of a request only a live plugin
    // sends, and is validated when it is sent; for_each's steps are visited one by one.
    scenario::VisitSteps(sc.steps, [&](const scenario::Step& step) {
      if (const auto* send = std::get_if<scenario::Send>(&step.body)) sent(step, *send);
    });
  }
  return out;
}

// The suite that goes with a schema: in a data directory laid out like fakehost's own
// (X/schema/<p>/<file> beside X/scenarios/<p>), the one beside it, so a copy checks its own
// suite; otherwise the one under DATA_DIR.
std::string SuiteFor(const std::string& data_dir, const std::string& schema_file,
                     const protocol::Profile& profile) {
  std::error_code ec;
  const fs::path dir = fs::absolute(schema_file, ec).parent_path();
  const fs::path beside = dir.parent_path().parent_path() / "scenarios" / profile.name();
  if (dir.parent_path().filename() == "schema" && fs::is_directory(beside, ec))
    return beside.string();
  return data_dir + "/scenarios/" + profile.name();
}

// The frames the host builds from the profile (beside `schema_file`, or the one --protocol
// names) must validate too.
bool CheckHostFrames(const std::string& data_dir, const schema::FrameSchema& s,
                     const std::string& schema_file, const std::string& protocol, std::ostream& out,
                     std::ostream& err, bool* bad_input) {
  std::unique_ptr<protocol::Profile> profile;
  if (!protocol.empty()) {
    profile = ResolveProfile(protocol, data_dir, err);
  } else {
    const fs::path beside = fs::path(schema_file).parent_path() / "profile.json";
    if (!fs::exists(beside)) return true;
    profile = ResolveProfile(beside.string(), data_dir, err);
  }
  if (!profile) {
    *bad_input = true;
    return false;
  }
  const std::string profile_path = profile->dir() + "/profile.json";
  const std::string suite = SuiteFor(data_dir, schema_file, *profile);
  std::vector<HostFrameCase> frames = ProfileHostFrames(*profile);
  std::size_t unchecked = 0;
  std::set<std::string> seen;  // the handshake fragment is in every scenario: check it once
  for (const auto& f : frames) seen.insert(json::ToCompact(f.frame));
  for (auto& f : SuiteHostFrames(suite, *profile, &unchecked))
    if (seen.insert(json::ToCompact(f.frame)).second) frames.push_back(std::move(f));
  std::size_t valid = 0;
  out << "\nhost frames built from " << profile_path << " and the suite " << suite << ":\n";
  for (const auto& f : frames) {
    protocol::Classified c = profile->Classify(f.frame);
    std::string method = c.kind == protocol::MessageKind::kResponse ? f.answers : c.method;
    std::string def = schema::RouteDef(s, protocol::MessageKindName(c.kind), method);
    std::vector<schema::Violation> v;
    if (def.empty())
      v.push_back({"", "no schema entry"});
    else
      v = s.Validate(def, f.frame);
    out << "  " << (v.empty() ? "ok  " : "FAIL") << "  " << f.label << " -> " << def << "\n";
    for (const auto& x : v) out << "        " << x.pointer << ": " << x.message << "\n";
    if (v.empty()) ++valid;
  }
  out << frames.size() << " host frames, " << valid << " valid (" << unchecked
      << " suite steps not checked: deliberately invalid, or built only during a run)\n";
  return valid == frames.size();
}

}  // namespace

int SchemaCheckCommand(const std::string& data_dir, const std::string& file,
                       const std::string& protocol, std::ostream& out, std::ostream& err) {
  std::string error;
  auto s = schema::FrameSchema::Load(file, &error);
  if (!s) {
    err << "fakehost: " << error << "\n";
    return kBadInput;
  }
  std::vector<schema::CheckRow> rows = schema::CheckSchema(*s);
  for (auto& r : rows)  // what `schema diff` needs to judge a change to the entry
    for (auto& p : schema::AnnotationProblems(*s, r.def)) r.problems.push_back(std::move(p));
  bool ok = !rows.empty();
  std::size_t width = 10;
  for (const auto& r : rows) width = std::max(width, r.def.size());
  out << "entry" << std::string(width - 5 + 2, ' ') << "examples  counterexamples\n";
  int ex = 0, cex = 0;
  for (const auto& r : rows) {
    bool row_ok = r.problems.empty() && r.passed == r.examples && r.caught == r.counterexamples;
    ok &= row_ok;
    ex += r.examples;
    cex += r.counterexamples;
    out << r.def << std::string(width - r.def.size() + 2, ' ') << r.passed << "/" << r.examples
        << "       " << r.caught << "/" << r.counterexamples << (row_ok ? "" : "   FAIL") << "\n";
    for (const auto& p : r.problems) out << "    " << p << "\n";
  }
  out << rows.size() << " entries, " << ex << " examples, " << cex
      << " counterexamples: " << (ok ? "all hold" : "PROBLEMS") << "\n";
  bool bad_input = false;
  ok &= CheckHostFrames(data_dir, *s, file, protocol, out, err, &bad_input);
  if (bad_input) return kBadInput;
  return ok ? kOk : kFailures;
}

}  // namespace fakehost::cli

namespace fakehost::cli {

void AddSchemaCommands(CLI::App& app, Commands* commands) {
  auto file = std::make_shared<std::string>();
  auto protocol = std::make_shared<std::string>();
  CLI::App* schema = app.add_subcommand("schema", "work with a protocol's frame schema");
  schema->require_subcommand(1);
  CLI::App* check = schema->add_subcommand("check", "certify a schema's examples");
  check->add_option("file", *file, "the schema file")->required();
  check->add_option("--protocol", *protocol,
                    "the profile to check the host's frames with: a protocol name or a "
                    "profile.json path (default: the profile beside the schema)");
  commands->push_back({check, [file, protocol](const Context& ctx) {
                         return SchemaCheckCommand(ctx.data_dir, *file, *protocol, ctx.out,
                                                   ctx.err);
                       }});
  auto diff = std::make_shared<SchemaDiffOptions>();
  CLI::App* d = schema->add_subcommand(
      "diff", "judge the changes between two versions of a protocol's schema and profile");
  d->add_option("old", diff->old_path, "the old schema file, profile.json or schema directory")
      ->required();
  d->add_option("new", diff->new_path, "the new schema file, profile.json or schema directory")
      ->required();
  d->add_option(
      "--protocol", diff->protocol,
      "a protocol name or profile.json path, for a schema with no profile.json beside it");
  d->add_option("--format", diff->format, "console (default), json or markdown");
  commands->push_back({d, [diff](const Context& ctx) {
                         return SchemaDiffCommand(ctx.data_dir, *diff, ctx.out, ctx.err);
                       }});
}

}  // namespace fakehost::cli
