// Sessions a run plays to look at a plugin, not to judge it: the revision probe (probe.hpp) and
// the trigger discovery (derive.hpp). Each is a scenario written as text, played as any scenario
// is (spawned, limited, validated, stopped), whose answers are read back from its transcript.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "harness/json/rapidjson.hpp"
#include "harness/result/result.hpp"
#include "harness/scenario/model.hpp"

namespace fakehost::run::look {

/// A step sending `request` (flow YAML) as `as`, then one waiting `within_ms` for its answer,
/// judged by nothing (level may); `why` says whose wait it is.
std::string Ask(const std::string& request, const std::string& as, long long within_ms,
                const std::string& why);

/// The session `yaml` loaded as the scenario `name`, its `use:` fragments from `fragment_dirs`;
/// `*error` says why it could not be.
scenario::Scenario Load(const std::string& yaml, const std::string& name,
                        const std::vector<std::string>& fragment_dirs, std::string* error);

/// A JSON object parsed from `text`, or null.
std::shared_ptr<rapidjson::Document> Parsed(std::string_view text);

/// The plugin's first answer to the host's `method` in `r`, whole and parsed; null if none.
std::shared_ptr<rapidjson::Document> AnswerTo(const result::ScenarioResult& r,
                                              const std::string& method);

/// `v` as one line of flow YAML: JSON, with what YAML refuses in a document (controls, invalid
/// UTF-8 in a plugin's own names) as escapes.
std::string YamlOf(const rapidjson::Value& v);

}  // namespace fakehost::run::look
