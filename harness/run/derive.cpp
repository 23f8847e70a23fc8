// Over 500 lines, on purpose: the two sessions (the lists, then the calls) fill one record per
// tool, and every trigger is made from those records; split, each half would need the other's
// private Tool record and settings. The session plumbing it shares with the revision probe is in
// look.cpp.
#include "harness/run/derive.hpp"

#include <algorithm>
#include <map>
#include <memory>

#include "harness/json/json.hpp"
#include "harness/run/look.hpp"
#include "harness/run/runner.hpp"
#include "harness/schema/instance.hpp"

namespace fakehost::run {
namespace {

using Doc = rapidjson::Document;

// The trigger names this file makes, with the request each asks the plugin for.
constexpr int kToolPages = 8;  // tools/list pages read at most

// The triggers made only from what a call was seen to do.
const std::set<std::string> kObserved = {"echo",       "slow",          "progress",        "logs",
                                         "asks_roots", "asks_sampling", "asks_elicitation"};

constexpr const char* kRequestAsked[][2] = {
    {"asks_roots", "roots/list"},
    {"asks_sampling", "sampling/createMessage"},
    {"asks_elicitation", "elicitation/create"},
};

struct Settings {
  long long within_ms = 5000;
  std::size_t max_calls = 8;
  std::string marker;
  std::vector<std::string> announced_name;
};

// A tool of the plugin's tools/list, and what its call showed.
struct Tool {
  std::string name;
  const rapidjson::Value* input = nullptr;  // its inputSchema (into the list's document)
  bool output_schema = false;
  bool may_call = false;  // readOnlyHint: true, or the user's fakehost.yaml lists it
  std::string why_not;    // why it was not called
  std::shared_ptr<Doc> arguments;
  // The call, once played:
  bool answered = false, ok = false, structured = false, echoed = false;
  double ms = 0;
  int progress = 0;
  double progress_gap_ms = 0;
  bool logged = false;
  std::set<std::string> asked;  // the requests the plugin asked the host for during the call
};

using look::AnswerTo;
using look::Parsed;
using look::YamlOf;

// `send` + a wait for its answer, judged by nothing.
std::string Ask(const std::string& request, const std::string& as, long long within_ms) {
  return look::Ask(request, as, within_ms, "fakehost only looks (run::DeriveTriggers)");
}

std::string Text(const rapidjson::Value* v) {
  return v && v->IsString() ? std::string(json::View(*v)) : std::string();
}

// Replaces every string equal to `from` in `v` by `to`.
void ReplaceStrings(rapidjson::Value* v, const std::string& from, const std::string& to,
                    Doc::AllocatorType& a) {
  if (v->IsString() && json::View(*v) == from) v->SetString(to.c_str(), a);
  if (v->IsObject())
    for (auto& m : v->GetObject()) ReplaceStrings(&m.value, from, to, a);
  if (v->IsArray())
    for (auto& e : v->GetArray()) ReplaceStrings(&e, from, to, a);
}

scenario::JsonPtr Request(const std::string& method, const rapidjson::Value* params) {
  auto d = std::make_shared<Doc>();
  d->SetObject();
  auto& a = d->GetAllocator();
  d->AddMember("method", rapidjson::Value(method.c_str(), a), a);
  if (params) d->AddMember("params", rapidjson::Value(*params, a), a);
  return d;
}

scenario::JsonPtr CallRequest(const Tool& t, const rapidjson::Value& arguments,
                              bool progress = false) {
  Doc params(rapidjson::kObjectType);
  auto& a = params.GetAllocator();
  params.AddMember("name", rapidjson::Value(t.name.c_str(), a), a);
  params.AddMember("arguments", rapidjson::Value(arguments, a), a);
  if (progress) {
    rapidjson::Value meta(rapidjson::kObjectType);
    meta.AddMember("progressToken", "${progress_token}", a);
    params.AddMember("_meta", meta, a);
  }
  return Request("tools/call", &params);
}

class Deriver {
 public:
  Deriver(const protocol::Profile& profile, const schema::FrameSchema* schema,
          const interpreter::PlayOptions& options, const std::vector<std::string>& fragment_dirs,
          interpreter::PluginTarget* target)
      : profile_(profile), schema_(schema), fragment_dirs_(fragment_dirs), target_(*target) {
    play_ = options;
    play_.strict = false;
    play_.transcript_text_cap = 4 << 20;
    const rapidjson::Value& d = profile.document()["derive"];
    settings_.within_ms = d["within_ms"].GetInt64();
    settings_.max_calls = d["max_calls"].GetUint();
    settings_.marker = d["marker"].GetString();
    for (const auto& p : d["announced_name"].GetArray())
      settings_.announced_name.push_back(p.GetString());
    ChooseEra();
  }

  // The lists (and the announced name): false with `*why` if the session failed.
  bool ReadLists(std::string* why) {
    std::string yaml = Header("lists");
    for (const char* list : {"resources/list", "prompts/list"})
      yaml += Ask(std::string("{method: \"") + list + "\"}", Id(list), settings_.within_ms);
    // tools/list page by page, each cursor the last page's: the chain stops at the first page
    // without one (its variable cannot be filled), after the other lists were asked.
    for (int page = 0; page < kToolPages; ++page) {
      std::string as = "tools" + std::to_string(page);
      yaml += Ask(page == 0 ? std::string("{method: tools/list}")
                            : "{method: tools/list, params: {cursor: \"${page" +
                                  std::to_string(page - 1) + ".result.nextCursor}\"}}",
                  as, settings_.within_ms);
      yaml += "    as: page" + std::to_string(page) + "\n";
    }
    std::string error;
    scenario::Scenario s = look::Load(yaml, "derive", fragment_dirs_, &error);
    if (!error.empty()) return *why = error, false;
    lists_ = PlayScenario(s, profile_, schema_, target_, play_);
    tools_list_ = AnswerTo(lists_, "tools/list");
    resources_list_ = AnswerTo(lists_, "resources/list");
    prompts_list_ = AnswerTo(lists_, "prompts/list");
    if (!tools_list_ && !resources_list_ && !prompts_list_)
      return *why = "the server answered none of tools/list, resources/list, prompts/list", false;
    ReadTools();
    return true;
  }

  // The name and version the plugin announced (MCP serverInfo), "" if none.
  std::pair<std::string, std::string> Announced() const {
    for (const result::TranscriptEntry& e : lists_.transcript) {
      if (e.direction != result::Direction::kPluginToHost || e.kind != result::EntryKind::kResponse)
        continue;
      std::shared_ptr<Doc> d = Parsed(e.text);
      for (const std::string& p : settings_.announced_name)
        if (const rapidjson::Value* info = d ? json::Resolve(*d, p) : nullptr;
            info && info->IsObject() && !Text(json::Find(*info, "name")).empty())
          return {Text(json::Find(*info, "name")), Text(json::Find(*info, "version"))};
    }
    return {};
  }

  // Calls each tool it may, reads a resource and gets a prompt.
  void Call() {
    std::string yaml = Header("calls");
    std::size_t i = 0;
    for (Tool& t : tools_) {
      if (!t.may_call || !t.arguments) continue;
      std::string request = YamlOf(*CallRequest(t, *t.arguments));
      // The call's own progress token: its notifications are told apart by it.
      request.insert(request.size() - 2, ",\"_meta\":{\"progressToken\":\"" + Token(i) + "\"}");
      if (request.find("${") != std::string::npos) {
        t.why_not = "its arguments would hold ${";
        continue;
      }
      yaml += Ask(request, "call" + std::to_string(i++), settings_.within_ms);
    }
    if (const rapidjson::Value* r = FirstResource()) {
      Doc p(rapidjson::kObjectType);
      p.AddMember("uri", rapidjson::Value(*json::Find(*r, "uri"), p.GetAllocator()),
                  p.GetAllocator());
      resource_ = Request("resources/read", &p);
      yaml += Ask(YamlOf(*resource_), "read", settings_.within_ms);
    }
    if (const rapidjson::Value* pr = FirstPrompt()) {
      Doc p(rapidjson::kObjectType);
      auto& a = p.GetAllocator();
      p.AddMember("name", rapidjson::Value(*json::Find(*pr, "name"), a), a);
      rapidjson::Value args(rapidjson::kObjectType);
      if (const rapidjson::Value* list = json::Find(*pr, "arguments"); list && list->IsArray())
        for (const rapidjson::Value& arg : list->GetArray())
          if (arg.IsObject() && json::Find(arg, "required") && arg["required"].IsBool() &&
              arg["required"].GetBool() && json::Find(arg, "name") && arg["name"].IsString())
            args.AddMember(rapidjson::Value(arg["name"], a), rapidjson::Value("fakehost", a), a);
      p.AddMember("arguments", args, a);
      prompt_ = Request("prompts/get", &p);
      if (YamlOf(*prompt_).find("${") == std::string::npos)
        yaml += Ask(YamlOf(*prompt_), "get", settings_.within_ms);
      else
        prompt_ = nullptr;
    }
    if (i == 0 && !resource_ && !prompt_) return;
    std::string error;
    scenario::Scenario s = look::Load(yaml, "derive", fragment_dirs_, &error);
    if (!error.empty()) return;
    calls_ = PlayScenario(s, profile_, schema_, target_, play_);
    ReadCalls();
  }

  // Each of `missing` made, declared none, or given a reason.
  void Make(const std::set<std::string>& missing) {
    auto& d = target_.derived;
    for (const std::string& name : missing) {
      std::string served;
      scenario::JsonPtr request = MakeOne(name, &served);
      if (request) {
        target_.triggers[name] = request;
        d.served_by[name] = served;
      } else if (name == "paged_tools_list" && tools_list_ && json::Find(*tools_list_, "result")) {
        target_.triggers_none[name] =
            "its tools/list answered in one page, without a nextCursor (fakehost read it)";
        d.why_not[name] = "one page";
      } else if (name == "structured" && tools_complete_ &&
                 std::none_of(tools_.begin(), tools_.end(),
                              [](const Tool& t) { return t.output_schema; })) {
        target_.triggers_none[name] = "no tool of its tools/list declares an outputSchema";
        d.why_not[name] = "no outputSchema";
      } else if (kObserved.count(name) && tools_complete_ && !tools_.empty() &&
                 std::all_of(tools_.begin(), tools_.end(),
                             [](const Tool& t) { return t.answered; })) {
        // Every tool it has was called and answered, and none did it: that is the server's
        // behaviour, not a gap in what fakehost may call.
        target_.triggers_none[name] =
            "none of its " + std::to_string(tools_.size()) +
            " tools, each called once by fakehost with arguments its inputSchema accepts, did "
            "what the trigger needs";
        d.why_not[name] = "no tool does it";
      } else {
        d.why_not[name] = WhyNot(name);
      }
    }
  }

 private:
  void ChooseEra() {
    const protocol::Revisions* revisions = profile_.revisions();
    if (!revisions || !play_.revision.empty()) return;
    for (const std::string& r : target_.probe.listed)
      if (const protocol::Revision* known = revisions->Find(r); known && !known->handshake) {
        play_.revision = r;
        modern_ = true;
        return;
      }
  }

  std::string Header(const std::string& what) const {
    return "title: trigger discovery (" + what + ")\nspec: derive\nrequirement: none\nsteps:\n" +
           (modern_ ? "" : "  - use: initialize\n");
  }
  static std::string Id(const std::string& list) { return list.substr(0, list.find('/')); }
  std::string Token(std::size_t i) const { return settings_.marker + "-" + std::to_string(i); }

  // The tools of every page read.
  void ReadTools() {
    for (const result::TranscriptEntry& e : lists_.transcript)
      if (e.direction == result::Direction::kPluginToHost &&
          e.kind == result::EntryKind::kResponse && e.method == "tools/list" && !e.clipped)
        if (std::shared_ptr<Doc> page = Parsed(e.text)) {
          tool_pages_.push_back(page);
          const rapidjson::Value* next = json::Resolve(*page, "/result/nextCursor");
          tools_complete_ = json::Find(*page, "result") && !(next && next->IsString());
          if (const rapidjson::Value* list = json::Resolve(*page, "/result/tools");
              list && list->IsArray())
            ReadTools(*list);
        }
  }

  void ReadTools(const rapidjson::Value& list) {
    for (const rapidjson::Value& item : list.GetArray()) {
      if (!item.IsObject() || Text(json::Find(item, "name")).empty()) continue;
      Tool t;
      t.name = Text(json::Find(item, "name"));
      t.input = json::Find(item, "inputSchema");
      t.output_schema = json::Find(item, "outputSchema") != nullptr;
      const rapidjson::Value* ro = json::Resolve(item, "/annotations/readOnlyHint");
      const bool listed = std::count(target_.call_tools.begin(), target_.call_tools.end(), t.name);
      t.may_call = (ro && ro->IsBool() && ro->GetBool()) || listed || target_.call_all_tools;
      if (!t.may_call) t.why_not = "not annotated readOnlyHint: true";
      if (t.may_call && calls_allowed_ >= settings_.max_calls) {
        t.may_call = false;
        t.why_not = "over the " + std::to_string(settings_.max_calls) + " tools fakehost calls";
      }
      if (t.may_call) {
        auto args = std::make_shared<Doc>();
        std::string why;
        if (t.input && schema::MakeConforming(*t.input, settings_.marker, args.get(), &why) &&
            args->IsObject()) {
          t.arguments = args;
          ++calls_allowed_;
        } else {
          t.why_not = t.input ? why : "it has no inputSchema";
        }
      }
      tools_.push_back(std::move(t));
    }
  }

  const rapidjson::Value* FirstResource() const {
    const rapidjson::Value* list =
        resources_list_ ? json::Resolve(*resources_list_, "/result/resources") : nullptr;
    if (!list || !list->IsArray()) return nullptr;
    const rapidjson::Value* first = nullptr;
    for (const rapidjson::Value& r : list->GetArray()) {
      if (!r.IsObject() || Text(json::Find(r, "uri")).empty()) continue;
      std::string mime = Text(json::Find(r, "mimeType"));
      bool binary =
          !mime.empty() && mime.rfind("text/", 0) != 0 && mime.find("json") == std::string::npos;
      if (binary) return &r;  // "a binary one where it has one"
      if (!first) first = &r;
    }
    return first;
  }

  const rapidjson::Value* FirstPrompt() const {
    const rapidjson::Value* list =
        prompts_list_ ? json::Resolve(*prompts_list_, "/result/prompts") : nullptr;
    if (!list || !list->IsArray()) return nullptr;
    for (const rapidjson::Value& p : list->GetArray())
      if (p.IsObject() && !Text(json::Find(p, "name")).empty()) return &p;
    return nullptr;
  }

  // What each call showed, from the transcript: the request carries the call's own token.
  void ReadCalls() {
    const auto& tr = calls_.transcript;
    std::size_t i = 0;
    for (Tool& t : tools_) {
      if (!t.may_call || !t.arguments || !t.why_not.empty()) continue;
      const std::string token = "\"" + Token(i++) + "\"";
      auto sent = std::find_if(tr.begin(), tr.end(), [&](const result::TranscriptEntry& e) {
        return e.direction == result::Direction::kHostToPlugin && e.method == "tools/call" &&
               e.text.find(token) != std::string::npos;
      });
      if (sent == tr.end()) continue;
      auto answer = std::find_if(sent, tr.end(), [&](const result::TranscriptEntry& e) {
        return e.direction == result::Direction::kPluginToHost &&
               e.kind == result::EntryKind::kResponse && e.id == sent->id;
      });
      double last_progress = -1;
      for (auto e = sent + 1; e != tr.end() && e != answer; ++e) {
        if (e->direction != result::Direction::kPluginToHost) continue;
        if (e->method == "notifications/progress" && e->text.find(token) != std::string::npos) {
          if (last_progress >= 0)
            t.progress_gap_ms =
                std::min(t.progress_gap_ms ? t.progress_gap_ms : 1e18, e->t_ms - last_progress);
          last_progress = e->t_ms;
          ++t.progress;
        }
        if (e->method == "notifications/message") t.logged = true;
        if (e->kind == result::EntryKind::kRequest) t.asked.insert(e->method);
      }
      if (answer == tr.end()) continue;
      t.answered = true;
      t.ms = answer->t_ms - sent->t_ms;
      std::shared_ptr<Doc> d = Parsed(answer->text);
      const rapidjson::Value* result = d ? json::Find(*d, "result") : nullptr;
      if (!result || !result->IsObject()) continue;
      if (const rapidjson::Value* asks = json::Find(*result, "inputRequests"))
        for (const auto& [name, method] : kRequestAsked)
          if (json::ToCompact(*asks).find("\"method\":\"" + std::string(method) + "\"") !=
              std::string::npos)
            t.asked.insert(method);
      const rapidjson::Value* err = json::Find(*result, "isError");
      t.ok = !(err && err->IsBool() && err->GetBool()) && !json::Find(*result, "inputRequests");
      t.structured = t.ok && json::Find(*result, "structuredContent");
      t.echoed = t.ok && answer->text.find(settings_.marker) != std::string::npos &&
                 json::Find(*result, "content");
    }
    read_ok_ = resource_ && AnswerTo(calls_, "resources/read") &&
               json::Find(*AnswerTo(calls_, "resources/read"), "result");
    get_ok_ = prompt_ && AnswerTo(calls_, "prompts/get") &&
              json::Find(*AnswerTo(calls_, "prompts/get"), "result");
  }

  const Tool* FirstTool(bool (*keeps)(const Tool&)) const {
    for (const Tool& t : tools_)
      if (t.arguments && t.why_not.empty() && keeps(t)) return &t;
    return nullptr;
  }

  // A call of the first tool that echoed the marker, the marker in its arguments as ${text}.
  scenario::JsonPtr EchoCall(std::string* served) const {
    const Tool* t = FirstTool([](const Tool& x) { return x.echoed; });
    if (!t) return nullptr;
    Doc args;
    args.CopyFrom(*t->arguments, args.GetAllocator());
    ReplaceStrings(&args, settings_.marker, "${text}", args.GetAllocator());
    *served = "tools/call " + t->name;
    return CallRequest(*t, args);
  }

  // A call of the first tool whose input schema lets one member of its arguments be left out
  // (`missing`) or given the wrong type.
  scenario::JsonPtr BrokenArgumentCall(bool missing, std::string* served) const {
    for (const Tool& t : tools_) {
      if (!t.arguments || !t.why_not.empty() || !t.input) continue;
      Doc broken;
      std::string member;
      bool made = missing ? schema::MakeMissingMember(*t.input, *t.arguments, &broken, &member)
                          : schema::MakeMistypedMember(*t.input, *t.arguments, &broken, &member);
      if (!made) continue;
      *served = "tools/call " + t.name + (missing ? " without " : " with ") + member +
                (missing ? "" : " of the wrong type");
      return CallRequest(t, broken);
    }
    return nullptr;
  }

  scenario::JsonPtr MakeOne(const std::string& name, std::string* served) {
    auto call = [&](const Tool* t, const char* how) -> scenario::JsonPtr {
      if (!t) return nullptr;
      *served = "tools/call " + t->name + how;
      return CallRequest(*t, *t->arguments, name == "progress");
    };
    if (name == "tool_call") return call(FirstTool([](const Tool& t) { return t.ok; }), "");
    if (name == "structured")
      return call(FirstTool([](const Tool& t) { return t.structured && t.output_schema; }), "");
    if (name == "slow")
      return call(FirstTool([](const Tool& t) { return t.ok && t.ms >= 600 && t.ms <= 4000; }), "");
    if (name == "progress")
      return call(FirstTool([](const Tool& t) {
                    return t.answered && t.progress == 2 && t.progress_gap_ms >= 250;
                  }),
                  "");
    if (name == "logs") return call(FirstTool([](const Tool& t) { return t.logged; }), "");
    for (const auto& [trigger, method] : kRequestAsked)
      if (name == trigger)
        for (const Tool& t : tools_)
          if (t.asked.count(method)) return call(&t, "");
    if (name == "echo") return EchoCall(served);
    if (name == "tool_missing_argument") return BrokenArgumentCall(true, served);
    if (name == "tool_mistyped_argument") return BrokenArgumentCall(false, served);
    if (name == "paged_tools_list" && tools_list_ &&
        json::Resolve(*tools_list_, "/result/nextCursor") &&
        json::Resolve(*tools_list_, "/result/nextCursor")->IsString()) {
      *served = "tools/list (its first page has a nextCursor)";
      return Request("tools/list", nullptr);
    }
    if (name == "resource_read" && read_ok_) {
      *served = "resources/read " + Text(json::Resolve(*resource_, "/params/uri"));
      return resource_;
    }
    if (name == "prompt_get" && get_ok_) {
      *served = "prompts/get " + Text(json::Resolve(*prompt_, "/params/name"));
      return prompt_;
    }
    return nullptr;
  }

  std::string WhyNot(const std::string& name) const {
    if (name == "resource_read")
      return resource_ ? "the resources/read fakehost tried was not answered with a result"
                       : "the server listed no resource";
    if (name == "prompt_get")
      return prompt_ ? "the prompts/get fakehost tried was not answered with a result"
                     : "the server listed no prompt";
    if (!tools_list_) return "the server did not answer tools/list";
    std::string called;
    std::map<std::string, std::string> uncalled;  // why -> the tools not called for it
    for (const Tool& t : tools_) {
      std::string& list = t.arguments && t.why_not.empty() ? called : uncalled[t.why_not];
      list += (list.empty() ? "" : ", ") + t.name;
    }
    std::string skipped;
    for (const auto& [why, names] : uncalled)
      skipped += (skipped.empty() ? "" : "; ") + names + ": " + why;
    if (uncalled.count("not annotated readOnlyHint: true"))
      skipped += " (fakehost.yaml tools: {call: [NAME, ...]} lets fakehost call a tool)";
    if (called.empty())
      return tools_.empty() ? "the server listed no tool" : "it called no tool (" + skipped + ")";
    return "none of the tools fakehost called (" + called + ") did that" +
           (skipped.empty() ? "" : "; not called: " + skipped);
  }

  const protocol::Profile& profile_;
  const schema::FrameSchema* schema_;
  const std::vector<std::string>& fragment_dirs_;
  interpreter::PluginTarget& target_;
  interpreter::PlayOptions play_;
  Settings settings_;
  bool modern_ = false;
  result::ScenarioResult lists_, calls_;
  std::shared_ptr<Doc> tools_list_, resources_list_, prompts_list_;
  std::vector<std::shared_ptr<Doc>> tool_pages_;  // own the tools' schemas
  bool tools_complete_ = false;                   // the last page read had no nextCursor
  std::vector<Tool> tools_;
  std::size_t calls_allowed_ = 0;
  scenario::JsonPtr resource_, prompt_;
  bool read_ok_ = false, get_ok_ = false;
};

}  // namespace

std::set<std::string> TriggersSent(const std::vector<const scenario::Scenario*>& scenarios) {
  std::set<std::string> sent;
  for (const scenario::Scenario* s : scenarios)
    scenario::VisitSteps(s->steps, [&](const scenario::Step& step) {
      if (const auto* send = std::get_if<scenario::Send>(&step.body);
          send && !send->trigger.empty())
        sent.insert(send->trigger);
    });
  return sent;
}

void DeriveTriggers(const protocol::Profile& profile, const schema::FrameSchema* schema,
                    const interpreter::PlayOptions& options,
                    const std::vector<std::string>& fragment_dirs,
                    const std::set<std::string>& needed, interpreter::PluginTarget* target) {
  if (!json::Find(profile.document(), "derive") || !target->never_spawned.empty()) return;
  std::set<std::string> missing;
  for (const std::string& name : needed)
    if (!target->triggers.count(name) && !target->triggers_none.count(name)) missing.insert(name);
  const bool want_name = !target->manifest && !target->id_given;
  if (missing.empty() && !want_name) return;
  Deriver deriver(profile, schema, options, fragment_dirs, target);
  std::string why;
  if (!deriver.ReadLists(&why)) {
    for (const std::string& name : missing) target->derived.why_not[name] = why;
    target->derived.summary = "triggers: none made (" + why + ")";
    return;
  }
  if (want_name) {
    auto [name, version] = deriver.Announced();
    if (!name.empty()) {
      target->id = json::Abbreviate(name, 128);
      target->version = json::Abbreviate(version, 64);
    }
  }
  if (missing.empty()) return;
  deriver.Call();
  deriver.Make(missing);
  std::string made, not_made;
  for (const auto& [name, served] : target->derived.served_by)
    made += (made.empty() ? "" : "; ") + name + " = " + served;
  for (const auto& [name, reason] : target->derived.why_not)
    if (!target->triggers_none.count(name)) not_made += (not_made.empty() ? "" : ", ") + name;
  target->derived.summary =
      "triggers made from the server's lists: " + (made.empty() ? std::string("none") : made) +
      (not_made.empty() ? "" : "; not made: " + not_made);
}

}  // namespace fakehost::run
