#include <unistd.h>

#include <cerrno>
#include <cmath>
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

// How an entry carries its payload: as text (the report, the HTML report's data), or for tools
// that replay it as the frame itself, or its bytes in base64 when it was not a whole frame
// (transcript files).
enum class Payload { kText, kFrame };

void WriteFailure(Writer& w, const scenario::Failure& f, std::optional<std::size_t> caused_by) {
  w.StartObject();
  Key(w, "check");
  Str(w, f.check);
  Key(w, "reason");
  Str(w, session::ReasonName(f.reason));
  Key(w, "level");
  Str(w, scenario::LevelName(f.level));
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

// Over 60 lines: an entry's keys one after another, in the contract's order (the report
// schema's $defs/entry); only the payload's form differs between the two uses.
void WriteEntry(Writer& w, const session::TranscriptEntry& e, Payload payload) {
  w.StartObject();
  Key(w, "index");
  w.Uint64(e.index);
  Key(w, "direction");
  Str(w, e.direction == session::Direction::kHostToPlugin ? "host-to-plugin" : "plugin-to-host");
  Key(w, "t_ms");
  Ms(w, e.t_ms);
  Key(w, "kind");
  Str(w, session::EntryKindName(e.kind));
  if (!e.method.empty()) {
    Key(w, "method");
    Str(w, e.method);
  }
  if (!e.id.empty()) {
    Key(w, "id");
    Str(w, e.id);
  }
  Key(w, "size");
  w.Uint64(e.size);
  rapidjson::Document frame;
  if (payload == Payload::kText) {
    Key(w, "text");
    Str(w, e.text);
  } else if (session::IsMessage(e.kind) && !e.clipped && !e.summarised &&
             !frame
                  .Parse<rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag>(
                      e.text.data(), e.text.size())
                  .HasParseError()) {
    Key(w, "frame");
    frame.Accept(w);
  } else {
    Key(w, "raw_base64");
    Str(w, text::Base64(e.text));
  }
  if (e.clipped) {
    Key(w, "clipped");
    w.Bool(true);
  }
  if (e.summarised) {
    Key(w, "summarised");
    w.Bool(true);
  }
  if (!e.schema_def.empty()) {
    Key(w, "schema_def");
    Str(w, e.schema_def);
  }
  if (!e.violations.empty()) {
    Key(w, "violations");
    w.StartArray();
    for (const auto& v : e.violations) {
      w.StartObject();
      Key(w, "pointer");
      Str(w, v.pointer);
      Key(w, "message");
      Str(w, v.message);
      w.EndObject();
    }
    w.EndArray();
  }
  if (!e.notes.empty()) jsonw::Strings(w, "notes", e.notes);
  w.EndObject();
}

// The --expected-failures entry that applied (status xfail or stale, or an expired one).
void WriteExpectedFailure(Writer& w, const scenario::ExpectedFailure& e) {
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

// Over 60 lines: a result's keys one after another, in the contract's order
// (schema/report.schema.json).
void Scenario(Writer& w, const scenario::ScenarioResult& r, Transcripts transcripts) {
  w.StartObject();
  Key(w, "id");
  Str(w, r.id);
  Key(w, "title");
  Str(w, r.title);
  Key(w, "spec");
  Str(w, r.spec);
  Key(w, "requirement");
  Str(w, r.requirement);
  Key(w, "level");
  Str(w, scenario::LevelName(r.level));
  if (!r.revision.empty()) {
    Key(w, "revision");
    Str(w, r.revision);
  }
  if (!r.sentence.empty()) {
    Key(w, "sentence");
    Str(w, r.sentence);
  }
  Key(w, "tags");
  w.StartArray();
  for (const auto& t : r.tags) Str(w, t);
  w.EndArray();
  Key(w, "file");
  Str(w, r.loc.file);
  Key(w, "status");
  Str(w, scenario::StatusName(r.status));
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
  Key(w, "exit");
  w.StartObject();
  Key(w, "exited");
  w.Bool(r.exit.exited);
  if (r.exit.exited) {
    Key(w, "description");
    Str(w, r.exit.description);
    if (r.exit.code) {
      Key(w, "code");
      w.Int(*r.exit.code);
    }
    if (r.exit.signal) {
      Key(w, "signal");
      w.Int(*r.exit.signal);
    }
    Key(w, "at_ms");
    Ms(w, r.exit.at_ms);
  }
  if (!r.exit.stop_stage.empty()) {
    Key(w, "stop_stage");
    Str(w, r.exit.stop_stage);
    Key(w, "stop_ms");
    Ms(w, r.exit.stop_ms);
  }
  Key(w, "graded");
  w.Bool(r.exit.graded);
  w.EndObject();
  Key(w, "frames");
  w.Uint64(r.transcript.size() + r.transcript_elided);
  bool detailed = r.status == scenario::Status::kFail || r.status == scenario::Status::kWarn ||
                  r.status == scenario::Status::kError || r.status == scenario::Status::kXfail ||
                  r.status == scenario::Status::kStale;
  if (detailed || transcripts == Transcripts::kAll) {
    Key(w, "transcript");
    w.StartArray();
    for (const auto& e : r.transcript) WriteEntry(w, e, Payload::kText);
    w.EndArray();
    Key(w, "stderr_tail");
    Str(w, r.stderr_tail);
  }
  Key(w, "stderr_bytes_dropped");
  w.Uint64(r.stderr_bytes_dropped);
  w.EndObject();
}

class JsonReporter : public Reporter {
 public:
  explicit JsonReporter(std::string path) : path_(std::move(path)) {}
  bool RunEnded(const run::RunReport& report, std::string* error) override {
    return WriteFileAtomically(path_, JsonReport(report) + "\n", error);
  }

 private:
  std::string path_;
};

}  // namespace

// Over 60 lines: the report's top-level keys one after another, in the contract's order.
std::string JsonReport(const run::RunReport& r, Transcripts transcripts) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
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
  if (!r.suites.empty()) {
    Key(w, "suites");
    w.StartArray();
    for (const auto& s : r.suites) Str(w, s);
    w.EndArray();
  }
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
  Key(w, "plugin");
  w.StartObject();
  Key(w, "id");
  Str(w, r.plugin.id);
  Key(w, "version");
  Str(w, r.plugin.version);
  Key(w, "dir");
  Str(w, r.plugin.dir);
  Key(w, "argv");
  w.StartArray();
  for (const auto& a : r.plugin.argv) Str(w, a);
  w.EndArray();
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
  Key(w, "summary");
  w.StartObject();
  Key(w, "total");
  w.Int(r.summary.total);
  Key(w, "passed");
  w.Int(r.summary.passed);
  Key(w, "failed");
  w.Int(r.summary.failed);
  Key(w, "warned");
  w.Int(r.summary.warned);
  Key(w, "skipped");
  w.Int(r.summary.skipped);
  Key(w, "errored");
  w.Int(r.summary.errored);
  Key(w, "not_run");
  w.Int(r.summary.not_run);
  Key(w, "untested");
  w.Int(r.summary.untested);
  Key(w, "xfailed");
  w.Int(r.summary.xfailed);
  Key(w, "stale");
  w.Int(r.summary.stale);
  Key(w, "duration_ms");
  Ms(w, r.summary.duration_ms);
  w.EndObject();
  Key(w, "scenarios");
  w.StartArray();
  for (const auto& s : r.scenarios) Scenario(w, s, transcripts);
  w.EndArray();
  // Derived from the scenarios, so a merge works it out again; written only when there is one.
  RunCauses causes(r);
  if (!causes.shared().empty()) {
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
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string TranscriptLine(const session::TranscriptEntry& e) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  WriteEntry(w, e, Payload::kFrame);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::unique_ptr<Reporter> MakeJsonReporter(std::string path) {
  return std::make_unique<JsonReporter>(std::move(path));
}

}  // namespace fakehost::report
