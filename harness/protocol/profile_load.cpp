// Loading a profile: the document against schema/profile.schema.json, then each member read
// once into Profile's typed values. The schema guarantees every shape read here, so the readers
// below only convert; what they still check is what a schema cannot say.
#include "harness/json/text_file.hpp"
#include "harness/protocol/profile.hpp"

#include <cstring>
#include <fstream>
#include <sstream>

#include "harness/json/json.hpp"
#include "harness/os/signals.hpp"
#include "harness/protocol/profile_schema.hpp"
#include "harness/schema/schema.hpp"
#include "harness/text/template.hpp"

namespace fakehost::protocol {
namespace {

using rapidjson::Value;

// "$comment", "$comment_rules": notes for people, beside the members of any object.
bool IsComment(std::string_view name) { return name.substr(0, 8) == "$comment"; }

// The profile schema, built from schema/profile.schema.json into the binary (profile_schema.hpp),
// loaded once and shared: FrameSchema is immutable and its Validate is thread-safe.
const schema::FrameSchema* ProfileSchema(std::string* error) {
  static std::string load_error;
  static const std::unique_ptr<schema::FrameSchema> schema =
      schema::FrameSchema::LoadText(ProfileSchemaText(), &load_error);
  if (!schema) *error = "the built-in profile schema does not load: " + load_error;
  return schema.get();
}

// Every violation on its own line, each naming the file and the member's pointer (a missing
// member by its own pointer).
bool CheckAgainstSchema(const Value& doc, const std::string& path, std::string* error) {
  const schema::FrameSchema* profile_schema = ProfileSchema(error);
  if (!profile_schema) return false;
  std::vector<schema::Violation> violations = profile_schema->Validate("profile", doc);
  auto line = [&](const std::string& pointer, const std::string& what) {
    *error +=
        (error->empty() ? "" : "\n") + path + ": " + (pointer.empty() ? "" : pointer + ": ") + what;
  };
  for (const schema::Violation& v : violations) {
    if (v.missing.empty()) line(v.pointer, v.message);
    for (const std::string& member : v.missing)
      line(v.pointer + "/" + json::EscapePointerToken(member), "missing");
  }
  return violations.empty();
}

std::string String(const Value& object, const char* member, std::string fallback = "") {
  const Value* v = json::Find(object, member);
  return v ? std::string(json::View(*v)) : fallback;
}

IdSequence Ids(const Value& v) { return {v["start"].GetInt64(), v["step"].GetInt64()}; }

// A path in the profile, relative to its directory unless absolute.
std::string Beside(const std::string& dir, std::string file) {
  return file.empty() || file[0] == '/' ? file : dir + "/" + file;
}

HostAnswer Answer(const Value& v) {
  HostAnswer answer;
  answer.builtin = String(v, "builtin");
  answer.stand_in = String(v, "stand_in");
  if (!answer.builtin.empty()) return answer;
  auto body = std::make_shared<rapidjson::Document>(rapidjson::kObjectType);
  for (const char* key : {"result", "error"})
    if (const Value* part = json::Find(v, key))
      body->AddMember(Value(key, body->GetAllocator()), Value(*part, body->GetAllocator()),
                      body->GetAllocator());
  answer.body = std::move(body);
  return answer;
}

// The members of a map whose keys are names (methods, capabilities, ...), comments left out.
template <typename F>
void EachNamed(const Value* map, F&& each) {
  if (!map) return;
  for (const auto& m : map->GetObject())
    if (!IsComment(json::View(m.name))) each(std::string(json::View(m.name)), m.value);
}

}  // namespace

std::unique_ptr<Profile> Profile::Load(const std::string& path, std::string* error) {
  std::string text;
  if (!json::ReadFileCapped(path, json::kProfileFileCap, &text, error)) return nullptr;
  return LoadText(text, path, error);
}

std::unique_ptr<Profile> Profile::LoadText(std::string_view text, const std::string& path,
                                           std::string* error) {
  error->clear();
  std::unique_ptr<Profile> profile(new Profile());
  json::ParseResult parsed = json::Parse(text, &profile->doc_);
  if (!parsed.ok) {
    *error = path + ": " + parsed.error;
    return nullptr;
  }
  if (!CheckAgainstSchema(profile->doc_, path, error) || !profile->Init(path, error))
    return nullptr;
  return profile;
}

// Over 60 lines: it reads the profile's members one after another, each in a few lines, in the
// order of the schema's table of them.
bool Profile::Init(const std::string& path, std::string* error) {
  const Value& d = doc_;
  auto fail = [&](const std::string& pointer, const std::string& what) {
    *error = path + ": " + pointer + ": " + what;
    return false;
  };
  auto slash = path.find_last_of('/');
  dir_ = slash == std::string::npos ? "." : path.substr(0, slash);
  name_ = String(d, "name");
  title_ = String(d, "title");
  revision_ = String(d, "revision");
  schema_path_ = Beside(dir_, String(d, "schema"));
  framing_ = wire::FindFraming(String(d, "framing"));
  if (!framing_) {
    std::string known;
    for (const std::string& name : wire::FramingNames())
      known += (known.empty() ? "" : ", ") + name;
    return fail("/framing",
                "no framing is called '" + String(d, "framing") + "' (known: " + known + ")");
  }
  max_payload_ = d["max_payload"].GetUint64();

  const Value& envelope = d["envelope"];
  host_members_ = &envelope["host_members"];
  null_id_is_notification_ = json::Find(envelope, "null_id_is_notification") &&
                             envelope["null_id_is_notification"].GetBool();
  error_without_id_ =
      json::Find(envelope, "error_without_id") && envelope["error_without_id"].GetBool();
  plugin_ids_unique_ = json::Find(d["ids"], "plugin_unique") != nullptr;
  EachNamed(json::Find(d, "request_members"), [&](std::string name, const Value& m) {
    const Value* value = json::Find(m, "value");
    if (!value) deadline_member_ = name;  // {"carries": "deadline_ms"}, the schema's one kind
    request_members_.push_back({std::move(name), value});
  });

  if (const Value* manifest = json::Find(d, "manifest")) {
    has_manifest_ = true;
    manifest_.file = String(*manifest, "file");
    manifest_.id = String(*manifest, "id");
    manifest_.version = String(*manifest, "version");
    manifest_.entrypoint = String(*manifest, "entrypoint");
    manifest_.exec = String(*manifest, "exec");
    manifest_.schema = Beside(dir_, String(*manifest, "schema"));
    if (const Value* scenario = json::Find(*manifest, "scenario")) {
      manifest_.spec = String(*scenario, "spec");
      manifest_.requirement = String(*scenario, "requirement");
    }
    manifest_rules_ = json::Find(*manifest, "rules");
  }

  if (const Value* env = json::Find(d, "environment")) {
    environment_.scrub = String(*env, "mode", "inherit") == "scrub";
    if (const Value* allow = json::Find(*env, "allow"))
      for (const auto& name : allow->GetArray()) environment_.allow.emplace_back(json::View(name));
  }
  EachNamed(json::Find(d, "plugin_env"), [&](std::string name, const Value& templ) {
    plugin_env_.emplace_back(std::move(name), json::View(templ));
  });

  default_ids_ = Ids(d["ids"]["default"]);
  EachNamed(json::Find(d["ids"], "by_method"),
            [&](std::string method, const Value& v) { ids_by_method_.emplace(method, Ids(v)); });

  const Value& deadlines = d["deadlines_ms"];
  default_deadline_ = Ms(deadlines["default"].GetInt64());
  EachNamed(json::Find(deadlines, "by_method"), [&](std::string method, const Value& v) {
    deadlines_by_method_.emplace(method, Ms(v.GetInt64()));
  });
  if (const Value* rules = json::Find(deadlines, "from_manifest")) {
    if (!has_manifest_)
      return fail("/deadlines_ms/from_manifest",
                  "deadlines from the manifest need a manifest member (this profile has none)");
    for (const auto& rule : rules->GetArray()) {
      ManifestDeadline md{
          String(rule, "method"), String(rule, "items"), String(rule, "value"), {}, {}};
      EachNamed(json::Find(rule, "match"), [&](std::string member, const Value& pointer) {
        md.match.emplace(member, json::View(pointer));
      });
      EachNamed(json::Find(rule, "defaults"), [&](std::string member, const Value& value) {
        md.defaults.emplace(member, json::View(value));
      });
      manifest_deadlines_.push_back(std::move(md));
    }
  }

  const Value& handshake = d["handshake"];
  handshake_method_ = String(handshake, "method");
  if (const Value* allowed = json::Find(handshake, "allowed_before_answer"))
    for (const auto& m : allowed->GetArray()) allowed_before_handshake_.emplace(json::View(m));
  if (const Value* g = json::Find(handshake, "granted_capabilities")) {
    if (g->IsString())
      granted_pointer_ = json::View(*g);
    else
      granted_manifest_pointer_ = String(*g, "manifest");
    if (!granted_manifest_pointer_.empty() && !has_manifest_)
      return fail("/handshake/granted_capabilities",
                  "capabilities granted from the manifest need a manifest member (this profile "
                  "has none)");
  }
  if (const Value* a = json::Find(handshake, "announcements"))
    announcements_pointer_ = std::string(json::View(*a));
  if (const Value* before = json::Find(handshake, "announced_before")) {
    if (!announcements_pointer_)
      return fail("/handshake/announced_before",
                  "needs handshake.announcements (where the plugin announces what it has)");
    for (const auto& m : before->GetObject()) {
      if (IsComment(json::View(m.name))) continue;
      announced_before_.emplace(
          std::string(json::View(m.name)),
          AnnouncedBefore{String(m.value, "announced"), String(m.value, "sentence"),
                          json::Find(m.value, "section") ? String(m.value, "section") : ""});
    }
  }
  if (const Value* r = json::Find(d, "revisions")) {
    Revisions revisions;
    revisions.label = json::Find(*r, "label") ? String(*r, "label") : name_;
    revisions.negotiated = String(*r, "negotiated");
    revisions.offer = String(*r, "offer");
    for (const auto& known : (*r)["known"].GetArray()) {
      Revision revision;
      revision.name = String(known, "name");
      if (const Value* h = json::Find(known, "handshake")) revision.handshake = h->GetBool();
      if (const Value* b = json::Find(known, "barrier")) revision.barrier = json::View(*b);
      if (const Value* b = json::Find(known, "batches")) revision.batches = b->GetBool();
      if (json::Find(known, "schema")) {
        if (revision.handshake)
          return fail("/revisions/known", "'" + revision.name +
                                              "' has a handshake, so it cannot have a frame "
                                              "schema of its own (its frames are validated "
                                              "before the plugin names it)");
        revision.schema_path = Beside(dir_, String(known, "schema"));
      }
      EachNamed(json::Find(known, "request_members"), [&](std::string pointer, const Value& v) {
        revision.request_members.emplace_back(std::move(pointer), &v);
      });
      revisions.known.push_back(std::move(revision));
    }
    const Revision* offered = revisions.Find(revisions.offer);
    if (!offered || !offered->handshake)
      return fail("/revisions/offer", "'" + revisions.offer +
                                          "' is not one of the known revisions with a handshake (" +
                                          revisions.KnownList() + ")");
    if (const Value* p = json::Find(*r, "probe")) {
      RevisionProbe probe;
      probe.method = String(*p, "method");
      probe.listed = String(*p, "listed");
      probe.error_listed = String(*p, "error_listed");
      if (const Value* codes = json::Find(*p, "error_codes"))
        for (const auto& c : codes->GetArray()) probe.error_codes.push_back(c.GetInt64());
      probe.within = Ms((*p)["within_ms"].GetInt64());
      revisions.probe = std::move(probe);
    }
    if (revisions.probe.has_value() == revisions.NewestWithoutHandshake().empty())
      return fail("/revisions/probe", revisions.probe
                                          ? "a probe needs a known revision without a "
                                            "handshake (handshake: false)"
                                          : "a revision without a handshake needs a "
                                            "probe (how a plugin is found to speak it)");
    revisions_ = std::move(revisions);
  }
  if (const Value* after = json::Find(d, "after_handshake")) {
    AfterHandshake a;
    EachNamed(json::Find(*after, "when"),
              [&](std::string member, const Value& v) { a.when.emplace_back(member, &v); });
    for (const auto& message : (*after)["send"].GetArray()) a.send.push_back(&message);
    after_handshake_ = std::move(a);
  }
  barrier_method_ = String(d["barrier"], "method");
  shutdown_notification_ = String(d, "shutdown_notification");
  if (const Value* p = json::Find(d, "progress"))
    progress_ = Progress{String(*p, "notification"), String(*p, "token"), String(*p, "value"),
                         String(*p, "request_token")};
  if (const Value* input = json::Find(d, "input_required"))
    input_required_ = InputRequired{String(*input, "requests"), String(*input, "state"),
                                    String(*input, "responses"), String(*input, "echo_state")};
  if (const Value* cancel = json::Find(d, "cancellation")) {
    cancellation_method_ = String(*cancel, "method");
    cancellation_id_ = String(*cancel, "id");
  }

  std::string bad_signal;
  EachNamed(&d["stop_sequences"], [&](std::string name, const Value& steps) {
    std::vector<StopStepSpec>& out = stop_sequences_[name];
    for (rapidjson::SizeType i = 0; i < steps.Size(); ++i) {
      const Value& v = steps[i];
      StopStepSpec step;
      step.label = String(v, "label", "/stop_sequences/" + name + "/" + std::to_string(i));
      if (const Value* w = json::Find(v, "write")) {
        step.kind = StopStepSpec::Kind::kWrite;
        step.method = String(*w, "method");
        step.time = Ms(v["cap_ms"].GetInt64());
      } else if (json::Find(v, "close_stdin")) {
        step.kind = StopStepSpec::Kind::kCloseStdin;
      } else if (const Value* wait = json::Find(v, "wait_ms")) {
        step.kind = StopStepSpec::Kind::kWait;
        step.time = Ms(wait->GetInt64());
      } else {
        step.kind = StopStepSpec::Kind::kSignal;
        step.signal = os::SignalNumber(String(v, "signal"));
        if (step.signal == 0 && bad_signal.empty())
          bad_signal = "/stop_sequences/" + name + "/" + std::to_string(i) + "/signal";
      }
      out.push_back(std::move(step));
    }
  });
  if (!bad_signal.empty())
    return fail(bad_signal, "no signal has that name (TERM, KILL, INT, ...)");

  InitHost();
  vars_ = &d["vars"];
  if (const Value* ms = json::Find(d, "scenario_timeout_ms"))
    scenario_timeout_ = Ms(ms->GetInt64());
  if (const Value* ms = json::Find(d, "scenario_timeout_max_ms"))
    scenario_timeout_max_ = Ms(ms->GetInt64());
  if (const Value* budget = json::Find(d, "transport_budget"))
    transport_budget_ = {(*budget)["frames"].GetUint64(), (*budget)["bytes"].GetUint64()};
  if (const Value* limits = json::Find(d, "limits")) {
    if (const Value* cpu = json::Find(*limits, "cpu_seconds"))
      limits_.cpu_seconds = cpu->GetUint64();
    if (const Value* mib = json::Find(*limits, "address_space_mib"))
      limits_.address_space_bytes = mib->GetUint64() << 20;
  }
  EachNamed(json::Find(d, "triggers"), [&](std::string name, const Value& t) {
    const Value& example = t["example"];
    triggers_.push_back({std::move(name), String(t, "does"), &example, String(example, "method"),
                         json::Find(example, "params")});
  });
  if (const Value* v = json::Find(d, "versioning")) {
    Versioning versioning;
    if (!ReadVersioning(*v, path, &versioning, error)) return false;
    versioning_ = std::move(versioning);
  }
  return InitChecks(path, error);
}

void Profile::InitHost() {
  const Value& h = doc_["host"];
  EachNamed(json::Find(h, "replies"), [&](std::string method, const Value& r) {
    host_.replies.emplace_back(method, Answer(r));
  });
  EachNamed(json::Find(h, "capabilities"), [&](std::string method, const Value& c) {
    host_.capabilities.emplace_back(method, json::View(c));
  });
  EachNamed(json::Find(h, "capability_prefixes"), [&](std::string prefix, const Value& c) {
    host_.capability_prefixes.emplace_back(prefix, json::View(c));
  });
  if (const Value* limit = json::Find(h, "rate_limit_per_minute"))
    host_.rate_limit_per_minute = limit->GetInt64();
  for (auto [key, out] :
       {std::pair{"denied", &host_.denied}, std::pair{"rate_limited", &host_.rate_limited},
        std::pair{"unknown", &host_.unknown},
        std::pair{"unimplemented_granted", &host_.unimplemented_granted}})
    if (const Value* answer = json::Find(h, key)) *out = Answer(*answer);
}

// Reads "checks": {id: {"text": "...", "section": "..."}}. Every check the engine and the
// framing raise must be worded, and a wording may use only the placeholders the engine fills
// in, so a typo in a profile is an error at load time rather than a "{fram}" in a report. The
// wording of another framing's check is let be (never raised): a profile whose framing changed,
// as a `schema diff` case makes one, still loads.
bool Profile::InitChecks(const std::string& path, std::string* error) {
  auto fail = [&](const std::string& pointer, const std::string& what) {
    *error = path + ": " + pointer + ": " + what;
    return false;
  };
  const Value& table = doc_["checks"];
  std::vector<EngineCheck> raised = EngineChecks();
  for (const wire::FramingCheck& check : framing_->checks())
    raised.push_back({check.id, check.vars});
  for (const auto& m : table.GetObject()) {
    std::string_view name = json::View(m.name);
    bool known = IsComment(name);
    for (const EngineCheck& check : EngineChecks()) known |= name == check.id;
    for (const std::string& framing : wire::FramingNames())
      for (const wire::FramingCheck& check : wire::FindFraming(framing)->checks())
        known |= name == check.id;
    if (!known)
      return fail("/checks/" + std::string(name), "not a check the engine or a framing raises");
  }
  for (const EngineCheck& check : raised) {
    std::string where = std::string("/checks/") + check.id;
    const Value* entry = json::Find(table, check.id);
    if (!entry && check.optional && !TurnsOn(check.id)) continue;  // never raised
    if (!entry) return fail(where, "missing: the engine raises this check and needs its wording");
    // Each wording (those for named revisions, then the check's own) may use the engine's
    // placeholders for this check, ${section} and ${revision}.
    auto read = [&](const Value& v, const std::string& at, CheckWording* wording) {
      wording->text = String(v, "text");
      wording->section = String(v, "section");
      for (const auto& [member, pattern] :
           {std::pair{"/text", &wording->text}, std::pair{"/section", &wording->section}}) {
        std::vector<text::Piece> pieces;
        std::string syntax;
        if (!text::Split(*pattern, &pieces, &syntax)) return fail(at + member, syntax);
        for (const text::Piece& piece : pieces) {
          if (!piece.placeholder) continue;
          bool known = piece.text == "revision" || (piece.text == "section" && member[1] == 't');
          for (const char* var : check.vars) known |= piece.text == var;
          if (!known)
            return fail(at + member, "unknown placeholder " + text::Placeholder(piece.text));
        }
      }
      return true;
    };
    std::vector<CheckWording> wordings;
    if (const Value* by = json::Find(*entry, "by_revision")) {
      for (rapidjson::SizeType i = 0; i < by->Size(); ++i) {
        const std::string at = where + "/by_revision/" + std::to_string(i);
        CheckWording wording;
        if (!read((*by)[i], at, &wording)) return false;
        for (const Value& r : (*by)[i]["revisions"].GetArray()) {
          std::string name(json::View(r));
          if (!revisions_ || !revisions_->Knows(name))
            return fail(at + "/revisions",
                        "'" + name + "' is not a revision the profile knows (revisions.known)");
          wording.revisions.push_back(std::move(name));
        }
        wordings.push_back(std::move(wording));
      }
    }
    CheckWording own;
    if (!read(*entry, where, &own)) return false;
    wordings.push_back(std::move(own));
    checks_.emplace(check.id, std::move(wordings));
  }
  return true;
}

}  // namespace fakehost::protocol
