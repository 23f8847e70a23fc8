#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <concepts>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

#include "harness/json/rapidjson.hpp"

#include "harness/report/causes.hpp"
#include "harness/report/json_writer.hpp"
#include "harness/report/reporter.hpp"
#include "harness/report/shared_causes.hpp"
#include "harness/report/text.hpp"
#include "harness/text/bytes.hpp"

namespace fakehost::report {
namespace {

using jsonw::Key;
using jsonw::Ms;
using jsonw::Str;
using jsonw::Writer;

void WriteFailure(Writer& w, const result::Failure& f, std::optional<std::size_t> caused_by) {
  w.StartObject();
  Key(w, "check");
  Str(w, f.check);
  Key(w, "reason");
  Str(w, result::ReasonName(f.reason));
  Key(w, "level");
  Str(w, result::LevelName(f.level));
  Key(w, "harness_error");
  w.Bool(f.harness_error);
  Key(w, "step");
  w.Uint64(f.step);
  if (!f.step_kind.empty()) {
    Key(w, "step_kind");
    Str(w, f.step_kind);
  }
  if (f.loc.line > 0) {
    Key(w, "location");
    Str(w, f.loc.ToString());
  }
  Key(w, "message");
  Str(w, f.message);
  if (!f.expected.empty()) {
    Key(w, "expected");
    Str(w, f.expected);
  }
  if (!f.actual.empty()) {
    Key(w, "actual");
    Str(w, f.actual);
  }
  if (f.frame) {
    Key(w, "frame");
    w.Uint64(*f.frame);
  }
  if (caused_by) {
    Key(w, "caused_by");
    w.Uint64(*caused_by);
  }
  w.EndObject();
}

// The value of a field of a result type's table (harness/result/transcript.hpp), one overload
// per member type, and whether an optional field holds something worth writing.
template <std::unsigned_integral Int>
requires(!std::same_as<Int, bool>) void WriteValue(Writer& w, Int n) { w.Uint64(n); }
void WriteValue(Writer& w, double ms) { Ms(w, ms); }
void WriteValue(Writer& w, bool b) { w.Bool(b); }
void WriteValue(Writer& w, const std::string& s) { Str(w, s); }
void WriteValue(Writer& w, result::Direction d) { Str(w, result::DirectionName(d)); }
void WriteValue(Writer& w, result::EntryKind k) { Str(w, result::EntryKindName(k)); }
void WriteValue(Writer& w, const std::vector<std::string>& list) {
  w.StartArray();
  for (const auto& s : list) Str(w, s);
  w.EndArray();
}
void WriteValue(Writer& w, const std::vector<result::Violation>& list);

template <typename Member>
bool Holds(const Member&) {  // numbers and enums: always
  return true;
}
bool Holds(bool b) { return b; }
bool Holds(const std::string& s) { return !s.empty(); }
template <typename Item>
bool Holds(const std::vector<Item>& list) {
  return !list.empty();
}

template <typename Owner, typename Member>
void WriteField(Writer& w, const Owner& owner, const result::Field<Owner, Member>& field) {
  const Member& value = owner.*field.member;
  if (!field.required && !Holds(value)) return;
  Key(w, field.name);
  WriteValue(w, value);
}

// The bytes themselves: the writer escapes only '"', '\\' and control characters, so `text`
// reads back as exactly these bytes. Bytes that are not UTF-8 cannot be a JSON string at all.
template <typename Owner>
void WriteField(Writer& w, const Owner& owner, const result::BytesField<Owner>& field) {
  const std::string& bytes = owner.*field.member;
  if (jsonw::IsJsonUtf8(bytes)) {
    Key(w, field.text_name);
    w.String(bytes.data(), static_cast<rapidjson::SizeType>(bytes.size()));
  } else {
    Key(w, field.base64_name);
    Str(w, text::Base64(bytes));
  }
}

template <typename Owner, typename Table>
void WriteFields(Writer& w, const Owner& owner, const Table& table) {
  w.StartObject();
  result::ForEachField(table, [&](const auto& field) { WriteField(w, owner, field); });
  w.EndObject();
}

void WriteValue(Writer& w, const std::vector<result::Violation>& list) {
  w.StartArray();
  for (const auto& v : list) WriteFields(w, v, result::kViolationFields);
  w.EndArray();
}

// An entry, in the report and in a transcript file alike.
void WriteEntry(Writer& w, const result::TranscriptEntry& e) {
  WriteFields(w, e, result::kTranscriptEntryFields);
}

// The --expected-failures entry that applied (status xfail or stale, or an expired one).
void WriteExpectedFailure(Writer& w, const result::ExpectedFailure& e) {
  Key(w, "expected_failure");
  w.StartObject();
  Key(w, "file");
  Str(w, e.loc.file);
  Key(w, "line");
  w.Int(e.loc.line);
  Key(w, "id");
  Str(w, e.id);
  Key(w, "reason");
  Str(w, e.reason);
  if (!e.kind.empty()) {
    Key(w, "kind");
    Str(w, e.kind);
  }
  if (!e.until.empty()) {
    Key(w, "until");
    Str(w, e.until);
  }
  Key(w, "expired");
  w.Bool(e.expired);
  w.EndObject();
}

// A result's keys one after another, in the contract's order (schema/report.schema.json): what
// it is, how it ended, and what crossed the pipe.
void ScenarioHeading(Writer& w, const result::ScenarioResult& r) {
  Key(w, "id");
  Str(w, r.id);
  Key(w, "title");
  Str(w, r.title);
  Key(w, "spec");
  Str(w, r.spec);
  Key(w, "requirement");
  Str(w, r.requirement);
  Key(w, "level");
  Str(w, result::LevelName(r.level));
  if (!r.revision.empty()) {
    Key(w, "revision");
    Str(w, r.revision);
  }
  if (!r.sentence.empty()) {
    Key(w, "sentence");
    Str(w, r.sentence);
  }
  jsonw::Strings(w, "tags", r.tags);
  Key(w, "file");
  Str(w, r.loc.file);
}

void WriteExit(Writer& w, const result::ExitInfo& x) {
  Key(w, "exit");
  w.StartObject();
  Key(w, "exited");
  w.Bool(x.exited);
  if (x.exited) {
    Key(w, "description");
    Str(w, x.description);
    if (x.code) {
      Key(w, "code");
      w.Int(*x.code);
    }
    if (x.signal) {
      Key(w, "signal");
      w.Int(*x.signal);
    }
    Key(w, "at_ms");
    Ms(w, x.at_ms);
  }
  if (!x.stop_stage.empty()) {
    Key(w, "stop_stage");
    Str(w, x.stop_stage);
    Key(w, "stop_ms");
    Ms(w, x.stop_ms);
  }
  Key(w, "graded");
  w.Bool(x.graded);
  w.EndObject();
}

void ScenarioOutcome(Writer& w, const result::ScenarioResult& r) {
  Key(w, "status");
  Str(w, result::StatusName(r.status));
  if (!r.skip_reason.empty()) {
    Key(w, "reason");
    Str(w, r.skip_reason);
  }
  if (r.expected_failure) WriteExpectedFailure(w, *r.expected_failure);
  Key(w, "duration_ms");
  Ms(w, r.duration_ms);
  Key(w, "steps_run");
  w.Uint64(r.steps_run);
  Key(w, "steps_total");
  w.Uint64(r.steps_total);
  Key(w, "failures");
  w.StartArray();
  std::vector<std::optional<std::size_t>> caused_by = CausedBy(r);
  for (std::size_t i = 0; i < r.failures.size(); ++i) WriteFailure(w, r.failures[i], caused_by[i]);
  w.EndArray();
  WriteExit(w, r.exit);
}

void ScenarioTraffic(Writer& w, const result::ScenarioResult& r, Transcripts transcripts) {
  Key(w, "frames");
  w.Uint64(r.transcript.size() + r.transcript_elided);
  bool detailed = r.status == result::Status::kFail || r.status == result::Status::kWarn ||
                  r.status == result::Status::kError || r.status == result::Status::kXfail ||
                  r.status == result::Status::kStale;
  if (detailed || transcripts == Transcripts::kAll) {
    Key(w, "transcript");
    w.StartArray();
    for (const auto& e : r.transcript) WriteEntry(w, e);
    w.EndArray();
    Key(w, "stderr_tail");
    Str(w, r.stderr_tail);
  }
  Key(w, "stderr_bytes_dropped");
  w.Uint64(r.stderr_bytes_dropped);
}

void Scenario(Writer& w, const result::ScenarioResult& r, Transcripts transcripts) {
  w.StartObject();
  ScenarioHeading(w, r);
  ScenarioOutcome(w, r);
  ScenarioTraffic(w, r, transcripts);
  w.EndObject();
}

// The report's top-level keys one after another, in the contract's order: the run's settings,
// the plugin, the shard, the summary, the scenarios and the causes they share.
void RunSettings(Writer& w, const result::RunReport& r) {
  Key(w, "tool");
  w.StartObject();
  Key(w, "name");
  Str(w, r.tool_name);
  Key(w, "version");
  Str(w, r.tool_version);
  w.EndObject();
  Key(w, "protocol");
  Str(w, r.protocol);
  if (!r.protocol_title.empty()) {
    Key(w, "protocol_title");
    Str(w, r.protocol_title);
  }
  Key(w, "suite");
  Str(w, r.suite);
  if (!r.suites.empty()) jsonw::Strings(w, "suites", r.suites);
  if (!r.suite_version.empty()) {
    Key(w, "suite_version");
    Str(w, r.suite_version);
  }
  Key(w, "started_at");
  Str(w, r.started_at);
  Key(w, "strict");
  w.Bool(r.strict);
  Key(w, "jobs");
  w.Int(r.jobs);
}

void WritePlugin(Writer& w, const result::RunReport& r) {
  Key(w, "plugin");
  w.StartObject();
  Key(w, "id");
  Str(w, r.plugin.id);
  Key(w, "version");
  Str(w, r.plugin.version);
  Key(w, "dir");
  Str(w, r.plugin.dir);
  jsonw::Strings(w, "argv", r.plugin.argv);
  if (!r.plugin.probe.empty()) {
    Key(w, "probe");
    Str(w, r.plugin.probe);
  }
  if (!r.plugin.derived.empty()) {
    Key(w, "derived");
    Str(w, r.plugin.derived);
  }
  if (!r.plugin.never_spawned.empty()) {
    Key(w, "never_spawned");
    Str(w, r.plugin.never_spawned);
  }
  w.EndObject();
}

void WriteShard(Writer& w, const result::RunReport& r) {
  if (r.shard.count > 0) {
    Key(w, "shard");
    w.StartObject();
    Key(w, "index");
    w.Int(r.shard.index);
    Key(w, "count");
    w.Int(r.shard.count);
    w.EndObject();
  }
  if (!r.missing_shards.empty()) {
    Key(w, "missing_shards");
    w.StartArray();
    for (int k : r.missing_shards) w.Int(k);
    w.EndArray();
  }
}

void WriteSummary(Writer& w, const result::Summary& s) {
  Key(w, "summary");
  w.StartObject();
  const std::pair<const char*, int> counts[] = {{"total", s.total},     {"passed", s.passed},
                                                {"failed", s.failed},   {"warned", s.warned},
                                                {"skipped", s.skipped}, {"errored", s.errored},
                                                {"not_run", s.not_run}, {"untested", s.untested},
                                                {"xfailed", s.xfailed}, {"stale", s.stale}};
  for (const auto& [name, n] : counts) {
    Key(w, name);
    w.Int(n);
  }
  Key(w, "duration_ms");
  Ms(w, s.duration_ms);
  w.EndObject();
}

// Derived from the scenarios, so a merge works it out again; written only when there is one.
void WriteSharedCauses(Writer& w, const result::RunReport& r) {
  RunCauses causes(r);
  if (causes.shared().empty()) return;
  Key(w, "shared_causes");
  w.StartArray();
  for (const SharedCause& c : causes.shared()) {
    w.StartObject();
    Key(w, "roots");
    w.StartArray();
    for (const CauseRoot& root : c.roots) {
      w.StartObject();
      Key(w, "scenario");
      w.Uint64(root.scenario);
      Key(w, "failure");
      w.Uint64(root.failure);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
}

class JsonReporter : public Reporter {
 public:
  explicit JsonReporter(std::string path) : path_(std::move(path)) {}
  bool RunEnded(const result::RunReport& report, std::string* error) override {
    return WriteFileAtomically(path_, JsonReport(report) + "\n", error);
  }

 private:
  std::string path_;
};

}  // namespace

std::string JsonReport(const result::RunReport& r, Transcripts transcripts) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  RunSettings(w, r);
  WritePlugin(w, r);
  WriteShard(w, r);
  WriteSummary(w, r.summary);
  Key(w, "scenarios");
  w.StartArray();
  for (const auto& s : r.scenarios) Scenario(w, s, transcripts);
  w.EndArray();
  WriteSharedCauses(w, r);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string TranscriptLine(const result::TranscriptEntry& e) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  WriteEntry(w, e);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::unique_ptr<Reporter> MakeJsonReporter(std::string path) {
  return std::make_unique<JsonReporter>(std::move(path));
}

}  // namespace fakehost::report
