#include "harness/interpreter/bindings.hpp"

#include <algorithm>

#include "harness/json/json.hpp"

namespace fakehost::interpreter {
namespace {

// Arguments for a manifest item declaring `arguments: [{name, type, required}]` (RIM §9):
// every required argument gets a harmless value of its declared type, so each declared command
// can be run without knowing what it does.
void SampleArgs(const rapidjson::Value& item, rapidjson::Document* out) {
  out->SetObject();
  auto& a = out->GetAllocator();
  const rapidjson::Value* args = item.IsObject() ? json::Find(item, "arguments") : nullptr;
  if (!args || !args->IsArray()) return;
  for (const auto& arg : args->GetArray()) {
    const rapidjson::Value* name = arg.IsObject() ? json::Find(arg, "name") : nullptr;
    const rapidjson::Value* type = arg.IsObject() ? json::Find(arg, "type") : nullptr;
    const rapidjson::Value* required = arg.IsObject() ? json::Find(arg, "required") : nullptr;
    if (!name || !name->IsString() || !required || !required->IsBool() || !required->GetBool())
      continue;
    std::string_view t = type && type->IsString() ? type->GetString() : "string";
    rapidjson::Value v;
    if (t == "number" || t == "integer")
      v.SetInt(1);
    else if (t == "boolean")
      v.SetBool(true);
    else if (t == "object")
      v.SetObject();
    else if (t == "array")
      v.SetArray();
    else
      v.SetString("fakehost", a);
    out->AddMember(rapidjson::Value(*name, a), v, a);
  }
}

}  // namespace

const Named* Bindings::FindNamed(std::string_view name) const {
  auto it = named_.find(name);
  return it == named_.end() ? nullptr : &it->second;
}

const Named* Bindings::NamedWithId(const rapidjson::Value& id) const {
  const Named* found = nullptr;
  for (const auto& [name, named] : named_)
    if (json::StrictEqual(id, named.id)) found = &named;
  return found;
}

void Bindings::Capture(const std::string& as, const session::Inbound& in) {
  captures_[as] = in.doc;
  if (in.kind == protocol::MessageKind::kRequest) captured_requests_[as] = in;
}

const rapidjson::Document* Bindings::Captured(const std::string& name) const {
  auto it = captures_.find(name);
  return it == captures_.end() ? nullptr : it->second.get();
}

const session::Inbound* Bindings::CapturedRequest(const std::string& name) const {
  auto it = captured_requests_.find(name);
  return it == captured_requests_.end() ? nullptr : &it->second;
}

void Bindings::SetItem(const rapidjson::Value* item) {
  item_ = item;
  if (item) SampleArgs(*item, &item_args_);
}

const rapidjson::Value* Bindings::Lookup(std::string_view path) const {
  std::string_view head = path.substr(0, path.find('.'));
  std::string_view rest = head.size() < path.size() ? path.substr(head.size() + 1) : "";
  const rapidjson::Value* v = nullptr;
  if (head == "item") {
    v = item_;
  } else if (head == "item_args") {
    v = item_ ? &item_args_ : nullptr;
  } else if (auto c = captures_.find(head); c != captures_.end()) {
    v = c->second.get();
  } else if (auto n = named_.find(head); n != named_.end() && rest == "id") {
    return &n->second.id;  // the id a named request was sent with (a cancellation names it so)
  } else if (n != named_.end() && (rest == "params" || rest.rfind("params.", 0) == 0)) {
    // What a named request was sent with (a trigger's tool name: ${call.params.name}).
    v = &n->second.params;
    rest = rest.size() > 6 ? rest.substr(7) : "";
  } else {
    v = json::Find(vars_, head);
  }
  while (v && !rest.empty()) {
    std::string_view seg = rest.substr(0, rest.find('.'));
    rest = seg.size() < rest.size() ? rest.substr(seg.size() + 1) : "";
    if (v->IsObject()) {
      v = json::Find(*v, seg);
    } else if (v->IsArray() && !seg.empty() &&
               std::all_of(seg.begin(), seg.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      std::size_t i = std::stoul(std::string(seg));
      v = i < v->Size() ? &(*v)[static_cast<rapidjson::SizeType>(i)] : nullptr;
    } else {
      v = nullptr;
    }
  }
  return v;
}

}  // namespace fakehost::interpreter
