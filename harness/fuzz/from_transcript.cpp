#include "harness/fuzz/from_transcript.hpp"

#include <algorithm>
#include <map>
#include <vector>

#include "harness/json/json.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/report/json_report_read.hpp"
#include "harness/result/transcript.hpp"
#include "harness/text/bytes.hpp"
#include "harness/text/printable.hpp"

namespace fakehost::fuzz {
namespace {

using rapidjson::Value;
using Doc = rapidjson::Document;

// The shape of a value: an object's members by type, anything else by its type.
Value Shape(const Value& v, Doc::AllocatorType& a) {
  auto typed = [&](const Value& x) {
    Value t(rapidjson::kObjectType);
    t.AddMember("$type", Value(json::TypeName(x), a), a);
    return t;
  };
  if (!v.IsObject()) return typed(v);
  Value out(rapidjson::kObjectType);
  for (const auto& m : v.GetObject()) out.AddMember(Value(m.name, a), typed(m.value), a);
  return out;
}

// A step under construction: its JSON, and for a plugin request the id key a host answer uses.
struct Step {
  Doc doc{rapidjson::kObjectType};
};

class Converter {
 public:
  Converter(const protocol::Profile& profile) : profile_(profile) {}
  void Host(const Doc& e);
  void Plugin(const Doc& e);
  bool done() const { return done_; }
  std::string Yaml(const std::string& source) const;

 private:
  Doc& NewStep() {
    steps_.emplace_back();
    return steps_.back().doc;
  }
  // The message of a host frame: without the members the profile adds itself.
  void Message(const Value& frame, Doc& step, const char* key);

  const protocol::Profile& profile_;
  std::vector<Step> steps_;
  std::vector<std::string> comments_;
  std::map<std::string, std::string> names_;         // id key of a host request -> its name
  std::map<std::string, std::size_t> plugin_calls_;  // id key of a plugin request -> step
  std::vector<std::string> skip_;  // host frames the profile sends by itself, in order
  std::string handshake_name_;
  int counter_ = 0;
  bool done_ = false;
};

void Converter::Message(const Value& frame, Doc& step, const char* key) {
  auto& a = step.GetAllocator();
  Value send(rapidjson::kObjectType), members(rapidjson::kObjectType);
  for (const auto& m : frame.GetObject()) {
    std::string name = m.name.GetString();
    if (json::Find(profile_.host_members(), name)) continue;
    if (std::any_of(profile_.request_members().begin(), profile_.request_members().end(),
                    [&](const protocol::RequestMember& r) { return r.name == name; }))
      continue;
    if (name == "method" || name == "params" || name == "id")
      send.AddMember(Value(m.name, a), Value(m.value, a), a);
    else
      members.AddMember(Value(m.name, a), Value(m.value, a), a);
  }
  if (members.MemberCount()) send.AddMember("members", members, a);
  step.AddMember(Value(key, a), send, a);
}

// The kind of a line ReadLine accepted.
session::EntryKind KindOf(const Doc& e) {
  session::EntryKind kind = session::EntryKind::kRaw;
  session::ParseEntryKind(e["kind"].GetString(), &kind);
  return kind;
}

// Over 60 lines: one case per kind of host frame, each turned into its step.
void Converter::Host(const Doc& e) {
  using K = session::EntryKind;
  K kind = KindOf(e);
  const Value* frame = json::Find(e, "frame");
  // A frame the run's schema checked (schema_def) and rejected (violations).
  const Value* violations = json::Find(e, "violations");
  bool invalid =
      json::Find(e, "schema_def") && violations && violations->IsArray() && !violations->Empty();
  if (frame && frame->IsObject() && kind == K::kNotification) {
    std::string method = json::Find(*frame, "method") && (*frame)["method"].IsString()
                             ? (*frame)["method"].GetString()
                             : "";
    if (!skip_.empty() && skip_.front() == method) {
      skip_.erase(skip_.begin());
      return;
    }
    if (method == profile_.shutdown_notification()) {
      NewStep().AddMember("shutdown", Value(rapidjson::kObjectType),
                          steps_.back().doc.GetAllocator());
      done_ = true;
      return;
    }
  }
  if (frame && frame->IsObject() && kind == K::kResponse) {
    // The host's answer to a plugin request: the reply of the step that expected it.
    const Value* id = json::Find(*frame, "id");
    auto it = id ? plugin_calls_.find(json::IdKey(*id)) : plugin_calls_.end();
    if (it == plugin_calls_.end()) return;
    Doc& step = steps_[it->second].doc;
    Value body(rapidjson::kObjectType);
    for (const char* k : {"result", "error"})
      if (const Value* v = json::Find(*frame, k))
        body.AddMember(Value(k, step.GetAllocator()), Value(*v, step.GetAllocator()),
                       step.GetAllocator());
    step.AddMember("reply", body, step.GetAllocator());
    plugin_calls_.erase(it);
    return;
  }
  if (frame && frame->IsObject() && (kind == K::kRequest || kind == K::kNotification)) {
    Doc& step = NewStep();
    auto& a = step.GetAllocator();
    Message(*frame, step, kind == K::kRequest ? "send" : "notify");
    if (kind == K::kRequest) {
      std::string name = "r" + std::to_string(++counter_);
      step.AddMember("as", Value(name.c_str(), a), a);
      if (const Value* id = json::Find(*frame, "id")) names_[json::IdKey(*id)] = name;
      if (json::Find(*frame, "method") && (*frame)["method"] == profile_.handshake_method().c_str())
        handshake_name_ = name;
    }
    if (invalid) step.AddMember("invalid", true, a);
    return;
  }
  // Bytes: as written for raw writes, framed by the profile for payloads that were not frames.
  std::string bytes;
  if (frame) {
    bytes = json::ToCompact(*frame);
  } else if (const Value* raw = json::Find(e, "raw_base64");
             !raw || !raw->IsString() || !text::FromBase64(raw->GetString(), &bytes)) {
    comments_.push_back("host entry #" + std::to_string(e["index"].GetUint64()) +
                        " has neither a frame nor base64 bytes and is left out");
    return;
  }
  if (json::Find(e, "clipped") || json::Find(e, "summarised")) {
    comments_.push_back("host entry #" + std::to_string(e["index"].GetUint64()) +
                        " was clipped in the transcript and is left out");
    return;
  }
  Doc& step = NewStep();
  auto& a = step.GetAllocator();
  Value raw(rapidjson::kObjectType);
  raw.AddMember("hex", Value(text::Hex(bytes).c_str(), a), a);
  if (kind == K::kRaw) raw.AddMember("framed", false, a);
  step.AddMember("send_raw", raw, a);
}

void Converter::Plugin(const Doc& e) {
  using K = session::EntryKind;
  K kind = KindOf(e);
  const Value* frame = json::Find(e, "frame");
  std::string where = "plugin entry #" + std::to_string(e["index"].GetUint64()) + " (" +
                      session::EntryKindName(kind) + ")";
  if (!frame || !frame->IsObject()) {
    comments_.push_back(where + " is not a frame a step can expect; left out");
    return;
  }
  std::string method = json::Find(*frame, "method") && (*frame)["method"].IsString()
                           ? (*frame)["method"].GetString()
                           : "";
  const Value* id = json::Find(*frame, "id");
  if (kind == K::kResponse) {
    auto it = id ? names_.find(json::IdKey(*id)) : names_.end();
    if (it == names_.end()) {
      comments_.push_back(where + " answers no request the host sent; left out");
      return;
    }
    Doc& step = NewStep();
    auto& a = step.GetAllocator();
    Value expect(rapidjson::kObjectType);
    expect.AddMember("reply_to", Value(it->second.c_str(), a), a);
    if (const Value* r = json::Find(*frame, "result")) expect.AddMember("result", Shape(*r, a), a);
    if (const Value* er = json::Find(*frame, "error")) {
      const Value* code = er->IsObject() ? json::Find(*er, "code") : nullptr;
      Value m(rapidjson::kObjectType);
      if (code) m.AddMember("code", Value(*code, a), a);
      if (code)
        expect.AddMember("error", m, a);
      else
        expect.AddMember("error", Shape(*er, a), a);
    }
    step.AddMember("expect", expect, a);
    if (it->second == handshake_name_ && profile_.after_handshake())
      for (const Value* s : profile_.after_handshake()->send)
        skip_.push_back((*s)["method"].GetString());  // the schema requires a method
    names_.erase(it);
    return;
  }
  if (kind == K::kRequest || kind == K::kNotification) {
    Doc& step = NewStep();
    auto& a = step.GetAllocator();
    Value expect(rapidjson::kObjectType);
    expect.AddMember(Value(session::EntryKindName(kind), a), Value(method.c_str(), a), a);
    step.AddMember("expect", expect, a);
    if (kind == K::kRequest && id) {
      std::string name = "p" + std::to_string(++counter_);
      step.AddMember("as", Value(name.c_str(), a), a);
      plugin_calls_[json::IdKey(*id)] = steps_.size() - 1;
    }
    return;
  }
  comments_.push_back(where + " is left out");
}

std::string Converter::Yaml(const std::string& source) const {
  // Plugin text reaches every line: comments are Printable (one line, controls as \xNN), JSON
  // lines YamlSafeJson (valid UTF-8, controls as \u escapes), so the file loads as it reads.
  std::string out = "# Made by fakehost scenario from-transcript " + text::Printable(source) + "\n";
  for (const auto& c : comments_) out += "# " + text::Printable(c) + "\n";
  out += "title: " + text::YamlSafeJson(json::QuotedString("Replays " + source)) + "\n";
  out += "spec: " + json::QuotedString(profile_.title()) + "\n";
  out +=
      "requirement: " +
      json::QuotedString("The plugin answers the frames of the recorded session as it did then.") +
      "\n";
  out += "tags: [transcript]\nsteps:\n";
  for (const Step& s : steps_) out += "  - " + text::YamlSafeJson(json::ToCompact(s.doc)) + "\n";
  return out;
}

// A transcript line through the one parser of hostile text (json::Parse: iterative, depth-capped;
// RapidJSON's recursive Parse overflows the stack on a line nested a million deep). The frame
// a line holds was parsed by its session under the default cap, one level below the line's.
bool ParseLine(std::string_view line, Doc* d) {
  json::ParseLimits limits;
  limits.max_depth += 1;
  return json::Parse(line, d, limits).ok;
}

bool ReadLine(std::string_view line, const std::string& where, Doc* d, std::string* error) {
  session::EntryKind kind;
  std::string why = ParseLine(line, d) ? report::TranscriptLineProblem(*d, &kind)
                                       : report::TranscriptLineProblem(rapidjson::Value(), &kind);
  if (why.empty()) return true;
  *error = where + ": " + why;
  return false;
}

}  // namespace

bool ScenarioFromTranscript(std::string_view jsonl, const std::string& source,
                            const protocol::Profile& profile, std::string* yaml,
                            std::string* error) {
  Converter c(profile);
  std::size_t line_no = 0, frames = 0;
  while (!jsonl.empty() && !c.done()) {
    std::size_t nl = jsonl.find('\n');
    std::string_view line = jsonl.substr(0, nl);
    jsonl = nl == std::string_view::npos ? std::string_view() : jsonl.substr(nl + 1);
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    Doc d;
    if (!ReadLine(line, source + ":" + std::to_string(line_no), &d, error)) return false;
    ++frames;
    if (std::string_view(d["direction"].GetString()) == "host-to-plugin")
      c.Host(d);
    else
      c.Plugin(d);
  }
  if (frames == 0) {
    *error = source + ": no transcript lines";
    return false;
  }
  *yaml = c.Yaml(source);
  return true;
}

std::string FirstHostMethod(std::string_view jsonl) {
  while (!jsonl.empty()) {
    std::size_t nl = jsonl.find('\n');
    std::string_view line = jsonl.substr(0, nl);
    jsonl = nl == std::string_view::npos ? std::string_view() : jsonl.substr(nl + 1);
    Doc d;
    if (!ParseLine(line, &d) || !d.IsObject()) continue;
    const Value* frame = json::Find(d, "frame");
    if (frame && frame->IsObject() && json::Find(d, "direction") &&
        d["direction"] == "host-to-plugin" && json::Find(*frame, "method") &&
        (*frame)["method"].IsString())
      return (*frame)["method"].GetString();
  }
  return {};
}

}  // namespace fakehost::fuzz
