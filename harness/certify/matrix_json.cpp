// The matrix as JSON (schema/certify.schema.json), and back: --since and `certify merge` read
// what an earlier certify wrote, so every field written here is read again below.
#include <cmath>

#include "harness/certify/writers.hpp"

#include "harness/json/json.hpp"
#include "harness/json/text_file.hpp"
#include "harness/report/json_writer.hpp"
#include "harness/report/text.hpp"

namespace fakehost::certify {
namespace {

using report::jsonw::Writer;

using report::jsonw::Key;
using report::jsonw::Ms;
using report::jsonw::Str;
using report::jsonw::Strings;

void WriteChanges(Writer& w, const char* key, const std::vector<Change>& changes) {
  Key(w, key);
  w.StartArray();
  for (const Change& c : changes) {
    w.StartObject();
    Key(w, "plugin");
    Str(w, c.plugin);
    Key(w, "scenario");
    Str(w, c.scenario);
    Key(w, "before");
    Str(w, c.before);
    Key(w, "after");
    Str(w, c.after);
    w.EndObject();
  }
  w.EndArray();
}

void WriteCells(Writer& w, const std::map<std::string, Cell>& cells) {
  Key(w, "cells");
  w.StartObject();
  for (const auto& [id, c] : cells) {
    Str(w, id);
    w.StartObject();
    Key(w, "status");
    Str(w, result::StatusName(c.status));
    Key(w, "cause");
    Str(w, c.cause);
    Key(w, "location");
    Str(w, c.location);
    Key(w, "duration_ms");
    Ms(w, c.duration_ms);
    if (!c.revision.empty()) {
      Key(w, "revision");
      Str(w, c.revision);
    }
    w.EndObject();
  }
  w.EndObject();
}

void WriteRejection(Writer& w, const Rejection& x) {
  w.StartObject();
  Key(w, "scenario");
  Str(w, x.scenario);
  Key(w, "frame");
  w.Uint64(x.frame);
  Key(w, "direction");
  Str(w, x.from_plugin ? "plugin-to-host" : "host-to-plugin");
  Key(w, "def");
  Str(w, x.def);
  Key(w, "violations");
  w.StartArray();
  for (const auto& [pointer, message] : x.violations) {
    w.StartObject();
    Key(w, "pointer");
    Str(w, pointer);
    Key(w, "message");
    Str(w, message);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

// A row's frame counts and rejections under the --candidate schema.
void WriteCandidate(Writer& w, const Row& r) {
  Key(w, "candidate");
  w.StartObject();
  Key(w, "checked");
  w.Uint64(r.frames_checked);
  Key(w, "rejected");
  w.Uint64(r.frames_rejected);
  Key(w, "unchecked");
  w.Uint64(r.frames_unchecked);
  Key(w, "rejections");
  w.StartArray();
  for (const Rejection& x : r.rejections) WriteRejection(w, x);
  w.EndArray();
  w.EndObject();
}

// A row's keys in schema/certify.schema.json's order.
void WriteRow(Writer& w, const Row& r, bool candidate) {
  w.StartObject();
  for (auto [k, v] : {std::pair<const char*, const std::string*>{"key", &r.key},
                      {"id", &r.id},
                      {"version", &r.version},
                      {"dir", &r.dir},
                      {"detail", &r.detail}}) {
    Key(w, k);
    Str(w, *v);
  }
  Key(w, "verdict");
  Str(w, VerdictName(r.verdict));
  if (!r.probe.empty()) {
    Key(w, "probe");
    Str(w, r.probe);
  }
  WriteCells(w, r.cells);
  if (candidate) WriteCandidate(w, r);
  w.EndObject();
}

// Reading: every accessor records the first thing missing and returns a harmless default.
struct Reader {
  std::string name;
  std::string* error;
  bool ok = true;
  const rapidjson::Value* Get(const rapidjson::Value& o, const char* key, const std::string& at) {
    const rapidjson::Value* v = o.IsObject() ? json::Find(o, key) : nullptr;
    if (!v && ok) {
      *error = name + ": " + at + "/" + key + " is missing (not a certify matrix?)";
      ok = false;
    }
    return v;
  }
  std::string S(const rapidjson::Value& o, const char* key, const std::string& at) {
    const rapidjson::Value* v = Get(o, key, at);
    if (v && v->IsString()) return std::string(v->GetString(), v->GetStringLength());
    if (v && ok) *error = name + ": " + at + "/" + key + " must be a string", ok = false;
    return "";
  }
  std::size_t N(const rapidjson::Value& o, const char* key, const std::string& at) {
    const rapidjson::Value* v = Get(o, key, at);
    if (v && v->IsUint64()) return static_cast<std::size_t>(v->GetUint64());
    if (v && ok) *error = name + ": " + at + "/" + key + " must be a count", ok = false;
    return 0;
  }
  const rapidjson::Value* Array(const rapidjson::Value& o, const char* key, const std::string& at) {
    const rapidjson::Value* v = Get(o, key, at);
    if (v && !v->IsArray()) {
      if (ok) *error = name + ": " + at + "/" + key + " must be an array", ok = false;
      return nullptr;
    }
    return v;
  }
  void Fail(const std::string& what) {
    if (ok) *error = name + ": " + what, ok = false;
  }
};

void ReadRow(Reader& rd, const rapidjson::Value& v, const std::string& at, Row* r) {
  r->key = rd.S(v, "key", at);
  r->id = rd.S(v, "id", at);
  r->version = rd.S(v, "version", at);
  r->dir = rd.S(v, "dir", at);
  r->detail = rd.S(v, "detail", at);
  if (const rapidjson::Value* probe = json::Find(v, "probe"); probe && probe->IsString())
    r->probe = json::View(*probe);
  if (!ParseVerdict(rd.S(v, "verdict", at), &r->verdict)) rd.Fail(at + "/verdict is unknown");
  const rapidjson::Value* cells = rd.Get(v, "cells", at);
  if (cells && cells->IsObject()) {
    for (const auto& m : cells->GetObject()) {
      std::string id(m.name.GetString(), m.name.GetStringLength());
      std::string cat = at + "/cells/" + json::EscapePointerToken(id);
      Cell c;
      if (!result::ParseStatus(rd.S(m.value, "status", cat), &c.status))
        rd.Fail(cat + "/status is unknown");
      c.cause = rd.S(m.value, "cause", cat);
      c.location = rd.S(m.value, "location", cat);
      const rapidjson::Value* d = rd.Get(m.value, "duration_ms", cat);
      c.duration_ms = d && d->IsNumber() ? d->GetDouble() : 0;
      if (const rapidjson::Value* rev = json::Find(m.value, "revision"); rev && rev->IsString())
        c.revision = json::View(*rev);
      r->cells[id] = std::move(c);
    }
  }
  const rapidjson::Value* cand = json::Find(v, "candidate");
  if (!cand) return;
  std::string cat = at + "/candidate";
  r->frames_checked = rd.N(*cand, "checked", cat);
  r->frames_rejected = rd.N(*cand, "rejected", cat);
  r->frames_unchecked = rd.N(*cand, "unchecked", cat);
  if (const rapidjson::Value* list = rd.Array(*cand, "rejections", cat)) {
    for (const auto& x : list->GetArray()) {
      Rejection j;
      j.scenario = rd.S(x, "scenario", cat + "/rejections");
      j.frame = rd.N(x, "frame", cat + "/rejections");
      j.from_plugin = rd.S(x, "direction", cat + "/rejections") == "plugin-to-host";
      j.def = rd.S(x, "def", cat + "/rejections");
      if (const rapidjson::Value* vs = rd.Array(x, "violations", cat + "/rejections"))
        for (const auto& y : vs->GetArray())
          j.violations.emplace_back(rd.S(y, "pointer", cat), rd.S(y, "message", cat));
      r->rejections.push_back(std::move(j));
    }
  }
}

void WriteTool(Writer& w, const Matrix& m) {
  Key(w, "tool");
  w.StartObject();
  Key(w, "name");
  Str(w, "fakehost");
  Key(w, "version");
  Str(w, m.tool_version);
  w.EndObject();
}

void WriteSummary(Writer& w, const Matrix& m) {
  Totals t = Count(m);
  Key(w, "summary");
  w.StartObject();
  Key(w, "plugins");
  w.Int(t.plugins);
  Key(w, "passing");
  w.Int(t.passing);
  Key(w, "failing");
  w.Int(t.failing);
  Key(w, "rejected_by_candidate");
  w.Int(t.rejected_by_candidate);
  Key(w, "cells");
  w.StartObject();
  for (const auto& [status, n] : t.cells) {
    Str(w, result::StatusName(status));
    w.Int(n);
  }
  w.EndObject();
  w.EndObject();
}

void WriteColumns(Writer& w, const std::vector<Column>& columns) {
  Key(w, "scenarios");
  w.StartArray();
  for (const Column& c : columns) {
    w.StartObject();
    for (auto [k, v] : {std::pair<const char*, const std::string*>{"id", &c.id},
                        {"title", &c.title},
                        {"spec", &c.spec},
                        {"requirement", &c.requirement}}) {
      Key(w, k);
      Str(w, *v);
    }
    w.EndObject();
  }
  w.EndArray();
}

// --since: null when no earlier matrix was given.
void WriteSince(Writer& w, const Diff& diff) {
  Key(w, "since");
  if (!diff.computed) {
    w.Null();
    return;
  }
  w.StartObject();
  Key(w, "path");
  Str(w, diff.since);
  WriteChanges(w, "newly_failing", diff.newly_failing);
  WriteChanges(w, "newly_passing", diff.newly_passing);
  Strings(w, "plugins_appeared", diff.plugins_appeared);
  Strings(w, "plugins_vanished", diff.plugins_vanished);
  Strings(w, "scenarios_appeared", diff.scenarios_appeared);
  Strings(w, "scenarios_vanished", diff.scenarios_vanished);
  w.EndObject();
}

}  // namespace

// The matrix's keys in schema/certify.schema.json's order.
std::string JsonMatrix(const Matrix& m) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  WriteTool(w, m);
  Key(w, "kind");
  Str(w, "certify");
  for (auto [k, v] : {std::pair<const char*, const std::string*>{"protocol", &m.protocol},
                      {"suite", &m.suite},
                      {"started_at", &m.started_at},
                      {"shard", &m.shard},
                      {"candidate", &m.candidate}}) {
    Key(w, k);
    Str(w, *v);
  }
  if (!m.missing_shards.empty()) {
    Key(w, "missing_shards");
    w.StartArray();
    for (int k : m.missing_shards) w.Int(k);
    w.EndArray();
  }
  Key(w, "jobs");
  w.Int(m.jobs);
  Key(w, "duration_ms");
  Ms(w, m.duration_ms);
  WriteSummary(w, m);
  WriteColumns(w, m.columns);
  Key(w, "plugins");
  w.StartArray();
  for (const Row& r : m.rows) WriteRow(w, r, !m.candidate.empty());
  w.EndArray();
  WriteSince(w, m.diff);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

bool ParseJsonMatrix(std::string_view text, const std::string& name, Matrix* out,
                     std::string* error) {
  rapidjson::Document doc;
  json::ParseResult parsed = json::Parse(text, &doc);
  if (!parsed.ok) {
    json::LineCol lc = json::LocateOffset(text, parsed.error_offset);
    *error = name + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.column) + ": " +
             parsed.error;
    return false;
  }
  Reader rd{name, error};
  const rapidjson::Value* kind = doc.IsObject() ? json::Find(doc, "kind") : nullptr;
  if (!kind || !kind->IsString() || std::string_view(kind->GetString()) != "certify") {
    rd.Fail("not a certify matrix (its /kind is not \"certify\"; a run report?)");
    return false;
  }
  Matrix m;
  const rapidjson::Value* tool = rd.Get(doc, "tool", "");
  if (tool) m.tool_version = rd.S(*tool, "version", "/tool");
  m.protocol = rd.S(doc, "protocol", "");
  m.suite = rd.S(doc, "suite", "");
  m.started_at = rd.S(doc, "started_at", "");
  m.shard = rd.S(doc, "shard", "");
  m.candidate = rd.S(doc, "candidate", "");
  m.jobs = static_cast<int>(rd.N(doc, "jobs", ""));
  if (const rapidjson::Value* missing = json::Find(doc, "missing_shards");
      missing && missing->IsArray())
    for (const auto& k : missing->GetArray())
      if (k.IsInt()) m.missing_shards.push_back(k.GetInt());
  const rapidjson::Value* d = rd.Get(doc, "duration_ms", "");
  m.duration_ms = d && d->IsNumber() ? d->GetDouble() : 0;
  if (const rapidjson::Value* cols = rd.Array(doc, "scenarios", ""))
    for (const auto& c : cols->GetArray())
      m.columns.push_back({rd.S(c, "id", "/scenarios"), rd.S(c, "title", "/scenarios"),
                           rd.S(c, "spec", "/scenarios"), rd.S(c, "requirement", "/scenarios")});
  if (const rapidjson::Value* rows = rd.Array(doc, "plugins", "")) {
    rapidjson::SizeType i = 0;
    for (const auto& r : rows->GetArray()) {
      Row row;
      ReadRow(rd, r, "/plugins/" + std::to_string(i++), &row);
      m.rows.push_back(std::move(row));
    }
  }
  if (!rd.ok) return false;
  *out = std::move(m);
  return true;
}

bool ReadJsonMatrix(const std::string& path, Matrix* out, std::string* error) {
  std::string text;
  // A matrix of a large corpus is far above the 1 MiB cap for hand-written inputs.
  if (!json::ReadFileCapped(path, 512u * 1024 * 1024, &text, error)) return false;
  return ParseJsonMatrix(text, path, out, error);
}

}  // namespace fakehost::certify
