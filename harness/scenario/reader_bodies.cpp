// The loader's readers for the body of each step kind but those that wait on the plugin
// (reader_expect.cpp).
#include <limits>

#include "harness/scenario/matcher.hpp"
#include "harness/scenario/reader.hpp"
#include "harness/text/bytes.hpp"

namespace fakehost::scenario::internal {
namespace {

constexpr auto kMaxPayload = static_cast<std::int64_t>(kMaxSendRawBytes);

}  // namespace

// send and notify: the keys each may have, then where the request comes from (ReadSendSource),
// its members (ReadSendMembers) and its padding (ReadSendPadding), each with its checks.
bool Reader::ReadSend(const Entry& body, const std::vector<Entry>& siblings, bool notify,
                      Send* out) {
  if (!body.value.IsMap()) {
    Error(body.value.Mark(), body.key + " takes a map: {method: ..., params: ...}");
    return false;
  }
  const std::vector<Entry> entries = Entries(body.value);
  bool ok = OnlyKeys(
      entries,
      notify ? std::vector<std::string_view>{"method", "params", "members"}
             : std::vector<std::string_view>{"method", "params", "id", "members", "trigger",
                                             "deadline_ms", "retry", "answer_inputs"},
      body.key);
  if (const Entry* invalid = Find(siblings, "invalid"))
    ok = Bool(invalid->value, "invalid", &out->invalid) && ok;
  ok = ReadSendSource(body, entries, out) && ok;
  ok = ReadSendMembers(entries, notify, out) && ok;
  return ReadSendPadding(siblings, out) && ok;
}

// Where a send's request comes from: its method, a trigger (the plugin's fakehost.yaml gives
// method and params; the step's params are laid over them), or a retry of a captured answer.
bool Reader::ReadSendSource(const Entry& body, const std::vector<Entry>& entries, Send* out) {
  bool ok = true;
  const Entry* method = Find(entries, "method");
  if (const Entry* answer_inputs = Find(entries, "answer_inputs")) {
    ok = Bool(answer_inputs->value, "answer_inputs", &out->answer_inputs) && ok;
    if (!Find(entries, "retry")) {
      Error(answer_inputs->key_node.Mark(), "answer_inputs goes with retry");
      ok = false;
    }
  }
  // True when no key of `keys` is there: they do not go with a retry or a trigger, which bring
  // their own.
  auto none_of = [&](const char* with, const std::string& brings,
                     std::initializer_list<const char*> keys) {
    bool none = true;
    for (const char* key : keys)
      if (const Entry* e = Find(entries, key)) {
        Error(e->key_node.Mark(), brings + ": " + key + " does not go with " + with);
        none = false;
      }
    return none;
  };
  if (const Entry* retry = Find(entries, "retry")) {
    // The request an earlier expect's capture answered, again: it brings method, params and a
    // new id (the reader of the step checks that the capture is in scope).
    ok = Identifier(retry->value, "retry", &out->retry) && ok;
    ok = none_of("retry", "a retry brings its request's method and a new id",
                 {"method", "id", "trigger"}) &&
         ok;
  } else if (const Entry* trigger = Find(entries, "trigger")) {
    ok = Identifier(trigger->value, "trigger", &out->trigger) && ok;
    ok = none_of("trigger", "a trigger brings its own method and id", {"method", "id"}) && ok;
    if (const Entry* params = Find(entries, "params"); params && !params->value.IsMap()) {
      Error(params->value.Mark(), "params with a trigger is a map laid over the trigger's params");
      ok = false;
    }
  } else if (method == nullptr) {
    Error(body.key_node.Mark(), body.key + " needs a method (or a trigger: NAME)");
    ok = false;
  } else {
    ok = String(method->value, "method", &out->method) && ok;
  }
  return ok;
}

// A send's deadline_ms, params, members and id.
bool Reader::ReadSendMembers(const std::vector<Entry>& entries, bool notify, Send* out) {
  bool ok = true;
  if (const Entry* deadline = Find(entries, "deadline_ms")) {
    out->deadline_ms = Json(deadline->value);
    if (out->deadline_ms == nullptr) {
      ok = false;
    } else if (!out->deadline_ms->IsInt64() && !out->deadline_ms->IsString()) {
      Error(deadline->value.Mark(),
            "deadline_ms is an integer number of milliseconds or a "
            "variable that holds one, e.g. \"${item.timeout_ms}\"");
      ok = false;
    }
  }
  if (const Entry* params = Find(entries, "params")) {
    out->params = Json(params->value);
    if (out->params == nullptr) {
      ok = false;
    } else if (!out->invalid && !out->params->IsObject() && !out->params->IsArray()) {
      Error(params->value.Mark(),
            "params must be a map or a list (mark the step 'invalid: true' to send anything else)");
      ok = false;
    }
  }
  if (const Entry* members = Find(entries, "members")) {
    out->members = Json(members->value);
    if (out->members == nullptr) {
      ok = false;
    } else if (!out->members->IsObject()) {
      Error(members->value.Mark(), "members takes a map of extra top-level members");
      ok = false;
    }
  }
  out->id_mode = notify ? Send::IdMode::kNone : Send::IdMode::kAuto;
  const Entry* id = Find(entries, "id");
  if (!id) return ok;
  if (id->value.IsNull()) {
    out->id_mode = Send::IdMode::kNull;
  } else if ((out->id = Json(id->value)) == nullptr) {
    ok = false;
  } else if (!out->invalid && !out->id->IsInt64() && !out->id->IsString()) {
    Error(id->value.Mark(), "id must be an integer or a string, not " +
                                DescribeValue(out->id.get()) +
                                " (mark the step 'invalid: true' to send it anyway)");
    ok = false;
  } else {
    out->id_mode = Send::IdMode::kExplicit;
  }
  return ok;
}

// pad_to: N (the payload grown to N bytes) and pad_at: POINTER (the string that grows).
bool Reader::ReadSendPadding(const std::vector<Entry>& siblings, Send* out) {
  bool ok = true;
  const Entry* pad_to = Find(siblings, "pad_to");
  const Entry* pad_at = Find(siblings, "pad_at");
  if (pad_to != nullptr) {
    std::int64_t n = 0;
    if (Integer(pad_to->value, "pad_to", 1, kMaxPayload, &n))
      out->pad_to = static_cast<std::uint64_t>(n);
    else
      ok = false;
    out->pad_pointer = "/params/data";
  }
  if (pad_at != nullptr) {
    if (pad_to == nullptr) {
      Error(pad_at->key_node.Mark(), "pad_at needs pad_to (the payload size to pad to)");
      ok = false;
    } else {
      ok = Pointer(pad_at->value, "pad_at", &out->pad_pointer) && ok;
    }
  }
  return ok;
}

bool Reader::ReadSendRaw(const Entry& body, SendRaw* out) {
  if (!body.value.IsMap()) {
    Error(body.value.Mark(), "send_raw takes a map: {text: ...} or {hex: ...}");
    return false;
  }
  const std::vector<Entry> entries = Entries(body.value);
  bool ok = OnlyKeys(entries, {"text", "hex", "framed", "length", "repeat", "chunk", "delay"},
                     "send_raw");
  ok = ReadSendRawBytes(body, entries, out) && ok;
  ok = ReadSendRawFraming(entries, out) && ok;
  return ReadSendRawPacing(entries, out) && ok;
}

bool Reader::ReadSendRawBytes(const Entry& body, const std::vector<Entry>& entries, SendRaw* out) {
  const Entry* text = Find(entries, "text");
  const Entry* hex = Find(entries, "hex");
  if (text == nullptr && hex == nullptr) {
    Error(body.key_node.Mark(), "send_raw needs text: or hex:");
    return false;
  }
  if (text != nullptr && hex != nullptr) {
    const Entry* second = text->key_node.Mark().pos > hex->key_node.Mark().pos ? text : hex;
    Error(second->key_node.Mark(), "send_raw takes text: or hex:, not both");
    return false;
  }
  if (text != nullptr) return String(text->value, "text", &out->bytes);
  std::string digits;
  std::size_t bad = 0;
  if (!String(hex->value, "hex", &digits)) return false;
  if (!text::FromHex(digits, &out->bytes, &bad)) {
    Error(hex->value.Mark(), "bad hex at character " + std::to_string(bad + 1) + " of '" + digits +
                                 "' (pairs of hex digits, optionally separated by spaces)");
    return false;
  }
  return true;
}

bool Reader::ReadSendRawFraming(const std::vector<Entry>& entries, SendRaw* out) {
  bool ok = true;
  if (const Entry* framed = Find(entries, "framed")) {
    ok = Bool(framed->value, "framed", &out->framed);
  }
  if (const Entry* length = Find(entries, "length")) {
    std::int64_t n = 0;
    if (!Integer(length->value, "length", 0, std::numeric_limits<std::uint32_t>::max(), &n)) {
      ok = false;
    } else if (!out->framed) {
      Error(length->key_node.Mark(), "length is the announced frame length: it needs framed: true");
      ok = false;
    } else {
      out->length = static_cast<std::uint32_t>(n);
    }
  }
  return ok;
}

bool Reader::ReadSendRawPacing(const std::vector<Entry>& entries, SendRaw* out) {
  bool ok = true;
  if (const Entry* repeat = Find(entries, "repeat")) {
    std::int64_t n = 0;
    if (!Integer(repeat->value, "repeat", 1, kMaxPayload, &n)) {
      ok = false;
    } else if (!out->bytes.empty() &&
               static_cast<std::uint64_t>(n) > kMaxSendRawBytes / out->bytes.size()) {
      // Checked by division: repeat * size must not wrap before it is compared.
      Error(repeat->value.Mark(), "repeat " + std::to_string(n) + " times " +
                                      std::to_string(out->bytes.size()) +
                                      " bytes is more than the " + std::to_string(kMaxPayload) +
                                      " bytes (64 MiB) one send_raw may send");
      ok = false;
    } else {
      out->repeat = static_cast<std::uint64_t>(n);
    }
  }
  if (const Entry* chunk = Find(entries, "chunk")) {
    std::int64_t n = 0;
    if (Integer(chunk->value, "chunk", 1, kMaxPayload, &n)) {
      out->chunk = static_cast<std::size_t>(n);
    } else {
      ok = false;
    }
  }
  if (const Entry* delay = Find(entries, "delay")) {
    if (Find(entries, "chunk") == nullptr) {
      Error(delay->key_node.Mark(), "delay is the pause between chunks: it needs chunk");
      ok = false;
    } else {
      ok = Duration(delay->value, "delay", &out->delay) && ok;
    }
  }
  return ok;
}

bool Reader::Read(const BodyInput& in, Shutdown* out) {
  const Entry& body = in.body;
  if (!body.value.IsNull() && !body.value.IsMap()) {
    Error(body.value.Mark(), "shutdown takes a map: {} or {sequence: NAME, grace: DURATION}");
    return false;
  }
  const std::vector<Entry> entries = Entries(body.value);
  bool ok = OnlyKeys(entries, {"sequence", "grace"}, "shutdown");
  if (const Entry* sequence = Find(entries, "sequence")) {
    ok = String(sequence->value, "sequence", &out->sequence) && ok;
  }
  if (const Entry* grace = Find(entries, "grace")) {
    ok = Duration(grace->value, "grace", &out->grace) && ok;
  }
  return ok;
}

bool Reader::ItemsFromCapture(const YamlNode& node, const Scope& scope, std::string* out) {
  const std::string text = node.Scalar();
  const std::string path =
      text.size() > 3 && text.back() == '}' ? text.substr(2, text.size() - 3) : std::string();
  const std::string head = path.substr(0, path.find('.'));
  bool segments_ok = !path.empty() && path.back() != '.';
  for (std::size_t i = 0; segments_ok && i < path.size(); ++i)
    segments_ok = path[i] != '$' && path[i] != '{' && path[i] != '}' &&
                  !(path[i] == '.' && i + 1 < path.size() && path[i + 1] == '.');
  if (!segments_ok || head.empty()) {
    Error(node.Mark(), "for_each items '" + text +
                           "' must be one variable, \"${CAPTURE.member...}\", such as "
                           "\"${list.result.tools}\"");
    return false;
  }
  if (auto it = scope.find(head); it == scope.end() || it->second.is_send) {
    Error(node.Mark(), "for_each items '" + text + "' names no earlier expect with 'as: " + head +
                           "' (the list must be in a frame the scenario captured)");
    return false;
  }
  *out = path;
  return true;
}

bool Reader::Read(const BodyInput& in, ForEach* out) {
  const Entry& body = in.body;
  Scope* scope = in.scope;
  if (!body.value.IsMap()) {
    Error(body.value.Mark(),
          "for_each takes a map: {items: POINTER or \"${CAPTURE.path}\", where: ..., steps: "
          "[...]}");
    return false;
  }
  const std::vector<Entry> entries = Entries(body.value);
  bool ok = OnlyKeys(entries, {"items", "where", "defaults", "steps"}, "for_each");
  const Entry* items = Find(entries, "items");
  const Entry* steps = Find(entries, "steps");
  if (items == nullptr) {
    Error(body.key_node.Mark(),
          "for_each needs items: (a JSON pointer into the manifest, or \"${CAPTURE.path}\" for a "
          "list in a frame an earlier expect captured)");
    ok = false;
  } else if (items->value.IsScalar() && items->value.Scalar().rfind("${", 0) == 0) {
    ok = ItemsFromCapture(items->value, *scope, &out->items_var) && ok;
  } else {
    ok = Pointer(items->value, "items", &out->items) && ok;
  }
  if (const Entry* where = Find(entries, "where")) {
    out->where = Pattern(where->value);
    ok = out->where != nullptr && ok;
  }
  if (const Entry* defaults = Find(entries, "defaults")) {
    out->defaults = Json(defaults->value);
    if (out->defaults != nullptr && !out->defaults->IsObject()) {
      Error(defaults->value.Mark(),
            "defaults takes a map of members an item gets when it lacks them");
      ok = false;
    }
    ok = out->defaults != nullptr && ok;
  }
  if (steps == nullptr) {
    Error(body.key_node.Mark(), "for_each needs steps:");
    return false;
  }
  if (steps->value.IsSequence() && steps->value.size() == 0) {
    Error(steps->value.Mark(), "for_each steps must not be empty");
    return false;
  }
  Scope inner = *scope;  // names defined per item stay inside the loop
  const std::size_t before = errors_->size();
  Steps(steps->value, &inner, &out->steps);
  return ok && errors_->size() == before;
}

}  // namespace fakehost::scenario::internal
