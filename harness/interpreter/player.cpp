// The step loop, variables, matching, and how a miss is recorded (see player.hpp).
#include "harness/interpreter/player.hpp"

#include "harness/json/json.hpp"
#include "harness/scenario/template.hpp"

namespace fakehost::interpreter {

std::string MsText(Ms ms) { return std::to_string(ms.count()) + " ms"; }
std::string MsText(double ms) { return std::to_string(static_cast<long long>(ms + 0.5)) + " ms"; }

std::string Join(const std::vector<Mismatch>& mismatches) {
  std::string out;
  for (const auto& m : mismatches) out += (out.empty() ? "" : "; ") + m.ToString();
  return out;
}

bool IsEmptyValue(const rapidjson::Value& v) {
  return v.IsNull() || (v.IsBool() && !v.GetBool()) || (v.IsArray() && v.Empty()) ||
         (v.IsString() && v.GetStringLength() == 0);
}

bool Player::Miss(const Step& step, session::Reason reason, std::string message,
                  std::string expected, std::string actual, std::optional<std::size_t> frame) {
  Failure f;
  f.reason = reason;
  f.level = StepLevel(step);
  f.check = "step";
  f.step = step_number_;
  f.step_kind = step.kind;
  f.loc = step.loc;
  f.message = std::move(message);
  if (!step.note.empty()) f.message += " (" + NoteText(step.note) + ")";
  if (!step.why.empty()) f.message += " (this window: " + step.why + ")";
  f.expected = std::move(expected);
  f.actual = std::move(actual);
  f.frame = frame;
  // A miss before the fake host made up any answer cannot be that answer's fault.
  if (session_.host().stand_ins().empty()) outcome_.MissBeforeStandIn(result_.failures.size());
  result_.failures.push_back(std::move(f));
  return result_.failures.back().level != Level::kMust;
}

std::string Player::NoteText(const std::string& note) const {
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

bool Player::ScenarioBug(const Step& step, std::string message) {
  Miss(step, session::Reason::kHarnessFault, "scenario error: " + std::move(message));
  result_.failures.back().harness_error = true;
  return false;
}

bool Player::Instantiate(const JsonPtr& templ, rapidjson::Document* out, const Step& step) {
  if (!templ) {
    out->SetNull();
    return true;
  }
  std::string error;
  if (!scenario::Substitute(
          *templ, [this](std::string_view p) { return Lookup(p); }, out->GetAllocator(), out,
          &error))
    return ScenarioBug(step, error);
  return true;
}

bool Player::InstantiatePatterns(const Filter& filter, Patterns* p, const Step& step) {
  p->has_result = filter.result != nullptr;
  p->has_error = filter.error != nullptr;
  p->has_params = filter.params != nullptr;
  p->has_message = filter.message != nullptr;
  return Instantiate(filter.result, &p->result, step) &&
         Instantiate(filter.error, &p->error, step) &&
         Instantiate(filter.params, &p->params, step) &&
         Instantiate(filter.message, &p->message, step);
}

Fit Player::Check(const Filter& filter, const Patterns& p, const Inbound& in,
                  std::vector<Mismatch>* why, std::vector<std::string>* untested) const {
  switch (filter.kind) {
    case Filter::Kind::kReplyTo: {
      if (in.kind != MessageKind::kResponse) return Fit::kNo;
      const Named* named = bindings_.FindNamed(filter.name);
      const rapidjson::Value* id = json::Find(*in.doc, "id");
      if (!named || !id || !json::StrictEqual(*id, named->id)) return Fit::kNo;
      break;
    }
    case Filter::Kind::kResponse:
      // An answer to nothing the host is owed (a line that is no message, a request with an id
      // the protocol does not accept) is noted, never taken or judged as a response.
      if (in.kind != MessageKind::kResponse || in.answers_unreadable || in.echoes_noise)
        return Fit::kNo;
      break;
    case Filter::Kind::kRequest:
      if (in.kind != MessageKind::kRequest || (in.method != filter.name && filter.name != "*"))
        return Fit::kNo;
      break;
    case Filter::Kind::kNotification:
      if (in.kind != MessageKind::kNotification || in.method != filter.name) return Fit::kNo;
      break;
    case Filter::Kind::kAny:
      break;
  }
  bool ok = true;
  const rapidjson::Value& doc = *in.doc;
  scenario::MatchDeadline bounded(hard_deadline_);  // no frame's match outlasts the scenario
  if (p.has_result)
    ok &= scenario::Match(p.result, json::Find(doc, "result"), why, "/result", untested);
  if (p.has_error)
    ok &= scenario::Match(p.error, json::Find(doc, "error"), why, "/error", untested);
  if (p.has_params)
    ok &= scenario::Match(p.params, json::Find(doc, "params"), why, "/params", untested);
  if (p.has_message) ok &= scenario::Match(p.message, &doc, why, "", untested);
  return ok ? Fit::kYes : Fit::kWrongContent;
}

std::string Player::Describe(const Filter& filter) const {
  switch (filter.kind) {
    case Filter::Kind::kReplyTo: {
      const Named* named = bindings_.FindNamed(filter.name);
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

std::string Player::Summarise(const Inbound& in) const {
  const session::TranscriptEntry* e = session_.Entry(in.frame);
  if (!e)  // tallied without an entry: the document still says what it was
    return "#" + std::to_string(in.frame) + " " + protocol::MessageKindName(in.kind) +
           (in.method.empty() ? "" : " " + json::Abbreviate(in.method)) + ": " +
           json::Abbreviate(json::ToCompact(*in.doc), 300);
  std::string s = "#" + std::to_string(in.frame) + " " + session::EntryKindName(e->kind);
  if (!e->method.empty()) s += " " + e->method;
  if (!e->id.empty()) s += " id " + e->id;
  return s + ": " + json::Abbreviate(e->text, 300);
}

bool Player::DoForEach(const Step& step, const ForEach& each) {
  const bool returned = !each.items_var.empty();  // a list the plugin returned, not the manifest's
  const rapidjson::Value* found = returned           ? Lookup(each.items_var)
                                  : plugin_.manifest ? json::Resolve(*plugin_.manifest, each.items)
                                                     : nullptr;
  rapidjson::Document where;
  if (!Instantiate(each.where, &where, step)) return false;
  if (returned && (!found || !found->IsArray())) {
    Checked(step);
    return Miss(step, session::Reason::kWrongContent,
                "for_each: the captured frame has no list at ${" + each.items_var + "}", "a list",
                found ? json::Abbreviate(json::ToCompact(*found), 300) : "nothing");
  }
  // A copy: the steps may capture again, and the list must stay as it was when the loop began.
  rapidjson::Document list(rapidjson::kArrayType);
  if (found && found->IsArray()) list.CopyFrom(*found, list.GetAllocator());
  const rapidjson::Value* items = &list;
  std::size_t matched = 0;
  for (const auto& declared : items->GetArray()) {
    // The item as the host reads it: what the manifest leaves out takes its default.
    rapidjson::Document item;
    item.CopyFrom(declared, item.GetAllocator());
    if (each.defaults && item.IsObject())
      for (const auto& d : each.defaults->GetObject())
        if (!json::Find(item, std::string_view(d.name.GetString(), d.name.GetStringLength())))
          item.AddMember(rapidjson::Value(d.name, item.GetAllocator()),
                         rapidjson::Value(d.value, item.GetAllocator()), item.GetAllocator());
    if (each.where && !scenario::Match(where, &item, nullptr)) continue;
    ++matched;
    // How many items there are is the plugin's, not the scenario's: each one gets the whole
    // hard limit again, so a plugin with many commands, each inside its deadline, is not cut
    // short by their number; but never past the profile's ceiling for a whole scenario, so
    // that no number of items keeps one running without end.
    hard_deadline_ = std::min(std::max(hard_deadline_, Clock::now() + hard_limit_), hard_ceiling_);
    bindings_.SetItem(&item);
    bool go_on = RunSteps(each.steps);
    bindings_.SetItem(nullptr);
    if (!go_on) return false;
  }
  if (matched == 0) {
    // Remembered, and the steps go on: if nothing else checks the plugin, this is why the
    // scenario does not apply to it.
    outcome_.NotApplicable((returned ? "the plugin returned no item in ${" + each.items_var + "}"
                                     : "the manifest declares no item at " + each.items) +
                           (each.where ? " matching " + json::ToCompact(where) : std::string()) +
                           ", so there is nothing for this scenario to check");
  }
  return true;
}

bool Player::RunStep(const Step& step) {
  return std::visit(
      [&](const auto& body) -> bool {
        using T = std::decay_t<decltype(body)>;
        if constexpr (std::is_same_v<T, Send>)
          return DoSend(step, body);
        else if constexpr (std::is_same_v<T, SendRaw>)
          return DoSendRaw(step, body);
        else if constexpr (std::is_same_v<T, Expect>)
          return DoExpect(step, body);
        else if constexpr (std::is_same_v<T, ExpectNone>)
          return DoExpectNone(step, body);
        else if constexpr (std::is_same_v<T, Answer>)
          return DoAnswer(step, body);
        else if constexpr (std::is_same_v<T, CloseStdin>) {
          session_.CloseStdin();
          return true;
        } else if constexpr (std::is_same_v<T, KillParent>) {
          stand_in_.Kill();
          return true;
        } else if constexpr (std::is_same_v<T, Signal>) {
          session_.SignalGroup(body.signal);
          return true;
        } else if constexpr (std::is_same_v<T, Sleep>) {
          session_.RunUntil([&] { return Interrupted(); }, Deadline(Clock::now() + body.duration));
          return true;
        } else if constexpr (std::is_same_v<T, ExpectExit>)
          return DoExpectExit(step, body);
        else if constexpr (std::is_same_v<T, Shutdown>)
          return DoShutdown(step, body);
        else
          return DoForEach(step, body);
      },
      step.body);
}

bool Player::RunSteps(const std::vector<Step>& steps) {
  for (const Step& step : steps) {
    if (Interrupted()) return false;
    if (!SettleRevision() || !SettleAnnouncements()) return false;
    if (!deferred_missing_.empty() && SendsMissingTrigger(step)) {
      // Reached before the announcements were read (a scenario that sends the trigger before
      // the handshake): untested, as if the trigger had been missed before the spawn.
      outcome_.EndEarly(Status::kUntested, deferred_missing_);
      return false;
    }
    if (Clock::now() >= hard_deadline_) {
      Miss(step, session::Reason::kHardLimit, HardLimitText() + " before this step could run");
      result_.failures.back().level = Level::kMust;
      // Before its first step the plugin was asked nothing: the time went to this machine,
      // not to the plugin, so that is the harness's trouble, never the plugin's failure.
      if (step_number_ == 0) {
        result_.failures.back().harness_error = true;
        result_.failures.back().message += " (no step had run: the machine was too busy)";
      }
      return false;
    }
    if (SkipsForNoneTrigger(step)) continue;
    ++step_number_;
    if (!RunStep(step)) return false;
  }
  return true;
}

}  // namespace fakehost::interpreter
