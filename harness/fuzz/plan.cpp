// Rendering a Plan as scenario YAML. Each step is one line of flow-style JSON (JSON is YAML), so
// the text is exact about types (1 vs "1"), needs no YAML quoting rules, and diffs line by line.
#include "harness/fuzz/plan.hpp"
#include "harness/protocol/host_frame.hpp"

#include <algorithm>
#include <map>

#include "harness/json/json.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/schema/schema.hpp"
#include "harness/session/session.hpp"
#include "harness/text/bytes.hpp"
#include "harness/wire/codec.hpp"

namespace fakehost::fuzz {
namespace {

using rapidjson::Value;

bool ValidUtf8Text(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80           ? 1
                    : (c >> 5) == 0x6  ? 2
                    : (c >> 4) == 0xe  ? 3
                    : (c >> 3) == 0x1e ? 4
                                       : 0;
    if (n == 0 || i + n > s.size()) return false;
    if (n == 1 && c < 0x20 && c != '\n' && c != '\t') return false;
    if (n == 1 && c == 0x7f) return false;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
    if (n == 3 && c == 0xed && static_cast<unsigned char>(s[i + 1]) >= 0xa0) return false;
    if (n == 2 && c < 0xc2) return false;
    i += n;
  }
  return true;
}

void Add(rapidjson::Document& d, Value& obj, const char* key, Value v) {
  obj.AddMember(Value(key, d.GetAllocator()), v, d.GetAllocator());
}

std::string MsText(Ms ms) { return std::to_string(ms.count()) + "ms"; }

// The simulated id counters of Session::NextId: the host's auto ids, known before the run.
class IdSim {
 public:
  explicit IdSim(const protocol::Profile& p) : profile_(p) {}
  std::int64_t Take(const std::string& method) {
    protocol::IdSequence seq = profile_.IdsFor(method);
    std::string key = std::to_string(seq.start) + "/" + std::to_string(seq.step);
    auto [it, fresh] = next_.try_emplace(key, seq.start);
    std::int64_t id = it->second;
    it->second += seq.step;
    return id;
  }

 private:
  const protocol::Profile& profile_;
  std::map<std::string, std::int64_t> next_;
};

class Renderer {
 public:
  Renderer(const protocol::Profile& profile, const schema::FrameSchema* schema,
           const RenderOptions& options, bool holds)
      : profile_(profile), schema_(schema), options_(options), ids_(profile), holds_(holds) {}

  void Handshake(const Plan& plan);
  void Act(const Action& a);
  void End(const Plan& plan);
  void Sync() {
    for (const auto& [name, method] : pending_) {
      rapidjson::Document d(rapidjson::kObjectType);
      Value e(rapidjson::kObjectType);
      e.AddMember("reply_to", Value(name.c_str(), d.GetAllocator()), d.GetAllocator());
      Add(d, d, "expect", std::move(e));
      Add(d, d, "within", Value(MsText(Within(method)).c_str(), d.GetAllocator()));
      Emit(d);
    }
    pending_.clear();
  }
  const std::vector<std::string>& steps() const { return steps_; }

 private:
  Ms Within(const std::string& method) const {
    if (method.empty()) return options_.answer_cap;  // a trigger: its method is the plugin's
    return std::clamp(profile_.DeadlineFor(method), options_.answer_floor, options_.answer_cap);
  }
  void Emit(const Value& step) { steps_.push_back(json::ToCompact(step)); }
  // The engine's rule (Session::AcceptedAsRequest): a request with an integer or string id and
  // an envelope the schema accepts is owed exactly one answer.
  bool Owed(const rapidjson::Document& message) const {
    rapidjson::Document copy;
    copy.CopyFrom(message, copy.GetAllocator());
    rapidjson::Document frame = protocol::HostFrame(profile_, std::move(copy));
    protocol::Classified c = profile_.Classify(frame);
    if (c.kind != protocol::MessageKind::kRequest || !c.id) return false;
    json::IdKind k = json::ClassifyId(c.id);
    if (k != json::IdKind::kInteger && k != json::IdKind::kString) return false;
    return !schema_ || !schema_->Has("envelope.request") ||
           schema_->IsValid("envelope.request", frame);
  }
  std::string Owe(const std::string& method) {
    std::string name = "r" + std::to_string(++named_);
    pending_.emplace_back(name, method);
    return name;
  }
  // A send/notify step for `msg` (method, params, extra members); `id` null: no id member.
  void SendStep(const rapidjson::Document& msg, const char* key, const Value* id, bool invalid,
                const std::string& as);
  // Each kind of action as its scenario step (Act picks one).
  void Request(const Action& a);
  void Raw(const Action& a);
  void Sleep(const Action& a);
  void Trigger(const Action& a);

  const protocol::Profile& profile_;
  const schema::FrameSchema* schema_;
  RenderOptions options_;
  IdSim ids_;
  bool holds_;  // the host never answers the plugin's own calls
  // A request-like frame was sent that nothing awaits: the longest any such may take to be
  // answered (its method's deadline, as Within keeps it).
  std::optional<Ms> unowed_;
  std::vector<std::string> steps_;
  std::vector<std::pair<std::string, std::string>> pending_;  // name, method
  int named_ = 0;
};

void Renderer::SendStep(const rapidjson::Document& msg, const char* key, const Value* id,
                        bool invalid, const std::string& as) {
  rapidjson::Document d(rapidjson::kObjectType);
  auto& a = d.GetAllocator();
  Value send(rapidjson::kObjectType);
  Value members(rapidjson::kObjectType);
  if (msg.IsObject()) {
    for (const auto& m : msg.GetObject()) {
      std::string_view name(m.name.GetString(), m.name.GetStringLength());
      if (name == "method" || name == "params")
        send.AddMember(Value(m.name, a), Value(m.value, a), a);
      else if (name != "id")
        members.AddMember(Value(m.name, a), Value(m.value, a), a);
    }
  }
  if (id) send.AddMember("id", Value(*id, a), a);
  if (members.MemberCount() > 0) send.AddMember("members", members, a);
  Add(d, d, key, std::move(send));
  if (!as.empty()) Add(d, d, "as", Value(as.c_str(), a));
  if (invalid) Add(d, d, "invalid", Value(true));
  Emit(d);
}

void Renderer::Handshake(const Plan& plan) {
  const Value& steps = *plan.handshake;
  if (!steps.IsArray() || steps.Empty()) return;
  const Value* send = json::Find(steps[0], "send");
  std::string method = send && send->IsObject() && json::Find(*send, "method") &&
                               json::Find(*send, "method")->IsString()
                           ? json::Find(*send, "method")->GetString()
                           : profile_.handshake_method();
  static const Value kNothing;
  const Value& request = send ? *send : kNothing;
  rapidjson::Document message = ApplyMutations(request, plan.handshake_mutations);
  if (!json::Find(message, "id"))
    message.AddMember("id", Value(ids_.Take(method)), message.GetAllocator());
  if (plan.handshake_mutations.empty()) {
    for (const auto& s : steps.GetArray()) {
      // Its expectation waits no longer than any other owed answer.
      if (json::Find(s, "expect") && !json::Find(s, "within")) {
        rapidjson::Document e;
        e.CopyFrom(s, e.GetAllocator());
        Add(e, e, "within", Value(MsText(Within(method)).c_str(), e.GetAllocator()));
        Emit(e);
      } else {
        Emit(s);
      }
    }
    return;
  }
  // A bad handshake: the mutated request, its answer awaited if one is owed, nothing else.
  rapidjson::Document d;
  d.CopyFrom(steps[0], d.GetAllocator());
  rapidjson::Document mutated = ApplyMutations(request, plan.handshake_mutations);
  d["send"].CopyFrom(mutated, d.GetAllocator());
  const Value* as = json::Find(d, "as");
  std::string name = as && as->IsString() ? as->GetString() : "handshake";
  if (!as) Add(d, d, "as", Value(name.c_str(), d.GetAllocator()));
  if (!json::Find(d, "invalid")) Add(d, d, "invalid", Value(true));
  Emit(d);
  if (Owed(message)) pending_.emplace_back(name, method);
}

void Renderer::Request(const Action& a) {
  rapidjson::Document msg = ApplyMutations(*a.message, a.mutations);
  std::string method = json::Find(msg, "method") && msg["method"].IsString()
                           ? msg["method"].GetString()
                           : std::string();
  rapidjson::Document probe;
  probe.CopyFrom(msg, probe.GetAllocator());
  Value id;
  if (a.id == Action::Id::kAuto)
    id.SetInt64(ids_.Take(method));
  else if (a.id == Action::Id::kExplicit && a.id_value)
    id.CopyFrom(*a.id_value, probe.GetAllocator());
  Value id_copy(id, probe.GetAllocator());
  probe.RemoveMember("id");
  probe.AddMember("id", id_copy, probe.GetAllocator());
  std::string as = Owed(probe) ? Owe(method) : "";
  if (as.empty() && a.id != Action::Id::kNull)
    unowed_ = std::max(unowed_.value_or(Ms{0}), Within(method));
  bool invalid = !a.mutations.empty() || a.id != Action::Id::kAuto;
  SendStep(msg, "send", a.id == Action::Id::kAuto ? nullptr : &id, invalid, as);
}

// A send_raw step: the bytes as text when they are valid UTF-8, else as hex.
void Renderer::Raw(const Action& a) {
  rapidjson::Document d(rapidjson::kObjectType);
  auto& al = d.GetAllocator();
  Value raw(rapidjson::kObjectType);
  if (ValidUtf8Text(a.bytes))
    raw.AddMember("text",
                  Value(a.bytes.c_str(), static_cast<rapidjson::SizeType>(a.bytes.size()), al), al);
  else
    raw.AddMember("hex", Value(text::Hex(a.bytes).c_str(), al), al);
  if (!a.framed) raw.AddMember("framed", false, al);
  if (a.length) raw.AddMember("length", Value(static_cast<std::uint64_t>(*a.length)), al);
  if (a.repeat > 1) raw.AddMember("repeat", Value(a.repeat), al);
  if (a.chunk > 0) {
    raw.AddMember("chunk", Value(static_cast<std::uint64_t>(a.chunk)), al);
    if (a.delay_ms > 0) raw.AddMember("delay", Value(MsText(Ms(a.delay_ms)).c_str(), al), al);
  }
  Add(d, d, "send_raw", std::move(raw));
  if (a.raw_request && a.message) {
    const Value* m = json::Find(*a.message, "method");
    std::string as = Owe(m && m->IsString() ? m->GetString() : "");
    Add(d, d, "as", Value(as.c_str(), al));
  }
  Emit(d);
}

void Renderer::Sleep(const Action& a) {
  rapidjson::Document d(rapidjson::kObjectType);
  Add(d, d, "sleep", Value(MsText(Ms(a.sleep_ms)).c_str(), d.GetAllocator()));
  Emit(d);
}

void Renderer::Trigger(const Action& a) {
  rapidjson::Document d(rapidjson::kObjectType);
  auto& al = d.GetAllocator();
  Value send(rapidjson::kObjectType);
  send.AddMember("trigger", Value(a.trigger.c_str(), al), al);
  Add(d, d, "send", std::move(send));
  // Owed unless the host holds the plugin's own calls (it may wait for them forever).
  if (!holds_) Add(d, d, "as", Value(Owe("").c_str(), al));
  Emit(d);
}

void Renderer::Act(const Action& a) {
  if (a.terminal) Sync();  // what was owed before the framing is lost is awaited first
  switch (a.kind) {
    case Action::Kind::kRequest:
      Request(a);
      break;
    case Action::Kind::kNotify:
      SendStep(ApplyMutations(*a.message, a.mutations), "notify", nullptr, !a.mutations.empty(),
               "");
      break;
    case Action::Kind::kRaw:
      Raw(a);
      break;
    case Action::Kind::kSleep:
      Sleep(a);
      break;
    case Action::Kind::kSync:
      Sync();
      break;
    case Action::Kind::kTrigger:
      Trigger(a);
      break;
  }
}

void Renderer::End(const Plan& plan) {
  bool terminal = !plan.actions.empty() && plan.actions.back().terminal;
  if (!plan.handshake_mutations.empty() || terminal) {
    Sync();
    return;
  }
  if (plan.barrier) {
    rapidjson::Document msg(rapidjson::kObjectType);
    msg.AddMember("method", Value(profile_.barrier_method().c_str(), msg.GetAllocator()),
                  msg.GetAllocator());
    SendStep(msg, "send", nullptr, false, Owe(profile_.barrier_method()));
  }
  Sync();
  if (unowed_) {
    // A plugin may answer a frame it was owed nothing for (an odd id) on a worker thread after
    // the barrier's answer; it has that method's deadline to do so, and an answer within it
    // lands before the shutdown, after which it would count.
    rapidjson::Document pause(rapidjson::kObjectType);
    Add(pause, pause, "sleep", Value(MsText(*unowed_).c_str(), pause.GetAllocator()));
    Emit(pause);
  }
  rapidjson::Document d(rapidjson::kObjectType);
  Add(d, d, "shutdown", Value(rapidjson::kObjectType));
  Emit(d);
}

}  // namespace

Json MakeJson(rapidjson::Document doc) {
  return std::make_shared<const rapidjson::Document>(std::move(doc));
}

Json JsonFromText(std::string_view text) {
  rapidjson::Document d;
  if (d.Parse(text.data(), text.size()).HasParseError()) return nullptr;
  return MakeJson(std::move(d));
}

namespace {

// "/a/b~1c" as its tokens, unescaped: {"a", "b/c"}.
std::vector<std::string> PointerTokens(const std::string& pointer) {
  std::vector<std::string> tokens;
  for (std::size_t at = 0; at < pointer.size() && pointer[at] == '/';) {
    std::size_t next = pointer.find('/', at + 1);
    std::string raw =
        pointer.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
    std::string t;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '~' && i + 1 < raw.size()) {
        t += raw[i + 1] == '1' ? '/' : '~';
        ++i;
      } else {
        t += raw[i];
      }
    }
    tokens.push_back(std::move(t));
    at = next == std::string::npos ? pointer.size() : next;
  }
  return tokens;
}

// `token` as an index into the array `v`, when it is one.
bool ArrayIndex(const Value& v, const std::string& token) {
  return v.IsArray() && !token.empty() &&
         token.find_first_not_of("0123456789") == std::string::npos && std::stoul(token) < v.Size();
}

// The container that all tokens but the last lead to in `d`; null when one is missing: an edit
// whose parent an earlier edit replaced is moot.
Value* Parent(Value& d, const std::vector<std::string>& tokens) {
  Value* parent = &d;
  for (std::size_t i = 0; parent && i + 1 < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    if (parent->IsObject()) {
      auto it = parent->FindMember(Value(t.c_str(), static_cast<rapidjson::SizeType>(t.size())));
      parent = it == parent->MemberEnd() ? nullptr : &it->value;
    } else if (ArrayIndex(*parent, t)) {
      parent = &(*parent)[static_cast<rapidjson::SizeType>(std::stoul(t))];
    } else {
      parent = nullptr;
    }
  }
  return parent;
}

// The mutation's removal or value at `last` in `parent`, an object member or an array element.
void ApplyAt(const Mutation& m, const std::string& last, Value* parent,
             rapidjson::Document::AllocatorType& alloc) {
  Value key(last.c_str(), static_cast<rapidjson::SizeType>(last.size()), alloc);
  if (parent->IsObject()) {
    auto it = parent->FindMember(key);
    if (m.remove) {
      if (it != parent->MemberEnd()) parent->EraseMember(it);
    } else if (m.value) {
      Value v(*m.value, alloc);
      if (it != parent->MemberEnd())
        it->value = v;
      else
        parent->AddMember(key, v, alloc);
    }
  } else if (ArrayIndex(*parent, last)) {
    auto index = static_cast<rapidjson::SizeType>(std::stoul(last));
    if (m.remove)
      parent->Erase(parent->Begin() + index);
    else if (m.value)
      (*parent)[index] = Value(*m.value, alloc);
  }
}

}  // namespace

rapidjson::Document ApplyMutations(const rapidjson::Value& message,
                                   const std::vector<Mutation>& mutations) {
  rapidjson::Document d;
  d.CopyFrom(message, d.GetAllocator());
  for (const Mutation& m : mutations) {
    std::vector<std::string> tokens = PointerTokens(m.pointer);
    if (tokens.empty()) continue;  // the whole message is never replaced
    if (Value* parent = Parent(d, tokens)) ApplyAt(m, tokens.back(), parent, d.GetAllocator());
  }
  return d;
}

std::size_t StepCount(const Plan& plan) {
  std::size_t n = 1 + plan.handshake_mutations.size();
  for (const Action& a : plan.actions) n += 1 + a.mutations.size() + (a.id != Action::Id::kAuto);
  return n + (plan.barrier ? 1 : 0) + (plan.host_reply ? 1 : 0);
}

std::string Render(const Plan& plan, const protocol::Profile& profile,
                   const schema::FrameSchema* schema, const Header& header,
                   const RenderOptions& options) {
  bool holds = plan.host_reply && plan.host_reply->IsString();
  Renderer r(profile, schema, options, holds);
  r.Handshake(plan);
  if (plan.handshake_mutations.empty()) r.Sync();
  for (const Action& a : plan.actions) r.Act(a);
  r.End(plan);
  std::string out;
  for (const auto& c : header.comments) out += "# " + c + "\n";
  out += "title: " + json::QuotedString(header.title) + "\n";
  out += "spec: " + json::QuotedString(header.spec) + "\n";
  out += "requirement: " + json::QuotedString(header.requirement) + "\n";
  out += "level: " + header.level + "\n";
  out += "tags: [fuzz]\n";
  if (!header.vars.empty()) {
    out += "vars:\n";
    for (const auto& [name, value] : header.vars)
      out += "  " + json::QuotedString(name) + ": " + json::QuotedString(value) + "\n";
  }
  if (plan.host_reply) {
    rapidjson::Document replies(rapidjson::kObjectType);
    const std::string& method = plan.host_reply_method.empty() ? "*" : plan.host_reply_method;
    replies.AddMember(Value(method.c_str(), replies.GetAllocator()),
                      Value(*plan.host_reply, replies.GetAllocator()), replies.GetAllocator());
    out += "host:\n  replies: " + json::ToCompact(replies) + "\n";
  }
  out += "steps:\n";
  for (const auto& s : r.steps()) out += "  - " + s + "\n";
  return out;
}

}  // namespace fakehost::fuzz
