// A step's services over its context: the miss it records, its templates filled in, how a frame
// fits its filter (see step_context.hpp).

#include "harness/interpreter/step_context.hpp"

#include "harness/interpreter/bindings.hpp"
#include "harness/interpreter/outcome.hpp"
#include "harness/json/json.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/scenario/template.hpp"
#include "harness/session/session.hpp"

namespace fakehost::interpreter {

std::string MsText(Ms ms) { return std::to_string(ms.count()) + " ms"; }

std::string MsText(double ms) { return std::to_string(static_cast<long long>(ms + 0.5)) + " ms"; }

std::string Join(const std::vector<Mismatch>& mismatches) {
  std::string out;
  for (const auto& m : mismatches) out += (out.empty() ? "" : "; ") + m.ToString();
  return out;
}

bool StepContext::Miss(result::Reason reason, std::string message, std::string expected,
                       std::string actual, std::optional<std::size_t> frame) {
  Failure f;
  f.reason = reason;
  f.level = StepLevel();
  f.check = "step";
  f.step = number;
  f.step_kind = step.kind;
  f.loc = step.loc;
  f.message = std::move(message);
  if (!step.note.empty()) f.message += " (" + NoteText(step.note) + ")";
  if (!step.why.empty()) f.message += " (this window: " + step.why + ")";
  f.expected = std::move(expected);
  f.actual = std::move(actual);
  f.frame = frame;
  // A miss before the fake host made up any answer cannot be that answer's fault.
  if (session.host().stand_ins().empty()) outcome.MissBeforeStandIn(result.failures.size());
  result.failures.push_back(std::move(f));
  return result.failures.back().level != Level::kMust;
}

std::string StepContext::NoteText(const std::string& note) const {
  if (!scenario::HasVariables(note)) return note;
  rapidjson::Document in, out;
  in.SetString(note.c_str(), static_cast<rapidjson::SizeType>(note.size()), in.GetAllocator());
  std::string error;
  if (!scenario::Substitute(
          in, [this](std::string_view p) { return Lookup(p); }, out.GetAllocator(), &out, &error))
    return note;
  return out.IsString() ? std::string(out.GetString(), out.GetStringLength())
                        : json::ToCompact(out);
}

bool StepContext::ScenarioBug(std::string message) {
  Miss(result::Reason::kHarnessFault, "scenario error: " + std::move(message));
  result.failures.back().harness_error = true;
  return false;
}

bool StepContext::Instantiate(const JsonPtr& templ, rapidjson::Document* out) {
  if (!templ) {
    out->SetNull();
    return true;
  }
  std::string error;
  if (!scenario::Substitute(
          *templ, [this](std::string_view p) { return Lookup(p); }, out->GetAllocator(), out,
          &error))
    return ScenarioBug(error);
  return true;
}

bool StepContext::InstantiatePatterns(const Filter& filter, Patterns* p) {
  p->has_result = filter.result != nullptr;
  p->has_error = filter.error != nullptr;
  p->has_params = filter.params != nullptr;
  p->has_message = filter.message != nullptr;
  return Instantiate(filter.result, &p->result) && Instantiate(filter.error, &p->error) &&
         Instantiate(filter.params, &p->params) && Instantiate(filter.message, &p->message);
}

bool StepContext::AddRevisionMembers(rapidjson::Document* msg) {
  const protocol::Revisions* revisions = profile.revisions();
  const protocol::Revision* in_play = revisions ? revisions->Find(revision) : nullptr;
  if (!in_play || !msg->IsObject() || !json::Find(*msg, "id")) return true;  // requests only
  auto& a = msg->GetAllocator();
  for (const auto& [pointer, members] : in_play->request_members) {
    // Walk to the object at the pointer, making the objects on the way that are missing.
    rapidjson::Value* at = msg;
    for (std::size_t from = 1; at && from <= pointer.size();) {
      std::size_t to = pointer.find('/', from);
      if (to == std::string::npos) to = pointer.size();
      const std::string name = pointer.substr(from, to - from);
      if (!at->IsObject()) {
        at = nullptr;
        break;
      }
      if (!json::Find(*at, name))
        at->AddMember(rapidjson::Value(name.c_str(), a), rapidjson::Value(rapidjson::kObjectType),
                      a);
      at = const_cast<rapidjson::Value*>(json::Find(*at, name));
      from = to + 1;
    }
    if (!at || !at->IsObject()) continue;  // the step wrote something else there: its choice
    auto templ = std::make_shared<rapidjson::Document>();
    templ->CopyFrom(*members, templ->GetAllocator());
    rapidjson::Document filled;
    if (!Instantiate(templ, &filled)) return false;
    // Member by member, what the request has wins whole: clientCapabilities {} declares none,
    // not the engine's capabilities merged into it.
    for (auto& member : filled.GetObject())
      if (!json::Find(*at, json::View(member.name)))
        at->AddMember(rapidjson::Value(member.name, a), rapidjson::Value(member.value, a), a);
  }
  return true;
}

Level StepContext::StepLevel() const {
  if (step.level_given || scenario.cites.empty()) return step.level;
  const Cite* cite = scenario.CiteFor(revision);
  return cite ? cite->level : scenario.level;
}

Fit StepContext::Check(const Filter& filter, const Patterns& p, const Inbound& message,
                       std::vector<Mismatch>* why, std::vector<std::string>* untested) const {
  switch (filter.kind) {
    case Filter::Kind::kReplyTo: {
      if (message.kind != MessageKind::kResponse) return Fit::kNo;
      const Named* named = bindings.FindNamed(filter.name);
      const rapidjson::Value* id = json::Find(*message.doc, "id");
      if (!named || !id || !json::StrictEqual(*id, named->id)) return Fit::kNo;
      break;
    }
    case Filter::Kind::kResponse:
      // An answer to nothing the host is owed (a line that is no message, a request with an id
      // the protocol does not accept) is noted, never taken or judged as a response.
      if (message.kind != MessageKind::kResponse || message.answers_unreadable ||
          message.echoes_noise)
        return Fit::kNo;
      break;
    case Filter::Kind::kRequest:
      if (message.kind != MessageKind::kRequest ||
          (message.method != filter.name && filter.name != "*"))
        return Fit::kNo;
      break;
    case Filter::Kind::kNotification:
      if (message.kind != MessageKind::kNotification || message.method != filter.name)
        return Fit::kNo;
      break;
    case Filter::Kind::kAny:
      break;
  }
  bool ok = true;
  const rapidjson::Value& doc = *message.doc;
  scenario::MatchDeadline bounded(limit.deadline);  // no frame's match outlasts the scenario
  if (p.has_result)
    ok &= scenario::Match(p.result, json::Find(doc, "result"), why, "/result", untested);
  if (p.has_error)
    ok &= scenario::Match(p.error, json::Find(doc, "error"), why, "/error", untested);
  if (p.has_params)
    ok &= scenario::Match(p.params, json::Find(doc, "params"), why, "/params", untested);
  if (p.has_message) ok &= scenario::Match(p.message, &doc, why, "", untested);
  return ok ? Fit::kYes : Fit::kWrongContent;
}

std::string StepContext::Describe(const Filter& filter) const {
  switch (filter.kind) {
    case Filter::Kind::kReplyTo: {
      const Named* named = bindings.FindNamed(filter.name);
      if (!named) return "a reply to " + filter.name;
      return "a reply to " + filter.name + " (" + json::Abbreviate(named->method) + ", id " +
             json::Abbreviate(json::ToCompact(named->id)) + ", frame #" +
             std::to_string(named->frame) + ")";
    }
    case Filter::Kind::kResponse:
      return "a response";
    case Filter::Kind::kRequest:
      return filter.name == "*" ? "a request from the plugin"
                                : "a " + filter.name + " request from the plugin";
    case Filter::Kind::kNotification:
      return "a " + filter.name + " notification";
    case Filter::Kind::kAny:
      break;
  }
  return "a frame";
}

std::string StepContext::Summarise(const Inbound& message) const {
  const result::TranscriptEntry* e = session.Entry(message.frame);
  if (!e)  // tallied without an entry: the document still says what it was
    return "#" + std::to_string(message.frame) + " " + protocol::MessageKindName(message.kind) +
           (message.method.empty() ? "" : " " + json::Abbreviate(message.method)) + ": " +
           json::Abbreviate(json::ToCompact(*message.doc), 300);
  std::string s = "#" + std::to_string(message.frame) + " " + result::EntryKindName(e->kind);
  if (!e->method.empty()) s += " " + e->method;
  if (!e->id.empty()) s += " id " + e->id;
  return s + ": " + json::Abbreviate(e->text, 300);
}

std::string WildcardUnused(const PluginTarget& plugin) {
  return "the plugin's host calls were all ones the host answers by itself (such as a log), "
         "so the answer this scenario scripts was never exercised: give a trigger in " +
         (plugin.config_file.empty() ? std::string("fakehost.yaml") : plugin.config_file) +
         " that calls another host method";
}

}  // namespace fakehost::interpreter
