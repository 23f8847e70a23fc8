#include "harness/report/shared_causes.hpp"

#include <map>
#include <string_view>

#include "harness/json/json.hpp"

namespace fakehost::report {
namespace {

using result::Failure;
using result::Reason;
using result::ScenarioResult;
using result::Status;

// Fields are written with their length in front, so no content can run into the next field.
void Field(std::string* key, std::string_view value) {
  *key += std::to_string(value.size());
  *key += ':';
  *key += value;
}

// A message's members but its top-level id; the frame's bytes when it is not one JSON object
// (not a message, or clipped). Members are written compactly, numbers as they arrived.
std::string Content(const result::TranscriptEntry& e) {
  std::string out;
  if (result::IsMessage(e.kind) && !e.clipped) {
    rapidjson::Document doc;
    json::ParseResult parsed = json::Parse(e.text, &doc);
    if (parsed.ok && doc.IsObject()) {
      out = "object";
      for (const auto& m : doc.GetObject()) {
        std::string_view name(m.name.GetString(), m.name.GetStringLength());
        if (name == "id") continue;
        std::string value;
        if (!json::ToCompact(m.value, parsed.lexemes, &value)) return "";
        Field(&out, name);
        Field(&out, value);
      }
      return out;
    }
  }
  out = e.clipped ? "clipped" : "bytes";
  Field(&out, std::to_string(e.size));
  Field(&out, e.text);
  return out;
}

bool TakesPart(Status s) { return s == Status::kFail || s == Status::kWarn || s == Status::kError; }

}  // namespace

std::string CauseKey(const ScenarioResult& r, const Failure& f) {
  bool step = f.check == "step";
  if (!step && !f.frame) return "";
  std::string key;
  Field(&key, f.check);
  // Which of the two a session sees first is a race (the exit or the end of stdout): one cause.
  bool gone = f.reason == Reason::kPluginExited || f.reason == Reason::kStdoutClosed;
  Field(&key, gone ? "plugin-gone" : result::ReasonName(f.reason));
  Field(&key, result::LevelName(f.level));
  Field(&key, f.harness_error ? "harness" : "plugin");
  if (step) {
    Field(&key, f.step_kind);
    Field(&key, f.loc.ToString());
    Field(&key, f.expected);
  }
  if (f.frame) {
    if (*f.frame >= r.transcript.size()) return "";
    const result::TranscriptEntry& e = r.transcript[*f.frame];
    if (e.summarised || e.kind == result::EntryKind::kTally) return "";
    std::string content = Content(e);
    if (content.empty()) return "";
    Field(&key, result::DirectionArrow(e.direction));
    Field(&key, result::EntryKindName(e.kind));
    Field(&key, e.method);
    Field(&key, content);
  } else if (gone && r.exit.exited && r.exit.stop_stage.empty()) {
    Field(&key, r.exit.code ? std::to_string(*r.exit.code) : "-");
    Field(&key, r.exit.signal ? std::to_string(*r.exit.signal) : "-");
  }
  return key;
}

RunCauses::RunCauses(const result::RunReport& report)
    : groups_(report.scenarios.size()), shared_of_(report.scenarios.size()) {
  struct Candidate {
    std::vector<CauseRoot> roots;
    std::size_t scenarios = 0;
  };
  std::vector<Candidate> candidates;
  std::map<std::string, std::size_t> by_key;
  for (std::size_t s = 0; s < report.scenarios.size(); ++s) {
    const ScenarioResult& r = report.scenarios[s];
    groups_[s] = GroupByCause(r);
    shared_of_[s].assign(groups_[s].size(), std::nullopt);
    if (!TakesPart(r.status)) continue;
    for (std::size_t g = 0; g < groups_[s].size(); ++g) {
      std::string key = CauseKey(r, r.failures[groups_[s][g].root]);
      if (key.empty()) continue;
      auto [it, added] = by_key.emplace(std::move(key), candidates.size());
      if (added) candidates.emplace_back();
      Candidate& c = candidates[it->second];
      if (c.roots.empty() || c.roots.back().scenario != s) ++c.scenarios;
      c.roots.push_back({s, g, groups_[s][g].root});
    }
  }
  for (Candidate& c : candidates) {
    if (c.scenarios < 2) continue;
    for (const CauseRoot& root : c.roots) shared_of_[root.scenario][root.group] = shared_.size();
    shared_.push_back({std::move(c.roots), c.scenarios});
  }
}

bool RunCauses::AllShared(std::size_t s) const {
  if (shared_of_[s].empty()) return false;
  for (const auto& g : shared_of_[s])
    if (!g) return false;
  return true;
}

Status WorstStatus(const result::RunReport& report, const SharedCause& cause) {
  Status worst = Status::kWarn;
  for (const CauseRoot& root : cause.roots) {
    Status s = report.scenarios[root.scenario].status;
    if (s == Status::kError || (s == Status::kFail && worst != Status::kError)) worst = s;
  }
  return worst;
}

std::vector<const std::string*> SharedScenarioIds(const result::RunReport& report,
                                                  const SharedCause& cause) {
  std::vector<const std::string*> ids;
  std::size_t last = report.scenarios.size();
  for (const CauseRoot& root : cause.roots)
    if (root.scenario != last) ids.push_back(&report.scenarios[last = root.scenario].id);
  return ids;
}

std::string SharedCauseRef(const RunCauses& causes, std::size_t index) {
  return "cause " + std::to_string(index + 1) + " above (" +
         std::to_string(causes.shared()[index].scenarios) + " scenarios)";
}

}  // namespace fakehost::report
