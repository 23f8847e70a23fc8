// The loader's readers for the steps that wait on the plugin: expect's filter, expect,
// expect_none and expect_exit (the other kinds' bodies are in reader_bodies.cpp).
#include "harness/scenario/matcher.hpp"
#include "harness/scenario/reader.hpp"

namespace fakehost::scenario::internal {

namespace {

struct SelectorKey {
  std::string_view key;
  Filter::Kind kind;
};
constexpr SelectorKey kSelectors[] = {
    {"reply_to", Filter::Kind::kReplyTo}, {"response", Filter::Kind::kResponse},
    {"request", Filter::Kind::kRequest},  {"notification", Filter::Kind::kNotification},
    {"any", Filter::Kind::kAny},
};

const SelectorKey* SelectorOf(const std::string& key) {
  for (const SelectorKey& selector : kSelectors) {
    if (selector.key == key) return &selector;
  }
  return nullptr;
}

bool AboutResponse(Filter::Kind kind) {
  return kind == Filter::Kind::kReplyTo || kind == Filter::Kind::kResponse ||
         kind == Filter::Kind::kAny;
}

bool AboutCall(Filter::Kind kind) {
  return kind == Filter::Kind::kRequest || kind == Filter::Kind::kNotification ||
         kind == Filter::Kind::kAny;
}

}  // namespace

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
  const Entry* selector = FilterSelector(body, entries, &out->kind);
  if (selector == nullptr || !ReadSelector(*selector, scope, out, &ok)) return false;
  return ReadFilterParts(entries, *selector, out) && ok;
}

const Entry* Reader::FilterSelector(const Entry& body, const std::vector<Entry>& entries,
                                    Filter::Kind* kind) {
  const Entry* selector = nullptr;
  for (const Entry& entry : entries) {
    const SelectorKey* known = SelectorOf(entry.key);
    if (known == nullptr) continue;
    if (selector != nullptr) {
      Error(entry.key_node.Mark(), "one selector per " + body.key + ": '" + selector->key +
                                       "' and '" + entry.key + "' are both here");
      return nullptr;
    }
    selector = &entry;
    *kind = known->kind;
  }
  if (selector == nullptr) {
    Error(body.key_node.Mark(), body.key +
                                    " needs one of reply_to, response, request, notification "
                                    "or any");
  }
  return selector;
}

bool Reader::ReadSelector(const Entry& selector, const Scope& scope, Filter* out, bool* ok) {
  const YamlNode& value = selector.value;
  switch (out->kind) {
    case Filter::Kind::kReplyTo:
      if (!String(value, "reply_to", &out->name)) return false;
      if (auto it = scope.find(out->name); it == scope.end()) {
        pending_.push_back({out->name, Loc(value.Mark()), UsedFromSuffix()});
        *ok = false;
      } else if (!it->second.is_send) {
        Error(value.Mark(), "reply_to '" + out->name + "' names the expect at " +
                                it->second.loc.ToString() + ", not a send");
        *ok = false;
      }
      break;
    case Filter::Kind::kRequest:
    case Filter::Kind::kNotification:
      *ok = String(value, selector.key, &out->name) && *ok;
      break;
    case Filter::Kind::kResponse:
    case Filter::Kind::kAny: {
      bool yes = false;
      if (!Bool(value, selector.key, &yes)) return false;
      if (!yes) {
        Error(value.Mark(), selector.key + " takes true");
        *ok = false;
      }
      break;
    }
  }
  return true;
}

bool Reader::ReadFilterParts(const std::vector<Entry>& entries, const Entry& selector,
                             Filter* out) {
  const bool about_response = AboutResponse(out->kind);
  struct Part {
    const char* key;
    bool allowed;
    JsonPtr* target;
  };
  const Part parts[] = {{"result", about_response, &out->result},
                        {"error", about_response, &out->error},
                        {"params", AboutCall(out->kind), &out->params},
                        {"message", true, &out->message}};
  bool ok = true;
  for (const Part& part : parts) {
    const Entry* entry = Find(entries, part.key);
    if (entry == nullptr) continue;
    if (!part.allowed) {
      Error(entry->key_node.Mark(),
            std::string(part.key) + " does not apply to " + selector.key + " (" +
                (about_response ? "a response has result or error" : "a request has params") + ")");
      ok = false;
      continue;
    }
    *part.target = Pattern(entry->value);
    ok = *part.target != nullptr && ok;
  }
  return ok;
}

bool Reader::EarlierSend(const Entry& entry, const std::string& key, const Scope& scope,
                         std::string* out) {
  if (!Identifier(entry.value, key, out)) return false;
  if (auto it = scope.find(*out); it == scope.end() || !it->second.is_send) {
    Error(entry.value.Mark(),
          key + " '" + *out + "' names no earlier send with 'as: " + *out + "'");
    return false;
  }
  return true;
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
  if (const Entry* after = Find(siblings, "after"))
    ok = EarlierSend(*after, "after", scope, &out->after) && ok;
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

bool Reader::Read(const BodyInput& in, ExpectNone* out) {
  const std::vector<Entry>& siblings = in.siblings;
  const Scope& scope = *in.scope;
  const YamlMark step_mark = in.body.key_node.Mark();
  bool ok = ReadFilter(in.body, scope, &out->filter);
  if (const Entry* since = Find(siblings, "since")) {
    if (!EarlierSend(*since, "since", scope, &out->since)) return false;
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

bool Reader::Read(const BodyInput& in, ExpectExit* out) {
  const Entry& body = in.body;
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
  const Entry* within = Find(in.siblings, "within");
  if (within == nullptr) {
    Error(body.key_node.Mark(), "expect_exit needs within: (how long to wait for the exit)");
    return false;
  }
  return Duration(within->value, "within", &out->within) && ok;
}

}  // namespace fakehost::scenario::internal
