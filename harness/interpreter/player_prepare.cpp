// What is settled before the plugin is spawned: whether the scenario applies, whether its
// triggers are given, its variables and the plugin's environment. (Who answers the plugin's
// requests is answer_policy.cpp's.)
#include "harness/interpreter/player.hpp"

#include <algorithm>
#include <variant>

#include "harness/json/json.hpp"
#include "harness/scenario/template.hpp"
#include "harness/text/template.hpp"

namespace fakehost::interpreter {
namespace {

// The trigger a step sends, or "": only a send asks the plugin to act as a trigger promises.
std::string TriggerSentBy(const Step& step) {
  const auto* send = std::get_if<Send>(&step.body);
  return send ? send->trigger : std::string();
}

// Whether a manifest value declares nothing. A present object declares its surface even when it
// is {} (Flash's `query: {}` and `hints: {}` declare an evaluator and a hints provider).
bool IsEmptyValue(const rapidjson::Value& v) {
  return v.IsNull() || (v.IsBool() && !v.GetBool()) || (v.IsArray() && v.Empty()) ||
         (v.IsString() && v.GetStringLength() == 0);
}

}  // namespace

void Player::BuildVars() {
  rapidjson::Document& vars = bindings_.vars();
  vars.SetObject();
  auto& a = vars.GetAllocator();
  for (const auto& m : profile_.vars().GetObject())
    vars.AddMember(rapidjson::Value(m.name, a), rapidjson::Value(m.value, a), a);
  rapidjson::Value plugin(rapidjson::kObjectType);
  plugin.AddMember("id", rapidjson::Value(plugin_.id.c_str(), a), a);
  plugin.AddMember("version", rapidjson::Value(plugin_.version.c_str(), a), a);
  plugin.AddMember("dir", rapidjson::Value(plugin_.dir.c_str(), a), a);
  vars.AddMember("plugin", plugin, a);
  rapidjson::Value* host = const_cast<rapidjson::Value*>(json::Find(vars, "host"));
  if (!host) {
    vars.AddMember("host", rapidjson::Value(rapidjson::kObjectType), a);
    host = const_cast<rapidjson::Value*>(json::Find(vars, "host"));
  }
  if (host->IsObject() && !json::Find(*host, "pid"))
    host->AddMember("pid",
                    rapidjson::Value(static_cast<std::int64_t>(stand_in_.pid() > 0 ? stand_in_.pid()
                                                                                   : ::getpid())),
                    a);
  rapidjson::Value sc(rapidjson::kObjectType);
  sc.AddMember("id", rapidjson::Value(scenario_.id.c_str(), a), a);
  sc.AddMember("data_dir", rapidjson::Value(data_dir_.c_str(), a), a);
  const JsonPtr& given = scenario_.config ? scenario_.config : plugin_.config;
  std::string config = given ? json::ToCompact(*given) : "{}";
  sc.AddMember("config_json", rapidjson::Value(config.c_str(), a), a);
  vars.AddMember("scenario", sc, a);
  if (!revision_.empty()) {
    rapidjson::Value revision(rapidjson::kObjectType);
    revision.AddMember("offered", rapidjson::Value(revision_.c_str(), a), a);
    vars.AddMember("revision", revision, a);
  }
  rapidjson::Value manifest;
  if (plugin_.manifest) manifest.CopyFrom(*plugin_.manifest, a);
  vars.AddMember("manifest", manifest, a);
  for (const auto& [name, value] : scenario_.vars) {
    rapidjson::Value v;
    if (value) v.CopyFrom(*value, a);
    if (auto* old = const_cast<rapidjson::Value*>(json::Find(vars, name)))
      *old = v;
    else
      vars.AddMember(rapidjson::Value(name.c_str(), a), v, a);
  }
}

bool Player::PluginEnvironment(process::SpawnSpec* spawn, std::string* error) {
  for (const auto& entry : profile_.plugin_env()) {
    // Named, not bound: clang 14 (ci/sanitize) does not let a lambda capture a binding.
    const std::string& name = entry.first;
    const std::string& templ = entry.second;
    rapidjson::Document value;
    const rapidjson::Value pattern(
        rapidjson::StringRef(templ.data(), static_cast<rapidjson::SizeType>(templ.size())));
    if (!scenario::Substitute(
            pattern, [this](std::string_view p) { return Lookup(p); }, value.GetAllocator(), &value,
            error)) {
      *error = "profile plugin_env " + name + ": " + *error;
      return false;
    }
    std::string text = value.IsString() ? std::string(value.GetString(), value.GetStringLength())
                                        : json::ToCompact(value);
    auto& vars = spawn->env;
    vars.erase(std::remove_if(vars.begin(), vars.end(),
                              [&](const std::string& kv) { return kv.rfind(name + "=", 0) == 0; }),
               vars.end());
    vars.push_back(name + "=" + text);
  }
  // fakehost.yaml's per-scenario entries: ${scenario.data_dir} is this scenario's directory.
  if (!plugin_.scenario_env.empty() && data_dir_.empty()) {
    *error = "could not make the scenario's data directory for fakehost.yaml's env";
    return false;
  }
  for (const std::string& entry : plugin_.scenario_env) {
    const std::size_t eq = entry.find('=');
    const std::string name = entry.substr(0, eq + 1);
    std::string text;
    const text::Lookup lookup = [&](std::string_view var) -> std::optional<std::string> {
      if (var == "scenario.data_dir") return data_dir_;
      return std::nullopt;
    };
    if (!text::Fill(std::string_view(entry).substr(eq + 1), lookup, &text, error)) return false;
    auto& vars = spawn->env;
    vars.erase(std::remove_if(vars.begin(), vars.end(),
                              [&](const std::string& kv) { return kv.rfind(name, 0) == 0; }),
               vars.end());
    vars.push_back(name + text);
  }
  return true;
}

std::string Player::MissingTrigger() const {
  std::vector<std::string> needed;  // every trigger the steps send, in the order written
  VisitSteps(scenario_.steps, [&](const Step& s) {
    if (std::string trigger = TriggerSentBy(s);
        !trigger.empty() && std::find(needed.begin(), needed.end(), trigger) == needed.end())
      needed.push_back(trigger);
  });
  for (const std::string& name : needed) {
    // A trigger declared none is not missing: the scenario is not applicable, or under
    // `triggers: any` its sends are skipped.
    if (plugin_.triggers.count(name) || plugin_.triggers_none.count(name)) continue;
    std::string where = ConfigFileToName();
    std::string does, example;
    if (const protocol::TriggerSpec* t = profile_.trigger(name)) {
      does = t->does;
      example = json::ToCompact(*t->example);
    }
    auto why_not = plugin_.derived.why_not.find(name);
    return "needs the trigger '" + name + "'" +
           (does.empty() ? "" : " (a request on which the plugin " + does + ")") +
           (why_not == plugin_.derived.why_not.end()
                ? ""
                : "; fakehost could not make it from the plugin's lists: " + why_not->second) +
           "; add it to " + where +
           ", as a request of the plugin's own (this one is an example):" + "\n  triggers:\n    " +
           name + ": " + (example.empty() ? "{method: ..., params: {...}}" : example) +
           "\nor, if the plugin has nothing that does this: " + name + ": {none: \"why\"}";
  }
  return {};
}

std::string Player::ConfigFileToName() const {
  if (!plugin_.config_file.empty()) return plugin_.config_file;
  // A protocol without a manifest has no "beside the manifest": the file goes in the plugin's
  // directory (run --plugin DIR), or beside the command (run -- ARGV reads ./fakehost.yaml).
  return profile_.has_manifest() ? "a fakehost.yaml beside the manifest"
                                 : "a fakehost.yaml in the plugin's directory (or --config FILE)";
}

std::string Player::TriggerNotApplicable() const {
  const std::string file =
      plugin_.config_file.empty() ? std::string("fakehost.yaml") : plugin_.config_file;
  std::string reason, none;
  bool given = false;
  VisitSteps(scenario_.steps, [&](const Step& s) {
    std::string trigger = TriggerSentBy(s);
    if (trigger.empty()) return;
    auto it = plugin_.triggers_none.find(trigger);
    if (it == plugin_.triggers_none.end()) {
      given = true;
      return;
    }
    // Declared in the file, or found by fakehost in the plugin's own lists (run::DeriveTriggers).
    const bool derived = plugin_.derived.why_not.count(trigger) != 0;
    if (reason.empty())
      reason = "not applicable: the plugin has no '" + trigger + "' trigger (" +
               (derived ? "fakehost read its lists" : file) + ": " + it->second + ")";
    if (none.find("'" + trigger + "'") == std::string::npos)
      none += (none.empty() ? "'" : ", '") + trigger + "'";
  });
  if (!scenario_.any_trigger || reason.empty()) return reason;
  if (given) return "";
  return "not applicable: the plugin has none of the triggers " + none + " (" + file + ")";
}

bool Player::SkipsForNoneTrigger(const Step& step) {
  if (!scenario_.any_trigger) return false;
  auto skipped = [&](const std::string& name) {
    return !name.empty() && skipped_requests_.count(name) > 0;
  };
  // A skipped step's own name (a send's request, an expect's capture) is skipped in turn, so a
  // retry of what a skipped expect captured goes too.
  auto skip = [&](const std::string& as) {
    if (!as.empty()) skipped_requests_.insert(as);
    return true;
  };
  if (const auto* send = std::get_if<Send>(&step.body)) {
    if ((!send->trigger.empty() && plugin_.triggers_none.count(send->trigger)) ||
        skipped(send->retry))
      return skip(send->as);
    return false;
  }
  if (const auto* expect = std::get_if<Expect>(&step.body))
    return ((expect->filter.kind == Filter::Kind::kReplyTo && skipped(expect->filter.name)) ||
            skipped(expect->after)) &&
           skip(expect->as);
  if (const auto* none = std::get_if<ExpectNone>(&step.body))
    return (none->filter.kind == Filter::Kind::kReplyTo && skipped(none->filter.name)) ||
           skipped(none->since);
  return false;
}

std::string Player::Unmet() const {
  for (const Requirement& r : scenario_.requires_) {
    if (r.source != Requirement::Source::kManifest) continue;
    const rapidjson::Value* v =
        plugin_.manifest ? json::Resolve(*plugin_.manifest, r.pointer) : nullptr;
    if (!v || IsEmptyValue(*v))
      return plugin_.manifest ? "the plugin's manifest declares nothing at " + r.pointer
                              : "the plugin has no manifest (needed: " + r.pointer + ")";
  }
  return {};
}

bool Player::RequiresAnnouncements() const {
  return std::any_of(
      scenario_.requires_.begin(), scenario_.requires_.end(),
      [](const Requirement& r) { return r.source != Requirement::Source::kManifest; });
}

const rapidjson::Value* Player::Announcements() const {
  const rapidjson::Value* answer = session_.handshake_answer();
  // A revision without a handshake announces in the answer to the run's probe.
  const protocol::Revisions* revisions = profile_.revisions();
  const protocol::Revision* revision = revisions ? revisions->Find(revision_) : nullptr;
  if (!answer && revision && !revision->handshake && plugin_.probe.answer)
    answer = plugin_.probe.answer.get();
  const std::string* pointer = profile_.announcements_pointer();
  return answer && pointer ? json::Resolve(*answer, *pointer) : nullptr;
}

std::string Player::Unannounced(const rapidjson::Value& announced) const {
  for (const Requirement& r : scenario_.requires_) {
    if (r.source == Requirement::Source::kManifest) continue;
    const rapidjson::Value* v = json::Resolve(announced, r.pointer);
    const bool has = v && !IsEmptyValue(*v);
    if (r.source == Requirement::Source::kAnnounced && !has)
      return "the plugin does not announce " + r.pointer + " in its handshake answer";
    if (r.source == Requirement::Source::kNotAnnounced && has)
      return "the plugin announces " + r.pointer + " in its handshake answer";
  }
  return {};
}

bool Player::SettleAnnouncements() {
  if (announcements_settled_ || !RequiresAnnouncements()) return true;
  if (!session_.handshake_answered()) return true;
  const rapidjson::Value* announced = Announcements();
  // An answer without the announcements (an error) settles nothing: the handshake's own
  // expectation judges it, and the scenario fails there, not here.
  if (!announced) return true;
  announcements_settled_ = true;
  if (std::string why = Unannounced(*announced); !why.empty()) {
    outcome_.EndEarly(Status::kSkip, "not applicable: " + why);
    return false;
  }
  if (!deferred_missing_.empty()) {
    outcome_.EndEarly(Status::kUntested, deferred_missing_);
    return false;
  }
  return true;
}

void Player::JudgeUnder(const std::string& revision) {
  revision_ = revision;
  result_.revision = revision;
  session_.JudgeUnder(revision);
  const Cite* cite = scenario_.CiteFor(revision);
  if (!cite && !scenario_.cites.empty()) cite = &scenario_.cites.front();
  if (cite) {
    result_.spec = profile_.revisions()->label + " " + revision + ", " + cite->section;
    result_.sentence = cite->sentence;
    result_.level = cite->level;
  }
}

std::string Player::RevisionToPlay(const protocol::Revisions& revisions, std::string* why) const {
  const PluginTarget::Probe& probe = plugin_.probe;
  auto cited = [&](const std::string& r) {
    return scenario_.cites.empty() || scenario_.CiteFor(r);
  };
  auto listed = [&](const std::string& r) {
    return std::find(probe.listed.begin(), probe.listed.end(), r) != probe.listed.end();
  };
  // A plugin whose probe answer lists only revisions without a handshake speaks none with one:
  // the stdio binding's modern server, which refuses the handshake.
  const bool modern_only =
      probe.answered && std::none_of(probe.listed.begin(), probe.listed.end(), [&](auto& n) {
        const protocol::Revision* r = revisions.Find(n);
        return r && r->handshake;
      });
  const std::string& pinned = options_.revision;
  if (!pinned.empty()) {
    const protocol::Revision* r = revisions.Find(pinned);
    if (!cited(pinned))
      *why = "--revision " + pinned + " was asked for, and this scenario cites no sentence of it";
    else if (r && !r->handshake && probe.done && !listed(pinned))
      *why = "--revision " + pinned + " was asked for, and the plugin does not list it (" +
             probe.summary + ")";
    else if (r && r->handshake && modern_only)
      *why = "--revision " + pinned + " was asked for, and the plugin speaks only revisions " +
             "without a handshake (" + probe.summary + ")";
    return why->empty() ? pinned : "";
  }
  // A revision without a handshake only for a scenario that cites it: one that cites nothing
  // (a user's, the fuzzer's) is written for the handshake.
  for (auto r = revisions.known.rbegin(); r != revisions.known.rend(); ++r)
    if (!r->handshake && scenario_.CiteFor(r->name) && listed(r->name)) return r->name;
  bool cites_handshake = scenario_.cites.empty();
  for (const Cite& cite : scenario_.cites)
    for (const std::string& name : cite.revisions)
      if (const protocol::Revision* r = revisions.Find(name); r && r->handshake)
        cites_handshake = true;
  if (!cites_handshake) {
    *why =
        "this scenario cites only revisions without a handshake, and the plugin lists none of "
        "them (" +
        (probe.done ? probe.summary : std::string("it was not probed")) + ")";
    return {};
  }
  if (modern_only) {
    *why = "the plugin speaks only revisions without a handshake (" + probe.summary +
           "), and this scenario is of the revisions with one";
    return {};
  }
  return revisions.offer;
}

bool Player::SettleRevision() {
  const protocol::Revisions* revisions = profile_.revisions();
  if (revision_settled_ || !revisions || !session_.handshake_answered()) return true;
  const rapidjson::Value* answer = session_.handshake_answer();
  const rapidjson::Value* named = answer ? json::Resolve(*answer, revisions->negotiated) : nullptr;
  // An answer that names no revision (an error) settles nothing: the handshake's own
  // expectation judges it, under the revision offered.
  if (!named || !named->IsString()) return true;
  revision_settled_ = true;
  const std::string spoken(json::View(*named));
  // A scenario about the negotiation itself stays under the revision offered, its steps judging
  // what was answered; only another known revision than --revision asked for ends it, as it
  // ends every scenario.
  if (scenario_.judged_by_offered) {
    if (options_.revision.empty() || spoken == options_.revision || !revisions->Knows(spoken))
      return true;
    outcome_.EndEarly(Status::kSkip, "not applicable: --revision " + options_.revision +
                                         " was asked for, and the plugin answered " + spoken);
    return false;
  }
  std::string why;
  if (!revisions->Knows(spoken)) {
    // The plugin's text, cut to a revision's length: the reporters make it safe to show.
    const std::string shown = spoken.size() > 64 ? spoken.substr(0, 64) + "..." : spoken;
    why = "the plugin answered revision '" + shown + "', which fakehost does not know (it knows " +
          revisions->KnownList() + "): there is no text to judge it by";
  } else if (!options_.revision.empty() && spoken != options_.revision) {
    why = "--revision " + options_.revision + " was asked for, and the plugin answered " + spoken;
  } else if (!scenario_.cites.empty() && !scenario_.CiteFor(spoken)) {
    std::string cited;
    for (const Cite& cite : scenario_.cites)
      for (const std::string& r : cite.revisions)
        if (cited.find(r) == std::string::npos) cited += (cited.empty() ? "" : ", ") + r;
    why = "the plugin speaks " + revisions->label + " " + spoken +
          ", and this scenario cites a sentence only of " + cited;
  }
  if (!why.empty()) {
    outcome_.EndEarly(Status::kSkip, "not applicable: " + why);
    return false;
  }
  JudgeUnder(spoken);
  return true;
}

bool Player::SendsMissingTrigger(const Step& step) const {
  auto missing = [&](const Step& s) {
    std::string t = TriggerSentBy(s);
    return !t.empty() && !plugin_.triggers.count(t) && !plugin_.triggers_none.count(t);
  };
  bool sends = missing(step);
  if (const auto* each = std::get_if<ForEach>(&step.body))
    VisitSteps(each->steps, [&](const Step& s) { sends = sends || missing(s); });
  return sends;
}

}  // namespace fakehost::interpreter
