// Session generation. Every choice draws from one Rng seeded per session, in a fixed order, so
// the same seed gives the same plan; nothing here looks at what a plugin answered.
#include "harness/fuzz/generator.hpp"
#include "harness/protocol/host_frame.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include "harness/fuzz/rng.hpp"
#include "harness/json/json.hpp"
#include "harness/json/text_file.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/scenario/yaml_json.hpp"
#include "harness/schema/schema.hpp"
#include "harness/session/session.hpp"

namespace fakehost::fuzz {
namespace {

using rapidjson::Value;

// Every pointer below `v` (itself included), for picking where a mutation lands.
void Pointers(const Value& v, const std::string& at, std::vector<std::string>* out, int depth) {
  out->push_back(at);
  if (depth > 6) return;
  if (v.IsObject()) {
    for (const auto& m : v.GetObject())
      Pointers(m.value, at + "/" + json::EscapePointerToken(m.name.GetString()), out, depth + 1);
  } else if (v.IsArray()) {
    for (rapidjson::SizeType i = 0; i < v.Size() && i < 8; ++i)
      Pointers(v[i], at + "/" + std::to_string(i), out, depth + 1);
  }
}

Json Text(const std::string& s) {
  rapidjson::Document d;
  d.SetString(s.c_str(), static_cast<rapidjson::SizeType>(s.size()), d.GetAllocator());
  return MakeJson(std::move(d));
}

// Mutations of `message` (pointers into it): boundary values, removed and extra members. The
// method is never touched (the scenario format needs it as a string); `root` is where edits may
// land ("/params" for a handshake: its id and method are the host's).
std::vector<Mutation> Mutate(const Value& message, Rng& rng, const std::string& root) {
  std::vector<std::string> where;
  if (root.empty()) {
    for (const auto& m : message.GetObject()) {
      std::string name = m.name.GetString();
      if (name != "method") Pointers(m.value, "/" + json::EscapePointerToken(name), &where, 1);
    }
  } else if (const Value* r = json::Resolve(message, root)) {
    // Below the root only: replacing a handshake's params whole breaks its envelope, and the
    // engine then takes the plugin's answer for a frame before the handshake's.
    Pointers(*r, root, &where, 1);
    where.erase(where.begin());
  }
  std::vector<Mutation> out;
  int n = rng.Chance(70) ? 1 : static_cast<int>(rng.Between(2, 3));
  for (int i = 0; i < n; ++i) {
    Mutation m;
    int op = static_cast<int>(rng.Below(100));
    const auto& [name, value] = rng.Pick(BoundaryValues());
    if (where.empty() || op >= 85) {  // an extra member, at the top or in an object
      std::string base = root;
      if (!where.empty()) {
        std::string p = rng.Pick(where);
        const Value* v = json::Resolve(message, p);
        if (v && v->IsObject()) base = p;
      }
      m.pointer = base + "/" + (rng.Chance(50) ? "fuzz_extra" : "ünknown-field");
      m.value = value;
      m.what = "extra member (" + name + ")";
    } else if (op >= 70) {
      m.pointer = rng.Pick(where);
      m.remove = true;
      m.what = "missing member";
    } else {
      m.pointer = rng.Pick(where);
      m.value = value;
      m.what = name;
    }
    out.push_back(std::move(m));
  }
  return out;
}

// The complete frame text of `message` with `id` (null: none), as the host would write it.
std::string FrameText(const protocol::Profile& profile, const Value& message, const Value* id) {
  rapidjson::Document d;
  d.CopyFrom(message, d.GetAllocator());
  if (id) d.AddMember("id", Value(*id, d.GetAllocator()), d.GetAllocator());
  return json::ToCompact(protocol::HostFrame(profile, std::move(d)));
}

// One of the framing's raw faults as a send_raw action; `text` is a frame's text. A claimed
// length is a send_raw `length:`, so it stays within a u32.
void FramingFault(const wire::RawFault& fault, const std::string& text, std::uint64_t max_payload,
                  Rng& rng, Action* a) {
  using B = wire::RawFault::Bytes;
  using C = wire::RawFault::Claim;
  a->what = fault.what;
  a->framed = fault.framed;
  switch (fault.bytes) {
    case B::kFrame:
      a->bytes = text + (fault.framed ? std::string() : fault.literal);
      break;
    case B::kEmptyObject:
      a->bytes = "{}";
      break;
    case B::kLiteral:
      a->bytes = fault.literal;
      break;
    case B::kOverLimit:
      a->bytes = "a";
      a->repeat = max_payload + 1;
      break;
  }
  const auto size = static_cast<std::uint32_t>(a->bytes.size());
  switch (fault.claim) {
    case C::kHonest:
      break;
    case C::kLonger:
      a->length = size + static_cast<std::uint32_t>(rng.Between(1, 64));
      break;
    case C::kShorter:
      a->length =
          size - static_cast<std::uint32_t>(rng.Between(1, std::min<std::int64_t>(size, 8)));
      break;
    case C::kOverLimit:
      a->length = static_cast<std::uint32_t>(std::min<std::uint64_t>(max_payload + 1, 0xffffffffu));
      break;
  }
}

// `t` (a frame's JSON object) with one more member, "fuzz": `value`.
std::string WithFuzzMember(const std::string& t, const std::string& value) {
  std::size_t at = t.rfind('}');
  return t.substr(0, at) + (t[at - 1] == '{' ? "" : ",") + "\"fuzz\":" + value + "}";
}

// An honest frame written in pieces: a request (owed) or the notification `text`.
void SplitFrame(const Catalog& c, const protocol::Profile& profile, const std::string& text,
                Rng& rng, bool allow_requests, std::int64_t* raw_id, Action* a) {
  bool request = allow_requests && !c.requests.empty() && rng.Chance(60);
  if (request) {
    const Catalog::Entry& r = rng.Pick(c.requests);
    const Json& m = rng.Pick(r.messages);
    Value id(static_cast<std::int64_t>((*raw_id)++));
    a->bytes = FrameText(profile, *m, &id);
    a->raw_request = true;
    a->message = m;
    a->def = r.def;
  } else {
    a->bytes = text;
  }
  a->chunk = static_cast<std::size_t>(
      rng.Between(1, std::max<std::int64_t>(1, static_cast<std::int64_t>(a->bytes.size()) / 2)));
  a->delay_ms = rng.Chance(70) ? 0 : static_cast<int>(rng.Between(1, 3));
  a->what = "frame split into " + std::to_string(a->chunk) + "-byte writes";
}

// Payload fault `pick` (0 to 7) of the frame `text`, the framing honest.
void PayloadFault(std::size_t pick, const Catalog& c, const protocol::Profile& profile,
                  const std::string& text, Rng& rng, bool allow_requests, std::int64_t* raw_id,
                  Action* a) {
  switch (pick) {
    case 0:
      a->bytes = text.substr(0, rng.Between(1, static_cast<std::int64_t>(text.size()) - 1));
      a->what = "invalid JSON";
      break;
    case 1: {
      static const std::vector<std::string> kNotObjects = {"[1,2,3]", "42",   "\"text\"",
                                                           "null",    "true", "[]"};
      a->bytes = rng.Pick(kNotObjects);
      a->what = "JSON that is not an object";
      break;
    }
    case 2:
      a->bytes = WithFuzzMember(text, "\"\xc3\x28\xff\xfe\"");
      a->what = "invalid UTF-8";
      break;
    case 3:
      a->bytes = WithFuzzMember(text, "\"\\ud800\"");
      a->what = "lone surrogate escape";
      break;
    case 4: {
      auto depth = static_cast<std::size_t>(rng.Between(60, 120));
      a->bytes = WithFuzzMember(text, std::string(depth, '[') + std::string(depth, ']'));
      a->what = "nesting " + std::to_string(depth) + " deep";
      break;
    }
    case 5:
    case 6:
      SplitFrame(c, profile, text, rng, allow_requests, raw_id, a);
      break;
    default:
      a->bytes = "";
      a->what = "empty frame";
      break;
  }
}

// Faults in the bytes: the framing honest but the payload not, or the framing itself broken.
// `terminal` faults leave the framing unknowable, so they end a session.
Action RawFault(const Catalog& c, const protocol::Profile& profile, Rng& rng, bool terminal,
                bool allow_requests, std::int64_t* raw_id) {
  Action a;
  a.kind = Action::Kind::kRaw;
  const Catalog::Entry& n =
      c.notifications.empty() ? rng.Pick(c.requests) : rng.Pick(c.notifications);
  const Json& msg = rng.Pick(n.messages);
  std::string text = FrameText(profile, *msg, nullptr);
  a.def = n.def;
  if (terminal) {
    a.terminal = true;
    FramingFault(rng.Pick(c.terminal_faults), text, c.max_payload, rng, &a);
    return a;
  }
  // Eight faults of the payload, then the framing's own that the stream survives.
  constexpr std::size_t kPayloadFaults = 8;
  const std::size_t pick = rng.Below(kPayloadFaults + c.resync_faults.size());
  if (pick >= kPayloadFaults) {
    FramingFault(c.resync_faults[pick - kPayloadFaults], text, c.max_payload, rng, &a);
    return a;
  }
  PayloadFault(pick, c, profile, text, rng, allow_requests, raw_id, &a);
  return a;
}

Action Message(const Catalog::Entry& e, Action::Kind kind, Rng& rng) {
  Action a;
  a.kind = kind;
  a.def = e.def;
  a.message = rng.Pick(e.messages);
  a.what = "example";
  if (rng.Chance(55)) {
    a.mutations = Mutate(*a.message, rng, "");
    a.what = a.mutations.front().what;
  }
  return a;
}

// An id the host would not send: null, boolean, fractional, string, negative, zero, huge, or the
// first id of the method's sequence again (the handshake's, long answered).
void OddId(Action* a, const protocol::Profile& profile, const std::string& method, Rng& rng) {
  static const std::vector<std::pair<std::string, std::string>> kIds = {
      {"id true", "true"}, {"id 1.5", "1.5"}, {"id \"7\"", "\"7\""},
      {"id -5", "-5"},     {"id 0", "0"},     {"id 2^53-1", "9007199254740991"},
      {"id {}", "{}"},     {"id []", "[]"},   {"id \"\"", "\"\""}};
  std::size_t pick = rng.Below(kIds.size() + 2);
  if (pick == kIds.size()) {
    a->id = Action::Id::kNull;
    a->what = "id null";
    return;
  }
  a->id = Action::Id::kExplicit;
  if (pick == kIds.size() + 1) {
    a->id_value = JsonFromText(std::to_string(profile.IdsFor(method).start));
    a->what = "reused id";
    return;
  }
  a->id_value = JsonFromText(kIds[pick].second);
  a->what = kIds[pick].first;
}

}  // namespace

const std::vector<std::pair<std::string, Json>>& BoundaryValues() {
  static const std::vector<std::pair<std::string, Json>> kValues = [] {
    std::vector<std::pair<std::string, Json>> v;
    auto add = [&](std::string name, const std::string& json) {
      v.emplace_back(std::move(name), JsonFromText(json));
    };
    v.emplace_back("empty string", Text(""));
    v.emplace_back("long string", Text(std::string(8192, 'x')));
    v.emplace_back("non-ASCII string", Text("h\xc3\xa9llo \xe2\x9c\x93 \xe6\x97\xa5\xe6\x9c\xac "
                                            "\xf0\x9f\x98\x80 \xd7\xa2\xd7\x91"));
    v.emplace_back("control characters", Text("a\x01\x1f"
                                              "b\r\n\t"));
    v.emplace_back("template-like text", Text("$${plugin.id}"));
    add("largest safe integer", "9007199254740991");
    add("negative largest safe integer", "-9007199254740991");
    add("int64 max", "9223372036854775807");
    add("negative", "-1");
    add("zero", "0");
    add("float", "1.5");
    add("huge float", "1e300");
    add("true", "true");
    add("false", "false");
    add("null", "null");
    add("empty object", "{}");
    add("empty array", "[]");
    add("nested arrays", std::string(40, '[') + std::string(40, ']'));
    std::string wide = "{";
    for (int i = 0; i < 300; ++i)
      wide += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i);
    add("object with 300 members", wide + "}");
    std::string longa = "[";
    for (int i = 0; i < 2000; ++i) longa += (i ? "," : "") + std::to_string(i);
    add("array of 2000 numbers", longa + "]");
    return v;
  }();
  return kValues;
}

namespace {

// A session whose handshake is mutated, followed by a few notifications or raw faults; no
// barrier, since the plugin may well never get past the handshake.
void BadHandshake(const Catalog& c, const protocol::Profile& profile, Rng& rng,
                  std::int64_t* raw_id, Plan* plan) {
  const Value* send = json::Find((*c.handshake)[0], "send");
  if (send) plan->handshake_mutations = Mutate(*send, rng, "/params");
  auto n = rng.Below(4);
  for (std::size_t i = 0; i < n; ++i) {
    if (!c.notifications.empty() && rng.Chance(50))
      plan->actions.push_back(Message(rng.Pick(c.notifications), Action::Kind::kNotify, rng));
    else
      plan->actions.push_back(RawFault(c, profile, rng, false, false, raw_id));
  }
  plan->barrier = false;
}

// A burst of valid requests, no waiting.
void Burst(const Catalog& c, Rng& rng, Plan* plan) {
  const Catalog::Entry& e = rng.Pick(c.requests);
  auto n = 3 + rng.Below(8);
  for (std::size_t k = 0; k < n; ++k) {
    Action a;
    a.kind = Action::Kind::kRequest;
    a.def = e.def;
    a.message = rng.Pick(e.messages);
    a.what = "burst";
    plan->actions.push_back(std::move(a));
  }
}

Action Pause(Rng& rng) {
  Action a;
  a.kind = Action::Kind::kSleep;
  a.sleep_ms = rng.Chance(80) ? static_cast<int>(rng.Between(0, 20))
                              : static_cast<int>(rng.Between(50, 200));
  a.what = "pause";
  return a;
}

// One step of a session's body, drawn by its share out of 100; returns true for a trigger.
bool AddBodyAction(const Catalog& c, const protocol::Profile& profile, Rng& rng,
                   std::int64_t* raw_id, Plan* plan) {
  int what = static_cast<int>(rng.Below(100));
  if (what < 35 && !c.requests.empty()) {
    Action a = Message(rng.Pick(c.requests), Action::Kind::kRequest, rng);
    if (rng.Chance(15)) {
      const Value* m = json::Find(*a.message, "method");
      OddId(&a, profile, m && m->IsString() ? m->GetString() : "", rng);
    }
    plan->actions.push_back(std::move(a));
  } else if (what < 50 && !c.notifications.empty()) {
    plan->actions.push_back(Message(rng.Pick(c.notifications), Action::Kind::kNotify, rng));
  } else if (what < 68) {
    plan->actions.push_back(RawFault(c, profile, rng, false, true, raw_id));
  } else if (what < 76 && !c.requests.empty()) {
    Burst(c, rng, plan);
  } else if (what < 86) {
    plan->actions.push_back(Pause(rng));
  } else if (what < 93 && !c.triggers.empty()) {
    Action a;
    a.kind = Action::Kind::kTrigger;
    a.trigger = rng.Pick(c.triggers);
    a.what = "trigger " + a.trigger;
    plan->actions.push_back(std::move(a));
    return true;
  } else {
    Action a;
    a.kind = Action::Kind::kSync;
    a.what = "sync";
    plan->actions.push_back(std::move(a));
  }
  return false;
}

}  // namespace

// The shape of a whole session: handshake, body, ending.
Plan Generate(const Catalog& c, const protocol::Profile& profile, std::uint64_t seed) {
  Rng rng(seed);
  Plan plan;
  plan.handshake = c.handshake;
  int shape = static_cast<int>(rng.Below(100));
  bool bad_handshake = shape < 12;
  bool terminal = !c.terminal_faults.empty() && shape >= 12 && shape < 24;
  std::int64_t raw_id = 1000000;  // raw requests' ids: far from the host's own sequence
  if (bad_handshake) {
    BadHandshake(c, profile, rng, &raw_id, &plan);
    return plan;
  }
  auto count = 1 + rng.Below(4) + (rng.Chance(40) ? rng.Below(10) : 0);
  bool triggered = false;
  for (std::size_t i = 0; i < count; ++i)
    triggered |= AddBodyAction(c, profile, rng, &raw_id, &plan);
  if (terminal) plan.actions.push_back(RawFault(c, profile, rng, true, false, &raw_id));
  if (triggered && rng.Chance(50)) {
    // The plugin's own calls answered otherwise: an error or another valid answer. Never
    // answering them ("hold") is left out: the trigger's own answer is then not owed, may come
    // at any time, and after the shutdown notification the engine rightly counts it against the
    // plugin, although the session, not the plugin, raced it.
    if (!c.reply_bodies.empty()) {
      const Catalog::Reply& reply = rng.Pick(c.reply_bodies);
      plan.host_reply = reply.body;
      plan.host_reply_method = reply.method;
    }
  }
  return plan;
}

}  // namespace fakehost::fuzz
