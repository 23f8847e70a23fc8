// The loader's step readers: one step key per list item, siblings checked per kind.
#include <algorithm>

#include "harness/scenario/reader.hpp"
#include "harness/scenario/step_kinds.hpp"
#include "harness/scenario/yaml_json.hpp"

namespace fakehost::scenario::internal {
namespace {

bool IsAnySibling(std::string_view key) {
  for (const StepKindInfo& info : StepKinds()) {
    if (std::find(info.siblings.begin(), info.siblings.end(), key) != info.siblings.end()) {
      return true;
    }
  }
  return false;
}

std::string KindList() {
  std::string out;
  for (const StepKindInfo& info : StepKinds()) {
    if (!out.empty()) out += ", ";
    out += info.key;
  }
  return out;
}

std::string Join(const std::vector<std::string_view>& items) {
  std::string out;
  for (std::string_view item : items) {
    if (!out.empty()) out += ", ";
    out += item;
  }
  return out;
}

}  // namespace

void Reader::Steps(const YamlNode& list, Scope* scope, std::vector<Step>* out) {
  if (!list.IsSequence()) {
    Error(list.Mark(), "steps must be a list (each item '- KIND: ...')");
    return;
  }
  if (depth_ >= kMaxYamlDepth) {
    Error(list.Mark(), "steps nested too deeply (a recursive alias or fragment?)");
    return;
  }
  ++depth_;
  for (const YamlNode& item : list) ReadStep(item, scope, out);
  --depth_;
}

void Reader::ReadStep(const YamlNode& node, Scope* scope, std::vector<Step>* out) {
  if (!node.IsMap()) {
    Error(node.Mark(), "a step must be a map with one step key, e.g. '- send: {...}'" +
                           (node.IsScalar() ? " or '- " + node.Scalar() + ": {}'" : std::string()));
    return;
  }
  const std::vector<Entry> entries = Entries(node);
  const Entry* body = StepBody(node, entries);
  if (body == nullptr) return;
  Step step;
  step.kind = body->key;
  step.loc = Loc(node.Mark());
  step.level = default_level_;
  std::vector<Entry> siblings;
  const bool ok = ReadStepSiblings(*body, entries, &step, &siblings);
  if (step.kind == "use") {
    AppendFragmentSteps(*body, Find(entries, "level") != nullptr, step, scope, out);
    return;
  }
  if (ReadBody(*FindStepKind(body->key), {*body, siblings, scope}, &step) && ok)
    out->push_back(std::move(step));
}

const Entry* Reader::StepBody(const YamlNode& node, const std::vector<Entry>& entries) {
  const Entry* body = nullptr;
  for (const Entry& entry : entries) {
    if (FindStepKind(entry.key) == nullptr) continue;
    if (body != nullptr) {
      Error(entry.key_node.Mark(),
            "one step per list item: '" + body->key + "' and '" + entry.key + "' are both here");
      return nullptr;
    }
    body = &entry;
  }
  if (body != nullptr) return body;
  for (const Entry& entry : entries) {
    if (!IsAnySibling(entry.key)) {
      Error(entry.key_node.Mark(),
            "unknown step kind '" + entry.key + "' (known: " + KindList() + ")");
      return nullptr;
    }
  }
  Error(node.Mark(), "this step has no step key (one of: " + KindList() + ")");
  return nullptr;
}

bool Reader::ReadStepSiblings(const Entry& body, const std::vector<Entry>& entries, Step* step,
                              std::vector<Entry>* siblings) {
  const StepKindInfo& info = *FindStepKind(body.key);
  bool ok = true;
  for (const Entry& entry : entries) {
    if (&entry == &body) continue;
    if (std::find(info.siblings.begin(), info.siblings.end(), entry.key) == info.siblings.end()) {
      Error(entry.key_node.Mark(), (IsAnySibling(entry.key) ? "'" : "unknown key '") + entry.key +
                                       "' is not allowed on a " + body.key +
                                       " step (allowed: " + Join(info.siblings) + ")");
      ok = false;
    } else if (entry.key == "level") {
      ok = LevelOf(entry.value, &step->level) && ok;
      step->level_given = true;
    } else if (entry.key == "note") {
      ok = String(entry.value, "note", &step->note) && ok;
    } else if (entry.key == "why") {
      ok = String(entry.value, "why", &step->why) && ok;
      if (ok && step->why.empty()) {
        Error(entry.value.Mark(), "why must say why, quoting the protocol text");
        ok = false;
      }
    } else {
      siblings->push_back(entry);
    }
  }
  return ok;
}

void Reader::AppendFragmentSteps(const Entry& body, bool level_given, const Step& use, Scope* scope,
                                 std::vector<Step>* out) {
  std::vector<Step> expanded;
  ExpandUse(body, scope, &expanded);
  for (Step& s : expanded) {
    s.from_fragment = true;
    if (level_given) {
      s.level = use.level;
      s.level_given = true;
    }
    if (s.note.empty()) s.note = use.note;
    out->push_back(std::move(s));
  }
}

namespace {

// The empty body of alternative `index` (I... are all of StepBody's).
template <std::size_t... I>
StepBody EmptyBody(std::size_t index, std::index_sequence<I...>) {
  static constexpr StepBody (*kMake[])() = {[] { return StepBody(std::in_place_index<I>); }...};
  return kMake[index]();
}

}  // namespace

bool Reader::ReadBody(const StepKindInfo& kind, const BodyInput& in, Step* step) {
  if (kind.body >= std::variant_size_v<scenario::StepBody>) {  // `use`, expanded by its caller
    Error(in.body.key_node.Mark(), "step kind '" + in.body.key + "' is not handled here");
    return false;
  }
  step->body =
      EmptyBody(kind.body, std::make_index_sequence<std::variant_size_v<scenario::StepBody>>());
  return std::visit([&](auto& body) { return Read(in, &body); }, step->body);
}

// A body that takes nothing: `close_stdin: {}` (or no value at all).
bool Reader::Nothing(const Entry& body) {
  if (body.value.IsNull() || (body.value.IsMap() && body.value.size() == 0)) return true;
  Error(body.value.Mark(), body.key + " takes nothing (write '" + body.key + ": {}')");
  return false;
}

bool Reader::Read(const BodyInput& in, CloseStdin*) { return Nothing(in.body); }
bool Reader::Read(const BodyInput& in, KillParent*) { return Nothing(in.body); }

bool Reader::Read(const BodyInput& in, Signal* out) {
  return SignalOf(in.body.value, &out->signal, &out->name);
}

bool Reader::Read(const BodyInput& in, Sleep* out) {
  return Duration(in.body.value, "sleep", &out->duration);
}

bool Reader::Read(const BodyInput& in, Send* out) {
  const Entry& body = in.body;
  Send& send = *out;
  bool ok = true;
  // The name is defined even if the body is bad, so later reply_to steps do not also fail.
  if (const Entry* as = Find(in.siblings, "as"))
    ok = Identifier(as->value, "as", &send.as) &&
         DefineName(send.as, as->value.Mark(), true, in.scope);
  ok = ReadSend(body, in.siblings, body.key == "notify", &send) && ok;
  if (ok && !send.retry.empty())
    if (auto it = in.scope->find(send.retry); it == in.scope->end() || it->second.is_send) {
      Error(body.value.Mark(), "retry '" + send.retry + "' names no earlier expect with 'as: " +
                                   send.retry + "' (the answer that asked for input)");
      ok = false;
    }
  return ok;
}

bool Reader::Read(const BodyInput& in, SendRaw* out) {
  SendRaw& raw = *out;
  bool ok = true;
  if (const Entry* as = Find(in.siblings, "as")) {
    // One name, or a list: one per message the bytes carry.
    std::vector<YamlNode> names;
    if (as->value.IsSequence())
      for (const YamlNode node : as->value) names.push_back(node);
    else
      names.push_back(as->value);
    if (names.empty()) {
      Error(as->value.Mark(), "as takes a name, or a list of names (one per message)");
      ok = false;
    }
    for (const YamlNode& node : names) {
      std::string name;
      ok = Identifier(node, "as", &name) && DefineName(name, node.Mark(), true, in.scope) && ok;
      raw.as.push_back(std::move(name));
    }
  }
  return ReadSendRaw(in.body, &raw) && ok;
}

bool Reader::Read(const BodyInput& in, Expect* out) {
  if (!ReadExpect(in.body, in.siblings, *in.scope, out)) return false;
  return out->as.empty() ||
         DefineName(out->as, Find(in.siblings, "as")->value.Mark(), false, in.scope);
}

bool Reader::Read(const BodyInput& in, Answer* out) {
  const Entry& body = in.body;
  const Scope& scope = *in.scope;
  if (!body.value.IsMap()) {
    Error(body.value.Mark(),
          "answer takes a map: {to: NAME, result: ...} or {to: NAME, error: ...}");
    return false;
  }
  const std::vector<Entry> entries = Entries(body.value);
  const Entry* to = Find(entries, "to");
  if (to == nullptr) {
    Error(body.key_node.Mark(), "answer needs to: (the name an expect captured a request under)");
    return false;
  }
  if (!Identifier(to->value, "to", &out->to)) return false;
  if (auto it = scope.find(out->to); it == scope.end() || it->second.is_send) {
    Error(to->value.Mark(),
          "answer to '" + out->to + "' names no earlier expect with 'as: " + out->to + "'");
    return false;
  }
  auto reply = std::make_shared<rapidjson::Document>();
  reply->SetObject();
  bool ok = true;
  for (const Entry& e : entries) {
    if (&e == to) continue;
    JsonPtr value = Json(e.value);
    if (value == nullptr) {
      ok = false;
      continue;
    }
    auto& a = reply->GetAllocator();
    reply->AddMember(rapidjson::Value(e.key.c_str(), a), rapidjson::Value(*value, a), a);
  }
  if (reply->ObjectEmpty()) {
    Error(body.key_node.Mark(), "answer needs the reply's members beside to: (result: or error:)");
    return false;
  }
  out->reply = reply;
  return ok;
}

bool Reader::DefineName(const std::string& name, const YamlMark& mark, bool is_send, Scope* scope) {
  auto it = scope->find(name);
  if (it != scope->end()) {
    Error(mark, "the name '" + name + "' is already used at " + it->second.loc.ToString());
    return false;
  }
  (*scope)[name] = Name{Loc(mark), is_send};
  all_names_.emplace_back(name, Loc(mark));
  return true;
}

void Reader::ResolvePendingReplyTo() {
  for (const PendingReplyTo& pending : pending_) {
    std::string message = "reply_to '" + pending.name + "' names no earlier send";
    const auto later = std::find_if(all_names_.begin(), all_names_.end(),
                                    [&](const auto& def) { return def.first == pending.name; });
    if (later != all_names_.end()) {
      message += "; '" + pending.name + "' is defined at " + later->second.ToString() +
                 ", which is later or in another step list";
    } else {
      message += " (give the send 'as: " + pending.name + "')";
    }
    errors_->push_back({pending.loc, message + pending.suffix});
  }
  pending_.clear();
}

}  // namespace fakehost::scenario::internal
