#include "harness/run/look.hpp"

#include "harness/json/json.hpp"
#include "harness/scenario/loader.hpp"
#include "harness/text/printable.hpp"

namespace fakehost::run::look {

std::string Ask(const std::string& request, const std::string& as, long long within_ms,
                const std::string& why) {
  return "  - send: " + request + "\n    as: " + as + "\n  - expect: {reply_to: " + as +
         "}\n    within: " + std::to_string(within_ms) + "ms\n    level: may\n    why: " + why +
         "\n";
}

scenario::Scenario Load(const std::string& yaml, const std::string& name,
                        const std::vector<std::string>& fragment_dirs, std::string* error) {
  scenario::Scenario s;
  std::vector<scenario::LoadError> errors;
  scenario::LoadContext context;
  context.fragment_dirs = fragment_dirs;
  if (!scenario::LoadScenarioText(yaml, name, name, context, &s, &errors))
    *error = errors.empty() ? "the session could not be written" : errors.front().ToString();
  return s;
}

std::shared_ptr<rapidjson::Document> Parsed(std::string_view text) {
  auto d = std::make_shared<rapidjson::Document>();
  if (!json::Parse(text, d.get()).ok || !d->IsObject()) return nullptr;
  return d;
}

std::shared_ptr<rapidjson::Document> AnswerTo(const result::ScenarioResult& r,
                                              const std::string& method) {
  for (const result::TranscriptEntry& e : r.transcript)
    if (e.direction == result::Direction::kPluginToHost && e.kind == result::EntryKind::kResponse &&
        e.method == method && !e.clipped)
      return Parsed(e.text);
  return nullptr;
}

std::string YamlOf(const rapidjson::Value& v) { return text::YamlSafeJson(json::ToCompact(v)); }

}  // namespace fakehost::run::look
