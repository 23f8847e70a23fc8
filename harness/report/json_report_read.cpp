#include "harness/report/json_report_read.hpp"

#include <charconv>
#include <concepts>
#include <cstdint>
#include <limits>
#include <optional>

#include "harness/json/json.hpp"
#include "harness/json/text_file.hpp"
#include "harness/text/bytes.hpp"

namespace fakehost::report {
namespace {

using Value = rapidjson::Value;

// A report can hold transcripts of 4 MiB frames (clipped) and many scenarios: far above the cap
// for files a person writes, far below what would exhaust memory.
constexpr std::size_t kReportFileCap = std::size_t{512} * 1024 * 1024;

// Reads members of one object, each by its JSON pointer for messages; remembers the first
// problem and ignores everything after it, so callers read on without checking each call.
class Reader {
 public:
  explicit Reader(std::string* error) : error_(error) { error_->clear(); }
  bool ok() const { return error_->empty(); }

  void Fail(const std::string& at, const std::string& what) {
    if (ok()) *error_ = (at.empty() ? "/" : at) + ": " + what;
  }

  const Value* Get(const Value& object, const std::string& at, const char* key, bool required) {
    const Value* v = ok() ? json::Find(object, key) : nullptr;
    if (!v && required) Fail(at + "/" + key, "missing");
    return v;
  }
  const Value* Object(const Value& object, const std::string& at, const char* key, bool required) {
    const Value* v = Get(object, at, key, required);
    if (v && !v->IsObject()) Fail(at + "/" + key, "expected an object");
    return v && v->IsObject() ? v : nullptr;
  }
  const Value* Array(const Value& object, const std::string& at, const char* key, bool required) {
    const Value* v = Get(object, at, key, required);
    if (v && !v->IsArray()) Fail(at + "/" + key, "expected an array");
    return v && v->IsArray() ? v : nullptr;
  }
  void String(const Value& object, const std::string& at, const char* key, std::string* out,
              bool required = false) {
    const Value* v = Get(object, at, key, required);
    if (!v) return;
    if (!v->IsString()) return Fail(at + "/" + key, "expected a string");
    out->assign(v->GetString(), v->GetStringLength());
  }
  void Strings(const Value& object, const std::string& at, const char* key,
               std::vector<std::string>* out) {
    const Value* a = Array(object, at, key, false);
    if (!a) return;
    out->clear();
    for (rapidjson::SizeType i = 0; i < a->Size(); ++i) {
      if (!(*a)[i].IsString())
        return Fail(at + "/" + key + "/" + std::to_string(i), "expected a string");
      out->emplace_back((*a)[i].GetString(), (*a)[i].GetStringLength());
    }
  }
  void Bool(const Value& object, const std::string& at, const char* key, bool* out) {
    const Value* v = Get(object, at, key, false);
    if (!v) return;
    if (!v->IsBool()) return Fail(at + "/" + key, "expected true or false");
    *out = v->GetBool();
  }
  void Number(const Value& object, const std::string& at, const char* key, double* out,
              bool required = false) {
    const Value* v = Get(object, at, key, required);
    if (!v) return;
    if (!v->IsNumber()) return Fail(at + "/" + key, "expected a number");
    *out = v->GetDouble();
  }
  template <typename Int>
  void Integer(const Value& object, const std::string& at, const char* key, Int* out,
               bool required = false) {
    const Value* v = Get(object, at, key, required);
    if (!v) return;
    bool fits = std::numeric_limits<Int>::is_signed
                    ? v->IsInt64() && v->GetInt64() >= std::numeric_limits<Int>::min() &&
                          v->GetInt64() <= std::numeric_limits<Int>::max()
                    : v->IsUint64() && v->GetUint64() <= std::numeric_limits<Int>::max();
    if (!fits) return Fail(at + "/" + key, "expected an integer in range");
    if constexpr (std::numeric_limits<Int>::is_signed)
      *out = static_cast<Int>(v->GetInt64());
    else
      *out = static_cast<Int>(v->GetUint64());
  }
  void Level(const Value& object, const std::string& at, const char* key, result::Level* out,
             bool required = false) {
    std::string name;
    String(object, at, key, &name, required);
    if (name.empty()) return;
    for (auto level : {result::Level::kMust, result::Level::kShould, result::Level::kMay}) {
      if (name == result::LevelName(level)) {
        *out = level;
        return;
      }
    }
    Fail(at + "/" + key, "'" + name + "' is not a level (must, should, may)");
  }

 private:
  std::string* error_;
};

// "file:line:col" as SourceLoc::ToString writes it (the file may hold colons itself).
result::SourceLoc ParseLocation(const std::string& text) {
  auto number = [](std::string_view s, int* out) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
    return ec == std::errc() && end == s.data() + s.size() && *out > 0;
  };
  std::size_t col = text.rfind(':');
  std::size_t line =
      col == std::string::npos || col == 0 ? std::string::npos : text.rfind(':', col - 1);
  result::SourceLoc loc;
  if (line != std::string::npos &&
      number(std::string_view(text).substr(line + 1, col - line - 1), &loc.line) &&
      number(std::string_view(text).substr(col + 1), &loc.column)) {
    loc.file = text.substr(0, line);
    return loc;
  }
  return {text, 0, 0};
}

void ReadFailure(Reader& in, const Value& v, const std::string& at, result::Failure* f) {
  in.String(v, at, "check", &f->check);
  std::string reason;
  in.String(v, at, "reason", &reason);  // absent from reports older than the field
  if (!reason.empty() && in.ok() && !result::ParseReason(reason, &f->reason))
    in.Fail(at + "/reason", "'" + reason + "' is not a failure reason");
  in.Level(v, at, "level", &f->level);
  in.Bool(v, at, "harness_error", &f->harness_error);
  in.Integer(v, at, "step", &f->step);
  in.String(v, at, "step_kind", &f->step_kind);
  std::string location;
  in.String(v, at, "location", &location);
  if (!location.empty()) f->loc = ParseLocation(location);
  in.String(v, at, "message", &f->message);
  in.String(v, at, "expected", &f->expected);
  in.String(v, at, "actual", &f->actual);
  if (in.Get(v, at, "frame", false)) {
    std::size_t frame = 0;
    in.Integer(v, at, "frame", &frame);
    f->frame = frame;
  }
}

// A field of a result type's table (harness/result/transcript.hpp), one overload per member
// type: the inverse of json_report.cpp's WriteValue.
template <std::unsigned_integral Int>
requires(!std::same_as<Int, bool>) void ReadValue(Reader& in, const Value& v, const std::string& at,
                                                  const char* key, Int* out, bool required) {
  in.Integer(v, at, key, out, required);
}
void ReadValue(Reader& in, const Value& v, const std::string& at, const char* key, double* out,
               bool required) {
  in.Number(v, at, key, out, required);
}
void ReadValue(Reader& in, const Value& v, const std::string& at, const char* key, bool* out,
               bool) {
  in.Bool(v, at, key, out);
}
void ReadValue(Reader& in, const Value& v, const std::string& at, const char* key, std::string* out,
               bool required) {
  in.String(v, at, key, out, required);
}
void ReadValue(Reader& in, const Value& v, const std::string& at, const char* key,
               std::vector<std::string>* out, bool) {
  in.Strings(v, at, key, out);
}
void ReadValue(Reader& in, const Value& v, const std::string& at, const char* key,
               result::Direction* out, bool required) {
  std::string name;
  in.String(v, at, key, &name, required);
  if (in.ok() && !name.empty() && !result::ParseDirection(name, out))
    in.Fail(at + "/" + key,
            "'" + json::Abbreviate(name) + "' is not host-to-plugin or plugin-to-host");
}
void ReadValue(Reader& in, const Value& v, const std::string& at, const char* key,
               result::EntryKind* out, bool required) {
  std::string name;
  in.String(v, at, key, &name, required);
  if (in.ok() && !name.empty() && !result::ParseEntryKind(name, out))
    in.Fail(at + "/" + key, "'" + json::Abbreviate(name) + "' is not a transcript entry kind");
}
void ReadValue(Reader& in, const Value& v, const std::string& at, const char* key,
               std::vector<result::Violation>* out, bool required);

template <typename Owner, typename Member>
void ReadField(Reader& in, const Value& v, const std::string& at, Owner* owner,
               const result::Field<Owner, Member>& field) {
  ReadValue(in, v, at, field.name, &(owner->*field.member), field.required);
}

// `text` holds the bytes themselves; `base64` the bytes that are not UTF-8; one of them, as the
// report schema has it (every fakehost wrote `text` at least).
template <typename Owner>
void ReadField(Reader& in, const Value& v, const std::string& at, Owner* owner,
               const result::BytesField<Owner>& field) {
  std::string* bytes = &(owner->*field.member);
  std::string base64;
  in.String(v, at, field.text_name, bytes);
  in.String(v, at, field.base64_name, &base64);
  if (!in.ok()) return;
  const bool text = in.Get(v, at, field.text_name, false);
  const bool binary = in.Get(v, at, field.base64_name, false);
  if (text == binary)
    return in.Fail(at, (text ? std::string("holds both ") + field.text_name + " and "
                             : std::string("holds neither ") + field.text_name + " nor ") +
                           field.base64_name + " (one or the other)");
  if (!binary) return;
  if (!text::FromBase64(base64, bytes)) in.Fail(at + "/" + field.base64_name, "not base64");
}

template <typename Owner, typename Table>
void ReadFields(Reader& in, const Value& v, const std::string& at, Owner* owner,
                const Table& table) {
  result::ForEachField(table, [&](const auto& field) { ReadField(in, v, at, owner, field); });
}

void ReadValue(Reader& in, const Value& v, const std::string& at, const char* key,
               std::vector<result::Violation>* out, bool required) {
  const Value* list = in.Array(v, at, key, required);
  for (rapidjson::SizeType i = 0; list && i < list->Size() && in.ok(); ++i) {
    std::string here = at + "/" + key + "/" + std::to_string(i);
    if (!(*list)[i].IsObject()) return in.Fail(here, "expected an object");
    ReadFields(in, (*list)[i], here, &out->emplace_back(), result::kViolationFields);
  }
}

void ReadEntry(Reader& in, const Value& v, const std::string& at, result::TranscriptEntry* e) {
  ReadFields(in, v, at, e, result::kTranscriptEntryFields);
}

void ReadExit(Reader& in, const Value& v, const std::string& at, result::ExitInfo* x) {
  in.Bool(v, at, "exited", &x->exited);
  in.String(v, at, "description", &x->description);
  if (in.Get(v, at, "code", false)) in.Integer(v, at, "code", &x->code.emplace());
  if (in.Get(v, at, "signal", false)) in.Integer(v, at, "signal", &x->signal.emplace());
  in.Number(v, at, "at_ms", &x->at_ms);
  in.String(v, at, "stop_stage", &x->stop_stage);
  in.Number(v, at, "stop_ms", &x->stop_ms);
  in.Bool(v, at, "graded", &x->graded);
}

void ReadExpectedFailure(Reader& in, const Value& v, const std::string& at,
                         result::ExpectedFailure* e) {
  in.String(v, at, "file", &e->loc.file, true);
  in.Integer(v, at, "line", &e->loc.line, true);
  in.String(v, at, "id", &e->id, true);
  in.String(v, at, "reason", &e->reason, true);
  in.String(v, at, "kind", &e->kind);
  in.String(v, at, "until", &e->until);
  in.Bool(v, at, "expired", &e->expired);
}

void ReadScenario(Reader& in, const Value& v, const std::string& at, result::ScenarioResult* r) {
  in.String(v, at, "id", &r->id, true);
  in.String(v, at, "title", &r->title, true);
  in.String(v, at, "spec", &r->spec, true);
  in.String(v, at, "requirement", &r->requirement);
  in.Level(v, at, "level", &r->level, true);
  in.String(v, at, "revision", &r->revision);
  in.String(v, at, "sentence", &r->sentence);
  in.Strings(v, at, "tags", &r->tags);
  in.String(v, at, "file", &r->loc.file);
  // A scenario is located at its file's start (the loader's, and the manifest check's, choice).
  if (!r->loc.file.empty()) r->loc.line = r->loc.column = 1;
  std::string status;
  in.String(v, at, "status", &status, true);
  if (in.ok() && !result::ParseStatus(status, &r->status))
    in.Fail(at + "/status", "'" + status + "' is not a status");
  in.String(v, at, "reason", &r->skip_reason);
  if (const Value* e = in.Object(v, at, "expected_failure", false))
    ReadExpectedFailure(in, *e, at + "/expected_failure", &r->expected_failure.emplace());
  in.Number(v, at, "duration_ms", &r->duration_ms, true);
  in.Integer(v, at, "steps_run", &r->steps_run);
  in.Integer(v, at, "steps_total", &r->steps_total);
  if (const Value* list = in.Array(v, at, "failures", true)) {
    for (rapidjson::SizeType i = 0; i < list->Size() && in.ok(); ++i) {
      std::string here = at + "/failures/" + std::to_string(i);
      if (!(*list)[i].IsObject()) return in.Fail(here, "expected an object");
      ReadFailure(in, (*list)[i], here, &r->failures.emplace_back());
    }
  }
  if (const Value* exit = in.Object(v, at, "exit", false))
    ReadExit(in, *exit, at + "/exit", &r->exit);
  if (const Value* list = in.Array(v, at, "transcript", false)) {
    for (rapidjson::SizeType i = 0; i < list->Size() && in.ok(); ++i) {
      std::string here = at + "/transcript/" + std::to_string(i);
      if (!(*list)[i].IsObject()) return in.Fail(here, "expected an object");
      ReadEntry(in, (*list)[i], here, &r->transcript.emplace_back());
    }
  }
  std::size_t frames = r->transcript.size();
  in.Integer(v, at, "frames", &frames);
  r->transcript_elided = frames > r->transcript.size() ? frames - r->transcript.size() : 0;
  in.String(v, at, "stderr_tail", &r->stderr_tail);
  in.Integer(v, at, "stderr_bytes_dropped", &r->stderr_bytes_dropped);
}

void ReadSummary(Reader& in, const Value& v, const std::string& at, result::Summary* s) {
  in.Integer(v, at, "total", &s->total, true);
  in.Integer(v, at, "passed", &s->passed, true);
  in.Integer(v, at, "failed", &s->failed, true);
  in.Integer(v, at, "warned", &s->warned, true);
  in.Integer(v, at, "skipped", &s->skipped, true);
  in.Integer(v, at, "errored", &s->errored, true);
  in.Integer(v, at, "not_run", &s->not_run);
  in.Integer(v, at, "untested", &s->untested);
  in.Integer(v, at, "xfailed", &s->xfailed);
  in.Integer(v, at, "stale", &s->stale);
  in.Number(v, at, "duration_ms", &s->duration_ms, true);
}

void ReadPlugin(Reader& in, const Value& v, const std::string& at, result::PluginInfo* p) {
  in.String(v, at, "id", &p->id, true);
  in.String(v, at, "version", &p->version, true);
  in.String(v, at, "dir", &p->dir, true);
  in.Strings(v, at, "argv", &p->argv);
  in.String(v, at, "never_spawned", &p->never_spawned);
  in.String(v, at, "probe", &p->probe);
  in.String(v, at, "derived", &p->derived);
}

// Which shard the report is, and (a merge's) which shards were missing.
void ReadShard(Reader& in, const Value& root, result::RunReport* r) {
  if (const Value* shard = in.Object(root, "", "shard", false)) {
    in.Integer(*shard, "/shard", "index", &r->shard.index);
    in.Integer(*shard, "/shard", "count", &r->shard.count);
    if (in.ok() && (r->shard.count < 1 || r->shard.index < 1 || r->shard.index > r->shard.count))
      in.Fail("/shard", "expected 1 <= index <= count");
  }
  if (const Value* missing = in.Array(root, "", "missing_shards", false)) {
    for (rapidjson::SizeType i = 0; i < missing->Size(); ++i) {
      if (!(*missing)[i].IsInt()) {
        in.Fail("/missing_shards/" + std::to_string(i), "expected an integer");
        break;
      }
      r->missing_shards.push_back((*missing)[i].GetInt());
    }
  }
}

}  // namespace

bool ParseJsonReport(std::string_view text, result::RunReport* out, std::string* error) {
  rapidjson::Document doc;
  json::ParseResult parsed = json::Parse(text, &doc);
  if (!parsed.ok) {
    json::LineCol lc = json::LocateOffset(text, parsed.error_offset);
    *error = std::to_string(lc.line) + ":" + std::to_string(lc.column) + ": " +
             parsed.error.substr(0, parsed.error.rfind(" at byte "));
    return false;
  }
  result::RunReport r;
  Reader in(error);
  if (!doc.IsObject()) in.Fail("", "expected a JSON object (a fakehost report)");
  const Value empty(rapidjson::kObjectType);
  const Value& root = doc.IsObject() ? static_cast<const Value&>(doc) : empty;
  if (const Value* tool = in.Object(root, "", "tool", true)) {
    in.String(*tool, "/tool", "name", &r.tool_name, true);
    in.String(*tool, "/tool", "version", &r.tool_version, true);
  }
  in.String(root, "", "protocol", &r.protocol, true);
  in.String(root, "", "protocol_title", &r.protocol_title);
  in.String(root, "", "suite", &r.suite);
  in.Strings(root, "", "suites", &r.suites);
  in.String(root, "", "suite_version", &r.suite_version);
  in.String(root, "", "started_at", &r.started_at);
  in.Bool(root, "", "strict", &r.strict);
  in.Integer(root, "", "jobs", &r.jobs);
  if (const Value* plugin = in.Object(root, "", "plugin", true))
    ReadPlugin(in, *plugin, "/plugin", &r.plugin);
  ReadShard(in, root, &r);
  if (const Value* summary = in.Object(root, "", "summary", true))
    ReadSummary(in, *summary, "/summary", &r.summary);
  if (const Value* list = in.Array(root, "", "scenarios", true)) {
    for (rapidjson::SizeType i = 0; i < list->Size() && in.ok(); ++i) {
      std::string at = "/scenarios/" + std::to_string(i);
      if (!(*list)[i].IsObject())
        in.Fail(at, "expected an object");
      else
        ReadScenario(in, (*list)[i], at, &r.scenarios.emplace_back());
    }
  }
  if (!in.ok()) return false;
  *out = std::move(r);
  return true;
}

bool ReadJsonReport(const std::string& path, result::RunReport* out, std::string* error) {
  std::string text;
  if (!json::ReadFileCapped(path, kReportFileCap, &text, error)) return false;
  if (ParseJsonReport(text, out, error)) return true;
  *error = path + ":" + (error->front() == '/' ? " " : "") + *error;
  return false;
}

namespace {

// What a line must have before its fields are read: shape errors say what the file should be.
std::string NotAnEntry(const Value& line) {
  const Value* index = line.IsObject() ? json::Find(line, "index") : nullptr;
  const Value* direction = line.IsObject() ? json::Find(line, "direction") : nullptr;
  const Value* kind = line.IsObject() ? json::Find(line, "kind") : nullptr;
  result::Direction way;
  result::EntryKind named;
  if (!index || !index->IsUint64() || !direction || !direction->IsString() ||
      !result::ParseDirection(direction->GetString(), &way) || !kind || !kind->IsString())
    return "not a transcript line (a JSON object with index, direction and a kind "
           "schema/report.schema.json names; written by run --transcripts?)";
  if (!result::ParseEntryKind(kind->GetString(), &named))
    return "not a transcript line (kind '" + json::Abbreviate(kind->GetString()) +
           "' is not one that schema/report.schema.json names)";
  // Their `frame` was a re-serialisation and `validation` nested what is now beside it: read
  // as an entry, such a line would lose its payload or its verdict without a word.
  for (const char* old : {"frame", "raw_base64", "validation"})
    if (json::Find(line, old))
      return std::string("written by an older fakehost (it has `") + old +
             "`): write the transcripts again with run --transcripts";
  return {};
}

}  // namespace

bool ParseTranscriptLine(std::string_view line, result::TranscriptEntry* out, std::string* error) {
  if (line.size() > kTranscriptLineCap) {
    *error = "1: a line of " + std::to_string(line.size()) + " bytes, over the " +
             std::to_string(kTranscriptLineCap >> 20) + " MiB a transcript line may hold";
    return false;
  }
  rapidjson::Document doc;
  json::ParseResult parsed = json::Parse(line, &doc);
  if (!parsed.ok) {
    *error =
        std::to_string(json::LocateOffset(line, parsed.error_offset).column) + ": " + parsed.error;
    return false;
  }
  if (std::string why = NotAnEntry(doc); !why.empty()) {
    *error = "1: " + why;
    return false;
  }
  result::TranscriptEntry e;
  Reader in(error);
  ReadEntry(in, doc, "", &e);
  if (!in.ok()) {
    *error = "1: not a transcript line: " + *error;
    return false;
  }
  *out = std::move(e);
  return true;
}

}  // namespace fakehost::report
