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
  // `frame`: the entry's payload when it is one whole JSON object, else null.
  void Host(const result::TranscriptEntry& e, const Value* frame);
  void Plugin(const result::TranscriptEntry& e, const Value* frame);
  bool done() const { return done_; }
  std::string Yaml(const std::string& source) const;

 private:
  Doc& NewStep() {
    steps_.emplace_back();
    return steps_.back().doc;
  }
  // The message of a host frame: without the members the profile adds itself.
  void Message(const Value& frame, Doc& step, const char* key);
  bool HostNotification(const Value& frame);
  void HostAnswer(const Value& frame);
  void HostMessage(const result::TranscriptEntry& e, const Value& frame);
  void HostBytes(const result::TranscriptEntry& e);
  void PluginAnswer(const Value& frame, const std::string& where);

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

// The host's notifications the profile sends by itself (left out) and its shutdown (a graded
// `shutdown` step that ends the scenario). True when the frame was one of them.
bool Converter::HostNotification(const Value& frame) {
  const Value* m = json::Find(frame, "method");
  std::string method = m && m->IsString() ? m->GetString() : "";
  if (!skip_.empty() && skip_.front() == method) {
    skip_.erase(skip_.begin());
    return true;
  }
  if (method != profile_.shutdown_notification()) return false;
  NewStep().AddMember("shutdown", Value(rapidjson::kObjectType), steps_.back().doc.GetAllocator());
  done_ = true;
  return true;
}

// The host's answer to a plugin request: the reply of the step that expected it.
void Converter::HostAnswer(const Value& frame) {
  const Value* id = json::Find(frame, "id");
  auto it = id ? plugin_calls_.find(json::IdKey(*id)) : plugin_calls_.end();
  if (it == plugin_calls_.end()) return;
  Doc& step = steps_[it->second].doc;
  Value body(rapidjson::kObjectType);
  for (const char* k : {"result", "error"})
    if (const Value* v = json::Find(frame, k))
      body.AddMember(Value(k, step.GetAllocator()), Value(*v, step.GetAllocator()),
                     step.GetAllocator());
  step.AddMember("reply", body, step.GetAllocator());
  plugin_calls_.erase(it);
}

void Converter::HostMessage(const result::TranscriptEntry& e, const Value& frame) {
  const bool request = e.kind == result::EntryKind::kRequest;
  Doc& step = NewStep();
  auto& a = step.GetAllocator();
  Message(frame, step, request ? "send" : "notify");
  if (request) {
    std::string name = "r" + std::to_string(++counter_);
    step.AddMember("as", Value(name.c_str(), a), a);
    if (const Value* id = json::Find(frame, "id")) names_[json::IdKey(*id)] = name;
    if (const Value* m = json::Find(frame, "method");
        m && *m == profile_.handshake_method().c_str())
      handshake_name_ = name;
  }
  // A frame the run's schema checked and rejected: sent invalid on purpose.
  if (!e.schema_def.empty() && !e.violations.empty()) step.AddMember("invalid", true, a);
}

// Bytes as received: as written for raw writes, framed by the profile for payloads that were
// not messages.
void Converter::HostBytes(const result::TranscriptEntry& e) {
  if (e.clipped || e.summarised) {
    comments_.push_back("host entry #" + std::to_string(e.index) +
                        " was clipped in the transcript and is left out");
    return;
  }
  Doc& step = NewStep();
  auto& a = step.GetAllocator();
  Value raw(rapidjson::kObjectType);
  raw.AddMember("hex", Value(text::Hex(e.text).c_str(), a), a);
  if (e.kind == result::EntryKind::kRaw) raw.AddMember("framed", false, a);
  step.AddMember("send_raw", raw, a);
}

void Converter::Host(const result::TranscriptEntry& e, const Value* frame) {
  using K = result::EntryKind;
  if (!frame) return HostBytes(e);
  if (e.kind == K::kNotification && HostNotification(*frame)) return;
  if (e.kind == K::kResponse) return HostAnswer(*frame);
  if (e.kind == K::kRequest || e.kind == K::kNotification) return HostMessage(e, *frame);
  HostBytes(e);
}

// A plugin answer: expected by the request it answers and the shape of its result or its error
// code.
void Converter::PluginAnswer(const Value& frame, const std::string& where) {
  const Value* id = json::Find(frame, "id");
  auto it = id ? names_.find(json::IdKey(*id)) : names_.end();
  if (it == names_.end()) {
    comments_.push_back(where + " answers no request the host sent; left out");
    return;
  }
  Doc& step = NewStep();
  auto& a = step.GetAllocator();
  Value expect(rapidjson::kObjectType);
  expect.AddMember("reply_to", Value(it->second.c_str(), a), a);
  if (const Value* r = json::Find(frame, "result")) expect.AddMember("result", Shape(*r, a), a);
  if (const Value* er = json::Find(frame, "error")) {
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
}

void Converter::Plugin(const result::TranscriptEntry& e, const Value* frame) {
  using K = result::EntryKind;
  std::string where =
      "plugin entry #" + std::to_string(e.index) + " (" + result::EntryKindName(e.kind) + ")";
  if (!frame) {
    comments_.push_back(where + " is not a frame a step can expect; left out");
    return;
  }
  if (e.kind == K::kResponse) return PluginAnswer(*frame, where);
  if (e.kind != K::kRequest && e.kind != K::kNotification) {
    comments_.push_back(where + " is left out");
    return;
  }
  const Value* m = json::Find(*frame, "method");
  std::string method = m && m->IsString() ? m->GetString() : "";
  Doc& step = NewStep();
  auto& a = step.GetAllocator();
  Value expect(rapidjson::kObjectType);
  expect.AddMember(Value(result::EntryKindName(e.kind), a), Value(method.c_str(), a), a);
  step.AddMember("expect", expect, a);
  const Value* id = json::Find(*frame, "id");
  if (e.kind == K::kRequest && id) {
    std::string name = "p" + std::to_string(++counter_);
    step.AddMember("as", Value(name.c_str(), a), a);
    plugin_calls_[json::IdKey(*id)] = steps_.size() - 1;
  }
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

// The payload of a whole message, parsed as its session parsed it (json::Parse, from the bytes
// as received); null for anything else, which only its bytes can stand for.
const Value* FrameOf(const result::TranscriptEntry& e, Doc* doc) {
  if (!result::IsMessage(e.kind) || e.clipped || e.summarised) return nullptr;
  return json::Parse(e.text, doc).ok && doc->IsObject() ? doc : nullptr;
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
    result::TranscriptEntry e;
    std::string why;
    if (!report::ParseTranscriptLine(line, &e, &why)) {
      *error = source + ":" + std::to_string(line_no) + ":" + why;
      return false;
    }
    ++frames;
    Doc frame;
    if (e.direction == result::Direction::kHostToPlugin)
      c.Host(e, FrameOf(e, &frame));
    else
      c.Plugin(e, FrameOf(e, &frame));
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
    result::TranscriptEntry e;
    std::string why;
    if (!report::ParseTranscriptLine(line, &e, &why) ||
        e.direction != result::Direction::kHostToPlugin)
      continue;
    Doc doc;
    const Value* frame = FrameOf(e, &doc);
    const Value* method = frame ? json::Find(*frame, "method") : nullptr;
    if (method && method->IsString()) return method->GetString();
  }
  return {};
}

}  // namespace fakehost::fuzz
