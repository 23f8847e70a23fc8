#include "harness/run/probe.hpp"

#include <algorithm>
#include <memory>

#include "harness/json/json.hpp"
#include "harness/run/look.hpp"
#include "harness/run/runner.hpp"

namespace fakehost::run {

bool ListedRevisions(const protocol::RevisionProbe& probe, const rapidjson::Value& answer,
                     std::vector<std::string>* listed) {
  const rapidjson::Value* list = nullptr;
  if (json::Find(answer, "result")) {
    list = json::Resolve(answer, probe.listed);
  } else if (const rapidjson::Value* code = json::Resolve(answer, "/error/code");
             code && code->IsInt64() && !probe.error_listed.empty() &&
             std::count(probe.error_codes.begin(), probe.error_codes.end(), code->GetInt64())) {
    list = json::Resolve(answer, probe.error_listed);
  }
  if (!list || !list->IsArray()) return false;
  for (const auto& r : list->GetArray())
    if (r.IsString() && r.GetStringLength() <= 64 && listed->size() < 64)
      listed->emplace_back(json::View(r));
  return true;
}

namespace {

// The probe as a scenario of its own, so that it is spawned, limited, validated and stopped as
// every scenario is: one request, its answer waited for as long as the probe allows.
scenario::Scenario ProbeScenario(const protocol::RevisionProbe& probe) {
  const std::string yaml =
      "title: revision probe\nspec: revisions.probe\nrequirement: none\nsteps:\n" +
      look::Ask("{method: \"" + probe.method + "\"}", "probe", probe.within.count(),
                "the probe's own wait (profile revisions.probe)");
  std::string error;
  return look::Load(yaml, "revisions.probe", {}, &error);
}

}  // namespace

void ProbeRevisions(const protocol::Profile& profile, const schema::FrameSchema* schema,
                    const interpreter::PlayOptions& options, interpreter::PluginTarget* target) {
  const protocol::Revisions* revisions = profile.revisions();
  if (!revisions || !revisions->probe || !target->never_spawned.empty()) return;
  const protocol::RevisionProbe& probe = *revisions->probe;
  interpreter::PlayOptions play = options;
  play.strict = false;
  play.revision = revisions->NewestWithoutHandshake();  // the modern revision it prefers
  const scenario::Scenario s = ProbeScenario(probe);
  const result::ScenarioResult r = PlayScenario(s, profile, schema, *target, play);
  interpreter::PluginTarget::Probe& out = target->probe;
  out = {};
  out.done = true;
  if (std::shared_ptr<rapidjson::Document> parsed = look::AnswerTo(r, probe.method)) {
    const rapidjson::Document& answer = *parsed;
    out.answered = ListedRevisions(probe, answer, &out.listed);
    out.answer = parsed;
    std::string list;
    for (const std::string& l : out.listed) list += (list.empty() ? "" : ", ") + l;
    const bool error = json::Find(answer, "error") != nullptr;
    out.summary =
        probe.method + (out.answered ? (error ? " refused the version, listing " : " listed ") +
                                           (list.empty() ? "nothing" : list)
                                     : " answered with an error, listing no revision: the "
                                       "plugin speaks only revisions with a handshake");
    return;
  }
  out.summary = probe.method + " had no answer within " + std::to_string(probe.within.count()) +
                " ms, listing no revision: the plugin speaks only revisions with a handshake";
}

}  // namespace fakehost::run
