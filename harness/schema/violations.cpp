#include "harness/schema/violations.hpp"

#include <algorithm>
#include <regex>
#include <string_view>

#include "harness/json/json.hpp"

namespace fakehost::schema {
namespace {

// valijson's own wording (validation_visitor.hpp, valijson 1.0).
constexpr std::string_view kPropertyWrapper =
    "Failed to validate against schema associated with property name '";
constexpr std::string_view kUnexpectedProperty =
    "Object contains a property that could not be validated using 'properties' or "
    "'additionalProperties' constraints: '";
constexpr std::string_view kMissing = "Missing required property '";
constexpr std::string_view kItemWrapper = "Failed to validate item #";
constexpr std::string_view kPatternWrapper =
    "Failed to validate against schema associated with pattern '";
constexpr std::string_view kSummaries[] = {
    kPatternWrapper,
    "Failed to validate against additional properties schema",
    "Failed to validate against a conditional schema",
    "Failed to validate against any schemas allowed by anyOf",
    "Failed to validate against any child schemas allowed by oneOf",
    "Failed to validate against child schema #",
    "Failed to validate against dependent schema",
};

// base + "/" + escaped token. (Written with append: g++ 12 warns falsely, -Wrestrict, on
// "literal" + std::string here.)
std::string Child(std::string base, std::string_view token) {
  base.append("/").append(json::EscapePointerToken(token));
  return base;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// The quoted name in "...prefix'name'." (names may contain quotes: cut at the last "'").
std::string QuotedTail(std::string_view s, std::string_view prefix) {
  std::string_view rest = s.substr(prefix.size());
  const std::size_t end = rest.rfind('\'');
  return std::string(end == std::string_view::npos ? rest : rest.substr(0, end));
}

enum class Role { kReason, kChildWrapper, kSummary };

struct Item {
  std::string pointer;  // where the message belongs
  std::string message;
  Role role = Role::kReason;
  std::string object;    // unexpected property: the object's pointer ...
  std::string property;  // ... and the property's name
  std::string pattern;   // pattern wrapper: the pattern
  std::string missing;   // missing required property: its name
};

Item MakeItem(std::string pointer, std::string message, Role role) {
  Item item;
  item.pointer = std::move(pointer);
  item.message = std::move(message);
  item.role = role;
  return item;
}

// valijson stops checking patternProperties at the first property that fails its schema, and
// then reports the properties it did not reach as unexpected (additionalProperties: false).
// Such a report is false when the property matches a pattern that failed at the same object.
bool MatchesAFailedPattern(const std::vector<Item>& items, const Item& unexpected) {
  for (const Item& i : items) {
    if (i.pattern.empty() || i.pointer != unexpected.object) continue;
    try {
      if (std::regex_search(unexpected.property, std::regex(i.pattern))) return true;
    } catch (const std::regex_error&) {
      // The schema's patterns compiled at load; nothing to learn here.
    }
  }
  return false;
}

std::string Got(const rapidjson::Value& frame, const std::string& pointer) {
  const rapidjson::Value* value = json::Resolve(frame, pointer);
  if (value == nullptr) return "";
  if (value->IsNull()) return " (got null)";
  return std::string(" (got ") + json::TypeName(*value) + " " +
         json::Abbreviate(json::ToCompact(*value), 80) + ")";
}

std::string Trimmed(std::string_view message) {
  if (!message.empty() && message.back() == '.') message.remove_suffix(1);
  return std::string(message);
}

Item Classify(const RawError& error, const rapidjson::Value& frame) {
  const std::string at = ContextToPointer(error.context);
  const std::string_view d = error.description;
  if (StartsWith(d, kPropertyWrapper)) {
    const std::string name = QuotedTail(d, kPropertyWrapper);
    return MakeItem(Child(at, name), "property '" + name + "' is not allowed here",
                    Role::kChildWrapper);
  }
  if (StartsWith(d, kItemWrapper)) {
    // "Failed to validate item #N in array." comes at the array; the "... against
    // corresponding item schema." form already carries the item in its context.
    std::string pointer = at;
    std::string index(d.substr(kItemWrapper.size()));
    index = index.substr(0, index.find(' '));
    if (d.find(" in array") != std::string_view::npos) pointer = Child(pointer, index);
    return MakeItem(pointer, "item " + index + " is not allowed here", Role::kChildWrapper);
  }
  for (std::string_view summary : kSummaries) {
    if (!StartsWith(d, summary)) continue;
    Item item = MakeItem(at, Trimmed(d), Role::kSummary);
    if (summary == kPatternWrapper) item.pattern = QuotedTail(d, kPatternWrapper);
    return item;
  }
  if (StartsWith(d, kUnexpectedProperty)) {
    const std::string name = QuotedTail(d, kUnexpectedProperty);
    Item item = MakeItem(Child(at, name),
                         "unexpected property '" + name + "' (additionalProperties is false)",
                         Role::kReason);
    item.object = at;
    item.property = name;
    return item;
  }
  if (StartsWith(d, kMissing)) {
    Item item =
        MakeItem(at, "missing required property '" + QuotedTail(d, kMissing) + "'", Role::kReason);
    item.missing = QuotedTail(d, kMissing);
    return item;
  }
  return MakeItem(at, Trimmed(d) + Got(frame, at), Role::kReason);
}

// A property reported as unexpected that matches a pattern which failed is not unexpected: the
// pattern's failure is the reason.
void DropPropertiesAPatternMatches(std::vector<Item>* items) {
  std::vector<Item> unexpected_but_matching;
  for (const Item& i : *items) {
    if (!i.property.empty() && MatchesAFailedPattern(*items, i))
      unexpected_but_matching.push_back(i);
  }
  items->erase(std::remove_if(items->begin(), items->end(),
                              [&](const Item& i) {
                                return std::any_of(
                                    unexpected_but_matching.begin(), unexpected_but_matching.end(),
                                    [&](const Item& u) {
                                      return u.pointer == i.pointer && u.message == i.message;
                                    });
                              }),
               items->end());
}

// Which items state a reason: the reasons themselves, and a wrapper whose child has no reason
// and so failed silently (a false schema), unless a deeper silent wrapper explains it.
std::vector<bool> KeepReasons(const std::vector<Item>& items) {
  auto reason_at_or_below = [&](const std::string& base) {
    return std::any_of(items.begin(), items.end(), [&](const Item& i) {
      return i.role == Role::kReason && PointerAtOrBelow(i.pointer, base);
    });
  };
  std::vector<bool> keep(items.size(), false);
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].role == Role::kReason) keep[i] = true;
    if (items[i].role == Role::kChildWrapper) keep[i] = !reason_at_or_below(items[i].pointer);
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!keep[i] || items[i].role != Role::kChildWrapper) continue;
    for (std::size_t j = 0; j < items.size(); ++j) {
      if (j != i && keep[j] && items[j].role == Role::kChildWrapper &&
          items[j].pointer != items[i].pointer &&
          PointerAtOrBelow(items[j].pointer, items[i].pointer)) {
        keep[i] = false;
        break;
      }
    }
  }
  return keep;
}

// A summary stands only when nothing kept explains it.
void KeepUnexplainedSummaries(const std::vector<Item>& items, std::vector<bool>* keep) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].role != Role::kSummary) continue;
    (*keep)[i] = true;
    for (std::size_t j = 0; j < items.size(); ++j) {
      if ((*keep)[j] && items[j].role != Role::kSummary &&
          PointerAtOrBelow(items[j].pointer, items[i].pointer)) {
        (*keep)[i] = false;
        break;
      }
    }
  }
}

// One violation per pointer, in order of first appearance, distinct messages joined.
std::vector<Violation> GroupByPointer(const std::vector<Item>& items,
                                      const std::vector<bool>& keep) {
  struct Group {
    std::string pointer;
    std::vector<std::string> messages, missing;
  };
  std::vector<Group> grouped;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!keep[i]) continue;
    auto it = std::find_if(grouped.begin(), grouped.end(),
                           [&](const Group& g) { return g.pointer == items[i].pointer; });
    if (it == grouped.end()) it = grouped.insert(grouped.end(), Group{items[i].pointer, {}, {}});
    if (std::find(it->messages.begin(), it->messages.end(), items[i].message) ==
        it->messages.end()) {
      it->messages.push_back(items[i].message);
      if (!items[i].missing.empty()) it->missing.push_back(items[i].missing);
    }
  }
  std::vector<Violation> out;
  out.reserve(grouped.size());
  for (Group& g : grouped) {
    if (g.missing.size() != g.messages.size()) g.missing.clear();
    Violation v{std::move(g.pointer), std::move(g.messages.front()), std::move(g.missing)};
    for (std::size_t m = 1; m < g.messages.size(); ++m)
      v.message.append("; ").append(g.messages[m]);
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace

std::string ContextToPointer(const std::vector<std::string>& context) {
  std::string pointer;
  for (const std::string& part : context) {
    if (part.size() >= 2 && part.front() == '[' && part.back() == ']') {
      pointer = Child(std::move(pointer), std::string_view(part).substr(1, part.size() - 2));
    }  // "<root>" adds nothing
  }
  return pointer;
}

std::vector<Violation> TargetViolations(const std::vector<RawError>& errors,
                                        const rapidjson::Value& frame) {
  std::vector<Item> items;
  items.reserve(errors.size());
  for (const RawError& e : errors) items.push_back(Classify(e, frame));
  DropPropertiesAPatternMatches(&items);
  std::vector<bool> keep = KeepReasons(items);
  KeepUnexplainedSummaries(items, &keep);
  return GroupByPointer(items, keep);
}

}  // namespace fakehost::schema
