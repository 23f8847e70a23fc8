// `--transcripts DIR`: every frame of every scenario that ran, one JSON object a line, for tools
// (jq, a replay, a diff between two plugin versions) rather than people.
#include <filesystem>

#include "harness/json/rapidjson.hpp"

#include "harness/report/excerpt.hpp"
#include "harness/report/json_writer.hpp"
#include "harness/report/reporter.hpp"
#include "harness/report/text.hpp"

namespace fakehost::report {
namespace {

using jsonw::Str;
using jsonw::Writer;

// Kinds whose text is a whole JSON value as it crossed the pipe; the others are bytes.
bool IsFrame(const session::TranscriptEntry& e) {
  return !e.clipped && (e.kind == "request" || e.kind == "notification" || e.kind == "response" ||
                        e.kind == "invalid");
}

// Over 60 lines: a transcript entry's keys one after another, in the line's order.
std::string Line(const session::TranscriptEntry& e) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("index");
  w.Uint64(e.index);
  w.Key("direction");
  Str(w, e.direction == session::Direction::kHostToPlugin ? "host-to-plugin" : "plugin-to-host");
  w.Key("t_ms");
  w.Double(static_cast<double>(static_cast<long long>(e.t_ms * 1000)) / 1000);
  w.Key("kind");
  Str(w, e.kind);
  if (!e.method.empty()) {
    w.Key("method");
    Str(w, e.method);
  }
  if (!e.id.empty()) {
    // The id as the JSON value it was (1 and "1" differ); as a string if it is not JSON.
    rapidjson::Document id;
    w.Key("id");
    if (id.Parse(e.id.data(), e.id.size()).HasParseError())
      Str(w, e.id);
    else
      id.Accept(w);
  }
  w.Key("size");
  w.Uint64(e.size);
  rapidjson::Document frame;
  bool parsed = IsFrame(e) &&
                !frame
                     .Parse<rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag>(
                         e.text.data(), e.text.size())
                     .HasParseError();
  if (parsed) {
    w.Key("frame");
    frame.Accept(w);
  } else {
    w.Key("raw_base64");
    Str(w, Base64(e.text));
    if (e.clipped) {
      w.Key("clipped");
      w.Bool(true);
    }
    if (e.summarised) {
      w.Key("summarised");
      w.Bool(true);
    }
  }
  w.Key("validation");
  if (e.schema_def.empty()) {
    w.Null();
  } else {
    w.StartObject();
    w.Key("schema_def");
    Str(w, e.schema_def);
    w.Key("valid");
    w.Bool(e.violations.empty());
    w.Key("violations");
    w.StartArray();
    for (const auto& v : e.violations) {
      w.StartObject();
      w.Key("pointer");
      Str(w, v.pointer);
      w.Key("message");
      Str(w, v.message);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  if (!e.notes.empty()) {
    w.Key("notes");
    w.StartArray();
    for (const auto& n : e.notes) Str(w, n);
    w.EndArray();
  }
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

class TranscriptsReporter : public Reporter {
 public:
  explicit TranscriptsReporter(std::string dir) : dir_(std::move(dir)) {}
  bool RunEnded(const run::RunReport& report, std::string* error) override {
    std::vector<int> occurrence = Occurrences(report);
    bool ok = true;
    for (std::size_t i = 0; i < report.scenarios.size(); ++i) {
      const auto& r = report.scenarios[i];
      if (r.status == scenario::Status::kSkip || r.status == scenario::Status::kNotRun ||
          r.status == scenario::Status::kUntested)
        continue;
      std::string path = dir_ + "/" + TranscriptFileName(r.id, occurrence[i]);
      std::string one_error;
      if (!WriteFileAtomically(path, TranscriptLines(r), &one_error)) {
        if (ok) *error = one_error;  // the first; the others are the same directory's fault
        ok = false;
      }
    }
    return ok;
  }

 private:
  std::string dir_;
};

}  // namespace

std::string TranscriptFileName(std::string_view id, int occurrence) {
  std::string out;
  for (char c : id) {
    if (c == '/')
      out += "__";
    else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             c == '-' || c == '_' || c == '.')
      out += c;
    else
      out += '_';
  }
  if (out.empty() || out[0] == '.') out.insert(0, "_");
  if (occurrence > 1) out += "." + std::to_string(occurrence);
  return out + ".jsonl";
}

std::string TranscriptLines(const scenario::ScenarioResult& r) {
  std::string out;
  for (const auto& e : r.transcript) out += Line(e) + "\n";
  return out;
}

std::unique_ptr<Reporter> MakeTranscriptsReporter(std::string dir) {
  return std::make_unique<TranscriptsReporter>(std::move(dir));
}

}  // namespace fakehost::report
