// Loading a profile: the document against schema/profile.schema.json, then each member read
// once into Profile's typed values. The schema guarantees every shape read here, so the readers
// below only convert; what they still check is what a schema cannot say.
//
// Over 500 lines: it is one thing, the reader of every member of a profile (Profile::Members,
// one row each, and the check wordings last); split, a member's reader would sit apart from the
// table that orders it.
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

IdSequence IdsOf(const Value& v) { return {v["start"].GetInt64(), v["step"].GetInt64()}; }

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

RevisionProbe ProbeOf(const Value& v) {
  RevisionProbe probe;
  probe.method = String(v, "method");
  probe.listed = String(v, "listed");
  probe.error_listed = String(v, "error_listed");
  if (const Value* codes = json::Find(v, "error_codes"))
    for (const auto& c : codes->GetArray()) probe.error_codes.push_back(c.GetInt64());
  probe.within = Ms(v["within_ms"].GetInt64());
  return probe;
}

// One step of a stop sequence; `at` is its pointer, its label when it has none.
StopStepSpec StopStepOf(const Value& v, const std::string& at) {
  StopStepSpec step;
  step.label = String(v, "label", at);
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
  }
  return step;
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

// What a member's reader may need besides the member: the profile's file, for messages, and
// where the first problem goes.
struct Loading {
  const std::string& path;
  std::string* error;
  bool Fail(const std::string& pointer, const std::string& what) const {
    *error = path + ": " + pointer + ": " + what;
    return false;
  }
};

// One reader per top-level member of a profile. A reader runs only when its member is there
// (the schema says which must be); the table's order is the order of reading, so a member read
// later may rely on one read earlier (the manifest before the deadlines and handshake that
// refer to it, the name before the revisions' label).
struct Profile::Members {
  using Read = bool (*)(Profile&, const Value&, const Loading&);
  struct Row {
    const char* member;
    Read read;
  };

  static bool Text(std::string* out, const Value& v) {
    *out = json::View(v);
    return true;
  }
  static bool ReadName(Profile& p, const Value& v, const Loading&) { return Text(&p.name_, v); }
  static bool ReadTitle(Profile& p, const Value& v, const Loading&) { return Text(&p.title_, v); }
  static bool ReadRevision(Profile& p, const Value& v, const Loading&) {
    return Text(&p.revision_, v);
  }
  static bool ReadSchema(Profile& p, const Value& v, const Loading&) {
    p.schema_path_ = Beside(p.dir_, std::string(json::View(v)));
    return true;
  }
  static bool ReadFraming(Profile& p, const Value& v, const Loading& l) {
    p.framing_ = wire::FindFraming(json::View(v));
    if (p.framing_) return true;
    std::string known;
    for (const std::string& name : wire::FramingNames())
      known += (known.empty() ? "" : ", ") + name;
    return l.Fail("/framing", "no framing is called '" + std::string(json::View(v)) +
                                  "' (known: " + known + ")");
  }
  static bool ReadMaxPayload(Profile& p, const Value& v, const Loading&) {
    p.max_payload_ = v.GetUint64();
    return true;
  }
  static bool ReadEnvelope(Profile& p, const Value& v, const Loading&) {
    p.host_members_ = &v["host_members"];
    const Value* null_id = json::Find(v, "null_id_is_notification");
    p.null_id_is_notification_ = null_id && null_id->GetBool();
    const Value* without_id = json::Find(v, "error_without_id");
    p.error_without_id_ = without_id && without_id->GetBool();
    return true;
  }
  static bool ReadIds(Profile& p, const Value& v, const Loading&) {
    p.plugin_ids_unique_ = json::Find(v, "plugin_unique") != nullptr;
    p.default_ids_ = IdsOf(v["default"]);
    EachNamed(json::Find(v, "by_method"), [&](std::string method, const Value& i) {
      p.ids_by_method_.emplace(method, IdsOf(i));
    });
    return true;
  }
  static bool ReadRequestMembers(Profile& p, const Value& v, const Loading&) {
    EachNamed(&v, [&](std::string name, const Value& m) {
      const Value* value = json::Find(m, "value");
      if (!value) p.deadline_member_ = name;  // {"carries": "deadline_ms"}, the schema's one kind
      p.request_members_.push_back({std::move(name), value});
    });
    return true;
  }
  static bool ReadManifest(Profile& p, const Value& v, const Loading&) {
    p.has_manifest_ = true;
    ManifestSpec& m = p.manifest_;
    m.file = String(v, "file");
    m.id = String(v, "id");
    m.version = String(v, "version");
    m.entrypoint = String(v, "entrypoint");
    m.exec = String(v, "exec");
    m.schema = Beside(p.dir_, String(v, "schema"));
    if (const Value* scenario = json::Find(v, "scenario")) {
      m.spec = String(*scenario, "spec");
      m.requirement = String(*scenario, "requirement");
    }
    p.manifest_rules_ = json::Find(v, "rules");
    return true;
  }
  static bool ReadEnvironment(Profile& p, const Value& v, const Loading&) {
    p.environment_.scrub = String(v, "mode", "inherit") == "scrub";
    if (const Value* allow = json::Find(v, "allow"))
      for (const auto& name : allow->GetArray())
        p.environment_.allow.emplace_back(json::View(name));
    return true;
  }
  static bool ReadPluginEnv(Profile& p, const Value& v, const Loading&) {
    EachNamed(&v, [&](std::string name, const Value& templ) {
      p.plugin_env_.emplace_back(std::move(name), json::View(templ));
    });
    return true;
  }
  static bool ReadDeadlines(Profile& p, const Value& v, const Loading& l) {
    p.default_deadline_ = Ms(v["default"].GetInt64());
    EachNamed(json::Find(v, "by_method"), [&](std::string method, const Value& ms) {
      p.deadlines_by_method_.emplace(method, Ms(ms.GetInt64()));
    });
    const Value* rules = json::Find(v, "from_manifest");
    if (!rules) return true;
    if (!p.has_manifest_)
      return l.Fail("/deadlines_ms/from_manifest",
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
      p.manifest_deadlines_.push_back(std::move(md));
    }
    return true;
  }
  static bool ReadHandshake(Profile& p, const Value& v, const Loading& l);
  static bool ReadRevisions(Profile& p, const Value& v, const Loading& l);
  static bool ReadAfterHandshake(Profile& p, const Value& v, const Loading&) {
    AfterHandshake a;
    EachNamed(json::Find(v, "when"),
              [&](std::string member, const Value& w) { a.when.emplace_back(member, &w); });
    for (const auto& message : v["send"].GetArray()) a.send.push_back(&message);
    p.after_handshake_ = std::move(a);
    return true;
  }
  static bool ReadBarrier(Profile& p, const Value& v, const Loading&) {
    p.barrier_method_ = String(v, "method");
    return true;
  }
  static bool ReadShutdownNotification(Profile& p, const Value& v, const Loading&) {
    return Text(&p.shutdown_notification_, v);
  }
  static bool ReadProgress(Profile& p, const Value& v, const Loading&) {
    p.progress_ = Progress{String(v, "notification"), String(v, "token"), String(v, "value"),
                           String(v, "request_token")};
    return true;
  }
  static bool ReadInputRequired(Profile& p, const Value& v, const Loading&) {
    p.input_required_ = InputRequired{String(v, "requests"), String(v, "state"),
                                      String(v, "responses"), String(v, "echo_state")};
    return true;
  }
  static bool ReadCancellation(Profile& p, const Value& v, const Loading&) {
    p.cancellation_method_ = String(v, "method");
    p.cancellation_id_ = String(v, "id");
    return true;
  }
  static bool ReadStopSequences(Profile& p, const Value& v, const Loading& l);
  static bool ReadHost(Profile& p, const Value& v, const Loading&);
  static bool ReadVars(Profile& p, const Value& v, const Loading&) {
    p.vars_ = &v;
    return true;
  }
  static bool ReadScenarioTimeout(Profile& p, const Value& v, const Loading&) {
    p.scenario_timeout_ = Ms(v.GetInt64());
    return true;
  }
  static bool ReadScenarioTimeoutMax(Profile& p, const Value& v, const Loading&) {
    p.scenario_timeout_max_ = Ms(v.GetInt64());
    return true;
  }
  static bool ReadTransportBudget(Profile& p, const Value& v, const Loading&) {
    p.transport_budget_ = {v["frames"].GetUint64(), v["bytes"].GetUint64()};
    return true;
  }
  static bool ReadLimits(Profile& p, const Value& v, const Loading&) {
    if (const Value* cpu = json::Find(v, "cpu_seconds")) p.limits_.cpu_seconds = cpu->GetUint64();
    if (const Value* mib = json::Find(v, "address_space_mib"))
      p.limits_.address_space_bytes = mib->GetUint64() << 20;
    return true;
  }
  static bool ReadTriggers(Profile& p, const Value& v, const Loading&) {
    EachNamed(&v, [&](std::string name, const Value& t) {
      const Value& example = t["example"];
      p.triggers_.push_back({std::move(name), String(t, "does"), &example,
                             String(example, "method"), json::Find(example, "params")});
    });
    return true;
  }
  static bool ReadVersioningMember(Profile& p, const Value& v, const Loading& l) {
    Versioning versioning;
    if (!ReadVersioning(v, l.path, &versioning, l.error)) return false;
    p.versioning_ = std::move(versioning);
    return true;
  }
  static bool ReadChecks(Profile& p, const Value& v, const Loading& l);

  static constexpr Row kRows[] = {
      {"name", &ReadName},
      {"title", &ReadTitle},
      {"revision", &ReadRevision},
      {"schema", &ReadSchema},
      {"framing", &ReadFraming},
      {"max_payload", &ReadMaxPayload},
      {"envelope", &ReadEnvelope},
      {"ids", &ReadIds},
      {"request_members", &ReadRequestMembers},
      {"manifest", &ReadManifest},
      {"environment", &ReadEnvironment},
      {"plugin_env", &ReadPluginEnv},
      {"deadlines_ms", &ReadDeadlines},
      {"handshake", &ReadHandshake},
      {"revisions", &ReadRevisions},
      {"after_handshake", &ReadAfterHandshake},
      {"barrier", &ReadBarrier},
      {"shutdown_notification", &ReadShutdownNotification},
      {"progress", &ReadProgress},
      {"input_required", &ReadInputRequired},
      {"cancellation", &ReadCancellation},
      {"stop_sequences", &ReadStopSequences},
      {"host", &ReadHost},
      {"vars", &ReadVars},
      {"scenario_timeout_ms", &ReadScenarioTimeout},
      {"scenario_timeout_max_ms", &ReadScenarioTimeoutMax},
      {"transport_budget", &ReadTransportBudget},
      {"limits", &ReadLimits},
      {"triggers", &ReadTriggers},
      {"versioning", &ReadVersioningMember},
      {"checks", &ReadChecks},  // last: the framing's checks need their wording
  };
};

bool Profile::Init(const std::string& path, std::string* error) {
  auto slash = path.find_last_of('/');
  dir_ = slash == std::string::npos ? "." : path.substr(0, slash);
  const Loading loading{path, error};
  for (const Members::Row& row : Members::kRows)
    if (const Value* member = json::Find(doc_, row.member))
      if (!row.read(*this, *member, loading)) return false;
  return true;
}

bool Profile::Members::ReadHandshake(Profile& p, const Value& v, const Loading& l) {
  p.handshake_method_ = String(v, "method");
  if (const Value* allowed = json::Find(v, "allowed_before_answer"))
    for (const auto& m : allowed->GetArray()) p.allowed_before_handshake_.emplace(json::View(m));
  if (const Value* g = json::Find(v, "granted_capabilities")) {
    if (g->IsString())
      p.granted_pointer_ = json::View(*g);
    else
      p.granted_manifest_pointer_ = String(*g, "manifest");
    if (!p.granted_manifest_pointer_.empty() && !p.has_manifest_)
      return l.Fail("/handshake/granted_capabilities",
                    "capabilities granted from the manifest need a manifest member (this "
                    "profile has none)");
  }
  if (const Value* a = json::Find(v, "announcements"))
    p.announcements_pointer_ = std::string(json::View(*a));
  const Value* before = json::Find(v, "announced_before");
  if (!before) return true;
  if (!p.announcements_pointer_)
    return l.Fail("/handshake/announced_before",
                  "needs handshake.announcements (where the plugin announces what it has)");
  EachNamed(before, [&](std::string method, const Value& m) {
    p.announced_before_.emplace(
        std::move(method),
        AnnouncedBefore{String(m, "announced"), String(m, "sentence"), String(m, "section")});
  });
  return true;
}

bool Profile::Members::ReadRevisions(Profile& p, const Value& r, const Loading& l) {
  protocol::Revisions revisions;
  revisions.label = json::Find(r, "label") ? String(r, "label") : p.name_;
  revisions.negotiated = String(r, "negotiated");
  revisions.offer = String(r, "offer");
  for (const auto& known : r["known"].GetArray()) {
    Revision revision;
    revision.name = String(known, "name");
    if (const Value* h = json::Find(known, "handshake")) revision.handshake = h->GetBool();
    if (const Value* b = json::Find(known, "barrier")) revision.barrier = json::View(*b);
    if (const Value* b = json::Find(known, "batches")) revision.batches = b->GetBool();
    if (json::Find(known, "schema")) {
      if (revision.handshake)
        return l.Fail("/revisions/known", "'" + revision.name +
                                              "' has a handshake, so it cannot have a frame "
                                              "schema of its own (its frames are validated "
                                              "before the plugin names it)");
      revision.schema_path = Beside(p.dir_, String(known, "schema"));
    }
    EachNamed(json::Find(known, "request_members"), [&](std::string pointer, const Value& v) {
      revision.request_members.emplace_back(std::move(pointer), &v);
    });
    revisions.known.push_back(std::move(revision));
  }
  const Revision* offered = revisions.Find(revisions.offer);
  if (!offered || !offered->handshake)
    return l.Fail("/revisions/offer", "'" + revisions.offer +
                                          "' is not one of the known revisions with a handshake (" +
                                          revisions.KnownList() + ")");
  if (const Value* probe = json::Find(r, "probe")) revisions.probe = ProbeOf(*probe);
  if (revisions.probe.has_value() == revisions.NewestWithoutHandshake().empty())
    return l.Fail("/revisions/probe", revisions.probe
                                          ? "a probe needs a known revision without a "
                                            "handshake (handshake: false)"
                                          : "a revision without a handshake needs a "
                                            "probe (how a plugin is found to speak it)");
  p.revisions_ = std::move(revisions);
  return true;
}

bool Profile::Members::ReadStopSequences(Profile& p, const Value& v, const Loading& l) {
  std::string bad_signal;
  EachNamed(&v, [&](std::string name, const Value& steps) {
    std::vector<StopStepSpec>& out = p.stop_sequences_[name];
    for (rapidjson::SizeType i = 0; i < steps.Size(); ++i) {
      const std::string at = "/stop_sequences/" + name + "/" + std::to_string(i);
      out.push_back(StopStepOf(steps[i], at));
      if (out.back().kind == StopStepSpec::Kind::kSignal && out.back().signal == 0 &&
          bad_signal.empty())
        bad_signal = at + "/signal";
    }
  });
  if (!bad_signal.empty())
    return l.Fail(bad_signal, "no signal has that name (TERM, KILL, INT, ...)");
  return true;
}

bool Profile::Members::ReadHost(Profile& p, const Value& h, const Loading&) {
  EachNamed(json::Find(h, "replies"), [&](std::string method, const Value& r) {
    p.host_.replies.emplace_back(method, Answer(r));
  });
  EachNamed(json::Find(h, "capabilities"), [&](std::string method, const Value& c) {
    p.host_.capabilities.emplace_back(method, json::View(c));
  });
  EachNamed(json::Find(h, "capability_prefixes"), [&](std::string prefix, const Value& c) {
    p.host_.capability_prefixes.emplace_back(prefix, json::View(c));
  });
  if (const Value* limit = json::Find(h, "rate_limit_per_minute"))
    p.host_.rate_limit_per_minute = limit->GetInt64();
  for (auto [key, out] :
       {std::pair{"denied", &p.host_.denied}, std::pair{"rate_limited", &p.host_.rate_limited},
        std::pair{"unknown", &p.host_.unknown},
        std::pair{"unimplemented_granted", &p.host_.unimplemented_granted}})
    if (const Value* answer = json::Find(h, key)) *out = Answer(*answer);
  return true;
}

namespace {

// Every check named in the table is one the engine or some framing raises.
bool OnlyKnownChecks(const Value& table, const Loading& l) {
  for (const auto& m : table.GetObject()) {
    std::string_view name = json::View(m.name);
    bool known = IsComment(name);
    for (const EngineCheck& check : EngineChecks()) known |= name == check.id;
    for (const std::string& framing : wire::FramingNames())
      for (const wire::FramingCheck& check : wire::FindFraming(framing)->checks())
        known |= name == check.id;
    if (!known)
      return l.Fail("/checks/" + std::string(name), "not a check the engine or a framing raises");
  }
  return true;
}

// One wording of `check` at `at`: it may use the engine's placeholders for this check,
// ${section} and ${revision}.
bool ReadWording(const Value& v, const std::string& at, const EngineCheck& check, const Loading& l,
                 CheckWording* wording) {
  wording->text = String(v, "text");
  wording->section = String(v, "section");
  for (const auto& [member, pattern] :
       {std::pair{"/text", &wording->text}, std::pair{"/section", &wording->section}}) {
    std::vector<text::Piece> pieces;
    std::string syntax;
    if (!text::Split(*pattern, &pieces, &syntax)) return l.Fail(at + member, syntax);
    for (const text::Piece& piece : pieces) {
      if (!piece.placeholder) continue;
      bool known = piece.text == "revision" || (piece.text == "section" && member[1] == 't');
      for (const char* var : check.vars) known |= piece.text == var;
      if (!known)
        return l.Fail(at + member, "unknown placeholder " + text::Placeholder(piece.text));
    }
  }
  return true;
}

// A check's wordings for named revisions (its "by_revision"), each naming revisions the profile
// knows.
bool ReadRevisionWordings(const Value& entry, const std::string& where, const EngineCheck& check,
                          const Revisions* revisions, const Loading& l,
                          std::vector<CheckWording>* wordings) {
  const Value* by = json::Find(entry, "by_revision");
  if (!by) return true;
  for (rapidjson::SizeType i = 0; i < by->Size(); ++i) {
    const std::string at = where + "/by_revision/" + std::to_string(i);
    CheckWording wording;
    if (!ReadWording((*by)[i], at, check, l, &wording)) return false;
    for (const Value& r : (*by)[i]["revisions"].GetArray()) {
      std::string name(json::View(r));
      if (!revisions || !revisions->Knows(name))
        return l.Fail(at + "/revisions",
                      "'" + name + "' is not a revision the profile knows (revisions.known)");
      wording.revisions.push_back(std::move(name));
    }
    wordings->push_back(std::move(wording));
  }
  return true;
}

}  // namespace

// Reads "checks": {id: {"text": "...", "section": "..."}}. Every check the engine and the
// framing raise must be worded, and a wording may use only the placeholders the engine fills
// in, so a typo in a profile is an error at load time rather than a "{fram}" in a report. The
// wording of another framing's check is let be (never raised): a profile whose framing changed,
// as a `schema diff` case makes one, still loads.
bool Profile::Members::ReadChecks(Profile& p, const Value& table, const Loading& l) {
  std::vector<EngineCheck> raised = EngineChecks();
  for (const wire::FramingCheck& check : p.framing_->checks())
    raised.push_back({check.id, check.vars});
  if (!OnlyKnownChecks(table, l)) return false;
  for (const EngineCheck& check : raised) {
    std::string where = std::string("/checks/") + check.id;
    const Value* entry = json::Find(table, check.id);
    if (!entry && check.optional && !p.TurnsOn(check.id)) continue;  // never raised
    if (!entry) return l.Fail(where, "missing: the engine raises this check and needs its wording");
    // The wordings for named revisions first, then the check's own.
    std::vector<CheckWording> wordings;
    if (!ReadRevisionWordings(*entry, where, check, p.revisions(), l, &wordings)) return false;
    CheckWording own;
    if (!ReadWording(*entry, where, check, l, &own)) return false;
    wordings.push_back(std::move(own));
    p.checks_.emplace(check.id, std::move(wordings));
  }
  return true;
}

}  // namespace fakehost::protocol
