// The loader's readers for the body of each step kind.
#include <limits>

#include "harness/scenario/matcher.hpp"
#include "harness/scenario/reader.hpp"
#include "harness/text/bytes.hpp"

namespace fakehost::scenario::internal {
namespace {

constexpr auto kMaxPayload = static_cast<std::int64_t>(kMaxSendRawBytes);

}  // namespace

// Over 60 lines: each of send's keys (id modes, trigger, padding, deadline) with its check.
bool Reader::ReadSend(const Entry& body, const std::vector<Entry>& siblings, bool notify,
                      Send* out) {
  if (!body.value.IsMap()) {
    Error(body.value.Mark(), body.key + " takes a map: {method: ..., params: ...}");
    return false;
  }
  const std::vector<Entry> entries = Entries(body.value);
  bool ok = OnlyKeys(entries,
                     notify ? std::vector<std::string_view>{"method", "params", "members"}
                            : std::vector<std::string_view>{"method", "params", "id", "members",
                                                            "trigger", "deadline_ms"},
                     body.key);
  if (const Entry* invalid = Find(siblings, "invalid")) {
    ok = Bool(invalid->value, "invalid", &out->invalid) && ok;
  }
  const Entry* method = Find(entries, "method");
  if (const Entry* trigger = Find(entries, "trigger")) {
    // The plugin's own request for this trigger (its fakehost.yaml) replaces method and params.
    ok = Identifier(trigger->value, "trigger", &out->trigger) && ok;
    for (const char* key : {"method", "params", "id"}) {
      if (const Entry* e = Find(entries, key)) {
        Error(e->key_node.Mark(), std::string("a trigger brings its own method, params and id: ") +
                                      key + " does not go with trigger");
        ok = false;
      }
    }
  } else if (method == nullptr) {
    Error(body.key_node.Mark(), body.key + " needs a method (or a trigger: NAME)");
    ok = false;
  } else {
    ok = String(method->value, "method", &out->method) && ok;
  }
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
  if (const Entry* id = Find(entries, "id")) {
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
  }
  const Entry* pad_to = Find(siblings, "pad_to");
  const Entry* pad_at = Find(siblings, "pad_at");
  if (pad_to != nullptr) {
    std::int64_t n = 0;
    if (Integer(pad_to->value, "pad_to", 1, kMaxPayload, &n)) {
      out->pad_to = static_cast<std::uint64_t>(n);
    } else {
      ok = false;
    }
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

// Over 60 lines: each of send_raw's keys with the check that keeps a malformed one out.
bool Reader::ReadSendRaw(const Entry& body, SendRaw* out) {
  if (!body.value.IsMap()) {
    Error(body.value.Mark(), "send_raw takes a map: {text: ...} or {hex: ...}");
    return false;
  }
  const std::vector<Entry> entries = Entries(body.value);
  bool ok = OnlyKeys(entries, {"text", "hex", "framed", "length", "repeat", "chunk", "delay"},
                     "send_raw");
  const Entry* text = Find(entries, "text");
  const Entry* hex = Find(entries, "hex");
  if (text == nullptr && hex == nullptr) {
    Error(body.key_node.Mark(), "send_raw needs text: or hex:");
    ok = false;
  } else if (text != nullptr && hex != nullptr) {
    const Entry* second = text->key_node.Mark().pos > hex->key_node.Mark().pos ? text : hex;
    Error(second->key_node.Mark(), "send_raw takes text: or hex:, not both");
    ok = false;
  } else if (text != nullptr) {
    ok = String(text->value, "text", &out->bytes) && ok;
  } else {
    std::string digits;
    std::size_t bad = 0;
    if (!String(hex->value, "hex", &digits)) {
      ok = false;
    } else if (!text::FromHex(digits, &out->bytes, &bad)) {
      Error(hex->value.Mark(), "bad hex at character " + std::to_string(bad + 1) + " of '" +
                                   digits +
                                   "' (pairs of hex digits, optionally separated by spaces)");
      ok = false;
    }
  }
  if (const Entry* framed = Find(entries, "framed")) {
    ok = Bool(framed->value, "framed", &out->framed) && ok;
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
  std::int64_t n = 0;
  if (const Entry* repeat = Find(entries, "repeat")) {
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

// Over 60 lines: one branch per filter kind and per key a filter takes, each with its error.
bool Reader::ReadFilter(const Entry& body, const Scope& scope, Filter* out) {
  if (!body.value.IsMap()) {
    Error(body.value.Mark(), body.key +
                                 " takes a map with one of reply_to, response, request, "
                                 "notification or any");
    return false;
  }
  const std::vector<Entry> entries = Entries(body.value);
  bool ok = OnlyKeys(entries,
                     {"reply_to", "response", "request", "notification", "any", "result", "error",
                      "params", "message"},
                     body.key);
  const Entry* selector = nullptr;
  for (const Entry& entry : entries) {
    Filter::Kind kind;
    if (entry.key == "reply_to") {
      kind = Filter::Kind::kReplyTo;
    } else if (entry.key == "response") {
      kind = Filter::Kind::kResponse;
    } else if (entry.key == "request") {
      kind = Filter::Kind::kRequest;
    } else if (entry.key == "notification") {
      kind = Filter::Kind::kNotification;
    } else if (entry.key == "any") {
      kind = Filter::Kind::kAny;
    } else {
      continue;
    }
    if (selector != nullptr) {
      Error(entry.key_node.Mark(), "one selector per " + body.key + ": '" + selector->key +
                                       "' and '" + entry.key + "' are both here");
      return false;
    }
    selector = &entry;
    out->kind = kind;
  }
  if (selector == nullptr) {
    Error(body.key_node.Mark(), body.key +
                                    " needs one of reply_to, response, request, notification "
                                    "or any");
    return false;
  }
  const YamlNode& value = selector->value;
  switch (out->kind) {
    case Filter::Kind::kReplyTo:
      if (!String(value, "reply_to", &out->name)) return false;
      if (auto it = scope.find(out->name); it == scope.end()) {
        pending_.push_back({out->name, Loc(value.Mark()), UsedFromSuffix()});
        ok = false;
      } else if (!it->second.is_send) {
        Error(value.Mark(), "reply_to '" + out->name + "' names the expect at " +
                                it->second.loc.ToString() + ", not a send");
        ok = false;
      }
      break;
    case Filter::Kind::kRequest:
    case Filter::Kind::kNotification:
      ok = String(value, selector->key, &out->name) && ok;
      break;
    case Filter::Kind::kResponse:
    case Filter::Kind::kAny: {
      bool yes = false;
      if (!Bool(value, selector->key, &yes)) return false;
      if (!yes) {
        Error(value.Mark(), selector->key + " takes true");
        ok = false;
      }
      break;
    }
  }
  const bool about_response = out->kind == Filter::Kind::kReplyTo ||
                              out->kind == Filter::Kind::kResponse ||
                              out->kind == Filter::Kind::kAny;
  const bool about_call = out->kind == Filter::Kind::kRequest ||
                          out->kind == Filter::Kind::kNotification ||
                          out->kind == Filter::Kind::kAny;
  struct Part {
    const char* key;
    bool allowed;
    JsonPtr* target;
  };
  const Part parts[] = {{"result", about_response, &out->result},
                        {"error", about_response, &out->error},
                        {"params", about_call, &out->params},
                        {"message", true, &out->message}};
  for (const Part& part : parts) {
    const Entry* entry = Find(entries, part.key);
    if (entry == nullptr) continue;
    if (!part.allowed) {
      Error(entry->key_node.Mark(),
            std::string(part.key) + " does not apply to " + selector->key + " (" +
                (about_response ? "a response has result or error" : "a request has params") + ")");
      ok = false;
      continue;
    }
    *part.target = Pattern(entry->value);
    ok = *part.target != nullptr && ok;
  }
  return ok;
}

bool Reader::ReadExpect(const Entry& body, const std::vector<Entry>& siblings, const Scope& scope,
                        Expect* out) {
  bool ok = ReadFilter(body, scope, &out->filter);
  if (const Entry* within = Find(siblings, "within")) {
    ok = Duration(within->value, "within", &out->within) && ok;
  }
  if (const Entry* not_before = Find(siblings, "not_before")) {
    Ms ms{0};
    if (Duration(not_before->value, "not_before", &ms)) {
      out->not_before = ms;
      if (out->within.count() > 0 && ms >= out->within) {
        Error(not_before->value.Mark(), "not_before must be shorter than within");
        ok = false;
      }
    } else {
      ok = false;
    }
  }
  if (const Entry* from = Find(siblings, "counted_from")) {
    std::string value;
    if (!String(from->value, "counted_from", &value)) {
      ok = false;
    } else if (value == "first_frame") {
      if (out->filter.kind != Filter::Kind::kReplyTo || out->within.count() == 0) {
        Error(from->key_node.Mark(), "counted_from: first_frame needs reply_to and within");
        ok = false;
      }
      out->from_first_frame = true;
    } else if (value != "request") {
      Error(from->value.Mark(), "counted_from is request or first_frame, not '" + value + "'");
      ok = false;
    }
  }
  if (const Entry* as = Find(siblings, "as")) ok = Identifier(as->value, "as", &out->as) && ok;
  if (const Entry* reply = Find(siblings, "reply")) {
    if (out->filter.kind != Filter::Kind::kRequest) {
      Error(reply->key_node.Mark(), "reply answers a request: use it with 'request: METHOD'");
      ok = false;
    } else {
      out->reply = Json(reply->value);
      ok = out->reply != nullptr && ok;
    }
  }
  return ok;
}

bool Reader::ReadExpectNone(const Entry& body, const std::vector<Entry>& siblings,
                            const Scope& scope, const YamlMark& step_mark, ExpectNone* out) {
  bool ok = ReadFilter(body, scope, &out->filter);
  if (const Entry* since = Find(siblings, "since")) {
    if (!Identifier(since->value, "since", &out->since)) return false;
    if (auto it = scope.find(out->since); it == scope.end() || !it->second.is_send) {
      Error(since->value.Mark(),
            "since '" + out->since + "' names no earlier send with 'as: " + out->since + "'");
      return false;
    }
  }
  const Entry* window = Find(siblings, "for");
  const Entry* barrier = Find(siblings, "barrier");
  if (window == nullptr && barrier == nullptr) {
    Error(step_mark, "expect_none needs 'for: DURATION' or 'barrier: true'");
    return false;
  }
  if (window != nullptr && barrier != nullptr) {
    const Entry* second =
        window->key_node.Mark().pos > barrier->key_node.Mark().pos ? window : barrier;
    Error(second->key_node.Mark(), "expect_none takes 'for' or 'barrier', not both");
    return false;
  }
  if (window != nullptr) return Duration(window->value, "for", &out->window) && ok;
  if (!Bool(barrier->value, "barrier", &out->barrier)) return false;
  if (!out->barrier) {
    Error(barrier->value.Mark(), "barrier takes true (or give 'for: DURATION' instead)");
    return false;
  }
  return ok;
}

bool Reader::ReadExpectExit(const Entry& body, const std::vector<Entry>& siblings,
                            const YamlMark& step_mark, ExpectExit* out) {
  bool ok = true;
  if (!body.value.IsNull() && !body.value.IsMap()) {
    Error(body.value.Mark(), "expect_exit takes a map: {}, {code: N} or {signal: NAME}");
    return false;
  }
  const std::vector<Entry> entries = Entries(body.value);
  ok = OnlyKeys(entries, {"code", "signal"}, "expect_exit");
  const Entry* code = Find(entries, "code");
  const Entry* signal = Find(entries, "signal");
  if (code != nullptr && signal != nullptr) {
    Error(signal->key_node.Mark(), "an exit has a code or a signal, not both");
    ok = false;
  } else if (code != nullptr) {
    std::int64_t n = 0;
    if (Integer(code->value, "code", 0, 255, &n)) {
      out->code = static_cast<int>(n);
    } else {
      ok = false;
    }
  } else if (signal != nullptr) {
    int number = 0;
    std::string name;
    if (SignalOf(signal->value, &number, &name)) {
      out->signal = number;
    } else {
      ok = false;
    }
  }
  const Entry* within = Find(siblings, "within");
  if (within == nullptr) {
    Error(step_mark, "expect_exit needs within: (how long to wait for the exit)");
    return false;
  }
  return Duration(within->value, "within", &out->within) && ok;
}

bool Reader::ReadShutdown(const Entry& body, Shutdown* out) {
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

bool Reader::ReadForEach(const Entry& body, Scope* scope, ForEach* out) {
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
