#include "harness/session/validate.hpp"

#include "harness/json/json.hpp"
#include "harness/schema/schema.hpp"
#include "harness/session/rules.hpp"

namespace fakehost::session {
namespace {

// Violations kept per entry, and the length of each message.
constexpr std::size_t kViolationsKept = 8;
constexpr std::size_t kViolationText = 300;
// The violations a finding lists stop past this many bytes.
constexpr std::size_t kListBytes = 600;

}  // namespace

std::optional<SchemaVerdict> Validate(const schema::FrameSchema* schema,
                                      result::TranscriptEntry& entry, const rapidjson::Value& frame,
                                      protocol::MessageKind kind, const std::string& method) {
  if (!schema || kind == protocol::MessageKind::kInvalid) return std::nullopt;
  entry.schema_def = schema::RouteDef(*schema, protocol::MessageKindName(kind), method);
  std::vector<schema::Violation> violations = schema->Validate(entry.schema_def, frame);
  if (violations.empty()) return std::nullopt;
  SchemaVerdict verdict{entry.schema_def, {}};
  std::string& list = verdict.violations;
  for (const auto& v : violations) {
    std::string pointer = Quote(v.pointer);
    std::string message = json::Abbreviate(v.message, kViolationText);
    if (list.size() < kListBytes)
      list += (list.empty() ? "" : "; ") + (pointer.empty() ? std::string("(frame)") : pointer) +
              ": " + message;
    if (entry.violations.size() < kViolationsKept)
      entry.violations.push_back({std::move(pointer), std::move(message)});
  }
  if (violations.size() > kViolationsKept)
    entry.notes.push_back(std::to_string(violations.size() - kViolationsKept) +
                          " more schema violations not listed");
  return verdict;
}

result::Finding SchemaFinding(const protocol::Profile& profile, const SchemaVerdict& verdict,
                              bool from_plugin, std::size_t number, std::string_view revision) {
  const char* check = from_plugin ? "schema" : "host-frame-invalid";
  return result::Finding{from_plugin ? result::Severity::kMust : result::Severity::kError, check,
                         profile.CheckMessage(check,
                                              {{"frame", std::to_string(number)},
                                               {"def", verdict.def},
                                               {"violations", verdict.violations}},
                                              revision),
                         number,
                         from_plugin ? result::Reason::kCheckFired : result::Reason::kHarnessFault};
}

}  // namespace fakehost::session
