// The HTML report: one file that opens from disk. The results are embedded as JSON in a
// <script type="application/json"> element and drawn by an inline script with createElement and
// textContent only, so plugin text is never parsed as HTML.
#include "harness/json/rapidjson.hpp"

#include "harness/report/html_assets.hpp"
#include "harness/report/json_writer.hpp"
#include "harness/report/reporter.hpp"
#include "harness/report/text.hpp"

namespace fakehost::report {
namespace {

using jsonw::Str;
using jsonw::Writer;
void Field(Writer& w, const char* k, std::string_view v) {
  w.Key(k);
  Str(w, v);
}
void Ms(Writer& w, const char* k, double ms) {
  w.Key(k);
  w.Double(static_cast<double>(static_cast<long long>(ms * 1000)) / 1000);
}

void Entry(Writer& w, const session::TranscriptEntry& e) {
  w.StartObject();
  w.Key("i");
  w.Uint64(e.index);
  Field(w, "d", e.direction == session::Direction::kHostToPlugin ? "h2p" : "p2h");
  Ms(w, "t", e.t_ms);
  Field(w, "kind", e.kind);
  if (!e.method.empty()) Field(w, "method", e.method);
  if (!e.id.empty()) Field(w, "id", e.id);
  w.Key("size");
  w.Uint64(e.size);
  Field(w, "text", e.text);
  if (e.clipped) {
    w.Key("clipped");
    w.Bool(true);
  }
  if (e.summarised) {
    w.Key("summarised");
    w.Bool(true);
  }
  if (!e.schema_def.empty()) Field(w, "schema", e.schema_def);
  if (!e.violations.empty()) {
    w.Key("violations");
    w.StartArray();
    for (const auto& v : e.violations) {
      w.StartObject();
      Field(w, "pointer", v.pointer);
      Field(w, "message", v.message);
      w.EndObject();
    }
    w.EndArray();
  }
  if (!e.notes.empty()) {
    w.Key("notes");
    w.StartArray();
    for (const auto& n : e.notes) Str(w, n);
    w.EndArray();
  }
  w.EndObject();
}

void Failure(Writer& w, const scenario::Failure& f) {
  w.StartObject();
  Field(w, "check", f.check);
  Field(w, "level", f.harness_error ? "error" : scenario::LevelName(f.level));
  w.Key("step");
  w.Uint64(f.step);
  Field(w, "step_kind", f.step_kind);
  if (f.loc.line > 0) Field(w, "location", f.loc.ToString());
  Field(w, "message", f.message);
  if (!f.expected.empty()) Field(w, "expected", f.expected);
  if (!f.actual.empty()) Field(w, "actual", f.actual);
  if (f.frame) {
    w.Key("frame");
    w.Uint64(*f.frame);
  }
  w.EndObject();
}

void Scenario(Writer& w, const scenario::ScenarioResult& r) {
  w.StartObject();
  Field(w, "id", r.id);
  Field(w, "title", r.title);
  Field(w, "spec", r.spec);
  Field(w, "requirement", r.requirement);
  Field(w, "level", scenario::LevelName(r.level));
  w.Key("tags");
  w.StartArray();
  for (const auto& t : r.tags) Str(w, t);
  w.EndArray();
  Field(w, "location", r.loc.ToString());
  Field(w, "status", scenario::StatusName(r.status));
  if (!r.skip_reason.empty()) Field(w, "reason", r.skip_reason);
  if (r.expected_failure) {
    const scenario::ExpectedFailure& e = *r.expected_failure;
    w.Key("expected_failure");
    w.StartObject();
    Field(w, "location", e.loc.ToString());
    Field(w, "id", e.id);
    Field(w, "reason", e.reason);
    Field(w, "kind", e.kind);
    Field(w, "until", e.until);
    w.Key("expired");
    w.Bool(e.expired);
    w.EndObject();
  }
  Ms(w, "duration_ms", r.duration_ms);
  w.Key("steps_run");
  w.Uint64(r.steps_run);
  w.Key("steps_total");
  w.Uint64(r.steps_total);
  w.Key("failures");
  w.StartArray();
  for (const auto& f : r.failures) Failure(w, f);
  w.EndArray();
  w.Key("exit");
  w.StartObject();
  w.Key("exited");
  w.Bool(r.exit.exited);
  Field(w, "description", r.exit.description);
  Ms(w, "at_ms", r.exit.at_ms);
  Field(w, "stop_stage", r.exit.stop_stage);
  Ms(w, "stop_ms", r.exit.stop_ms);
  w.Key("graded");
  w.Bool(r.exit.graded);
  w.EndObject();
  Field(w, "stderr_tail", r.stderr_tail);
  w.Key("stderr_bytes_dropped");
  w.Uint64(r.stderr_bytes_dropped);
  w.Key("transcript");
  w.StartArray();
  for (const auto& e : r.transcript) Entry(w, e);
  w.EndArray();
  w.EndObject();
}

std::string Data(const run::RunReport& r) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("tool");
  w.StartObject();
  Field(w, "name", r.tool_name);
  Field(w, "version", r.tool_version);
  w.EndObject();
  Field(w, "protocol", r.protocol);
  Field(w, "protocol_title", r.protocol_title);
  Field(w, "suite", r.suite);
  Field(w, "started_at", r.started_at);
  w.Key("strict");
  w.Bool(r.strict);
  w.Key("plugin");
  w.StartObject();
  Field(w, "id", r.plugin.id);
  Field(w, "version", r.plugin.version);
  Field(w, "dir", r.plugin.dir);
  w.Key("argv");
  w.StartArray();
  for (const auto& a : r.plugin.argv) Str(w, a);
  w.EndArray();
  w.EndObject();
  w.Key("summary");
  w.StartObject();
  const run::Summary& m = r.summary;
  for (auto [k, v] : {std::pair{"total", m.total},
                      {"passed", m.passed},
                      {"failed", m.failed},
                      {"warned", m.warned},
                      {"skipped", m.skipped},
                      {"errored", m.errored},
                      {"not_run", m.not_run},
                      {"untested", m.untested},
                      {"xfailed", m.xfailed},
                      {"stale", m.stale}}) {
    w.Key(k);
    w.Int(v);
  }
  Ms(w, "duration_ms", m.duration_ms);
  w.EndObject();
  w.Key("scenarios");
  w.StartArray();
  for (const auto& s : r.scenarios) Scenario(w, s);
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

class HtmlReporter : public Reporter {
 public:
  explicit HtmlReporter(std::string path) : path_(std::move(path)) {}
  bool RunEnded(const run::RunReport& report, std::string* error) override {
    return WriteFileAtomically(path_, HtmlReport(report), error);
  }

 private:
  std::string path_;
};

}  // namespace

std::string ScriptSafeJson(std::string_view json) {
  std::string out;
  out.reserve(json.size() + json.size() / 16);
  // '<' only ever occurs inside JSON strings, where \u003c means the same character; without it
  // no "</script" or "<!--" can end or change the script element.
  for (char c : json) {
    if (c == '<')
      out += "\\u003c";
    else
      out += c;
  }
  return out;
}

std::string HtmlReport(const run::RunReport& report) {
  std::string out;
  std::string data = ScriptSafeJson(Data(report));
  out.reserve(data.size() + 32 * 1024);
  out +=
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      // Opens from disk and fetches nothing: every resource is inline.
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>fakehost report</title>\n<style>\n";
  out += HtmlStyle();
  out +=
      "</style>\n</head>\n<body>\n<div id=\"app\"><noscript>This report is drawn by JavaScript; "
      "the same results are in report.json.</noscript></div>\n"
      "<script type=\"application/json\" id=\"fakehost-data\">";
  out += data;
  out += "</script>\n<script>\n";
  out += HtmlScript();
  out += "</script>\n</body>\n</html>\n";
  return out;
}

std::unique_ptr<Reporter> MakeHtmlReporter(std::string path) {
  return std::make_unique<HtmlReporter>(std::move(path));
}

}  // namespace fakehost::report
