#include "harness/plugin/cross_rules.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <regex>
#include <set>

#include "harness/json/json.hpp"
#include "harness/plugin/json_locate.hpp"
#include "harness/plugin/launch.hpp"
#include "harness/text/template.hpp"

namespace fakehost::plugin {
namespace {

namespace fs = std::filesystem;

// libstdc++'s std::regex recurses per character: longer subjects are refused unmatched.
constexpr std::size_t kMaxRegexSubject = 4096;

bool Flag(const rapidjson::Value& rule, const char* key) {
  const rapidjson::Value* v = json::Find(rule, key);
  return v && v->IsBool() && v->GetBool();
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string Text(const rapidjson::Value& v) {
  return v.IsString() ? std::string(v.GetString(), v.GetStringLength()) : json::ToCompact(v);
}

// The rule's message with ${value} filled; CheckRuleData let through no other placeholder.
std::string Render(const rapidjson::Value& rule, const rapidjson::Value* value) {
  const std::string message = json::StringMember(rule, "message");
  std::string out, error;
  const bool ok = text::Fill(
      message,
      [&](std::string_view name) -> std::optional<std::string> {
        if (name != "value") return std::nullopt;
        return value ? json::Abbreviate(json::ToCompact(*value), 120) : "(absent)";
      },
      &out, &error);
  return ok ? out : message;
}

Finding Make(const rapidjson::Value& rule, const rapidjson::Value& root, const std::string& at,
             std::string text = "") {
  Finding f;
  f.rule = json::StringMember(rule, "rule");
  f.pointer = at;
  f.locate = at;
  f.text = text.empty() ? Render(rule, json::Resolve(root, at)) : std::move(text);
  return f;
}

// A condition's verdict and where it points: for `contains`, the matching element.
struct Verdict {
  bool holds = false;
  std::string at;  // "" when nothing there
};

Verdict Evaluate(const rapidjson::Value& cond, const rapidjson::Value& root,
                 const std::string& base) {
  const std::string pointer = base + json::StringMember(cond, "pointer");
  const rapidjson::Value* v = json::Resolve(root, pointer);
  Verdict out;
  out.at = v ? pointer : "";
  if (const rapidjson::Value* present = json::Find(cond, "present")) {
    out.holds = (v != nullptr) == (present->IsBool() && present->GetBool());
  } else if (const rapidjson::Value* eq = json::Find(cond, "equals")) {
    out.holds = v && json::StrictEqual(*v, *eq);
  } else if (const rapidjson::Value* ne = json::Find(cond, "not_equals")) {
    out.holds = !v || !json::StrictEqual(*v, *ne);
  } else if (const rapidjson::Value* item = json::Find(cond, "contains")) {
    if (v && v->IsArray())
      for (rapidjson::SizeType i = 0; i < v->Size(); ++i)
        if (json::StrictEqual((*v)[i], *item)) {
          out.holds = true;
          out.at = pointer + "/" + std::to_string(i);
          break;
        }
  } else if (json::Find(cond, "non_empty")) {
    out.holds = v && ((v->IsArray() && !v->Empty()) || (v->IsObject() && !v->ObjectEmpty()) ||
                      (v->IsString() && v->GetStringLength() > 0));
  }
  return out;
}

bool AllHold(const rapidjson::Value* conds, const rapidjson::Value& root, const std::string& base,
             std::string* first_at) {
  if (!conds) return true;
  for (const auto& c : conds->GetArray()) {
    Verdict v = Evaluate(c, root, base);
    if (!v.holds) return false;
    if (first_at && first_at->empty()) *first_at = v.at;
  }
  return true;
}

void Iff(const rapidjson::Value& rule, const rapidjson::Value& root, std::vector<Finding>* out) {
  Verdict a = Evaluate(*json::Find(rule, "a"), root, "");
  Verdict b = Evaluate(*json::Find(rule, "b"), root, "");
  if (a.holds == b.holds) return;
  const rapidjson::Value& messages = *json::Find(rule, "messages");
  std::string text = json::StringMember(messages, a.holds ? "a_only" : "b_only");
  out->push_back(Make(rule, root, a.holds ? a.at : b.at, text));
}

void Implies(const rapidjson::Value& rule, const rapidjson::Value& root,
             std::vector<Finding>* out) {
  if (!AllHold(json::Find(rule, "when"), root, "", nullptr)) return;
  std::vector<std::string> items = {""};
  if (json::Find(rule, "each")) items = ExpandPointer(root, json::StringMember(rule, "each"));
  const bool at_if = json::StringMember(rule, "at") == "if";
  for (const std::string& item : items) {
    std::string if_at;
    if (!AllHold(json::Find(rule, "if"), root, item, &if_at)) continue;
    for (const auto& then : json::Find(rule, "then")->GetArray()) {
      Verdict v = Evaluate(then, root, item);
      if (v.holds) continue;
      std::string at = at_if ? if_at : v.at;
      out->push_back(Make(rule, root, at.empty() ? item : at));
    }
  }
}

void Unique(const rapidjson::Value& rule, const rapidjson::Value& root, std::vector<Finding>* out) {
  std::set<std::string> seen;
  for (const std::string& p : ExpandPointer(root, json::StringMember(rule, "each"))) {
    const rapidjson::Value* v = json::Resolve(root, p);
    std::string key = Text(*v);
    if (Flag(rule, "case_insensitive")) key = Lower(key);
    if (!seen.insert(key).second) out->push_back(Make(rule, root, p));
  }
}

void RefersTo(const rapidjson::Value& rule, const rapidjson::Value& root,
              std::vector<Finding>* out) {
  const bool fold = Flag(rule, "case_insensitive");
  std::set<std::string> declared;
  for (const std::string& p : ExpandPointer(root, json::StringMember(rule, "declared"))) {
    std::string key = Text(*json::Resolve(root, p));
    declared.insert(fold ? Lower(key) : key);
  }
  for (const std::string& p : ExpandPointer(root, json::StringMember(rule, "each"))) {
    std::string key = Text(*json::Resolve(root, p));
    if (!declared.count(fold ? Lower(key) : key)) out->push_back(Make(rule, root, p));
  }
}

void AllEqual(const rapidjson::Value& rule, const rapidjson::Value& root,
              std::vector<Finding>* out) {
  const rapidjson::Value* fallback = json::Find(rule, "default");
  const std::string member = json::StringMember(rule, "value");
  const rapidjson::Value* first = nullptr;
  for (const std::string& item : ExpandPointer(root, json::StringMember(rule, "each"))) {
    const rapidjson::Value* v = json::Resolve(root, item + member);
    if (!v) v = fallback;
    if (!first) {
      first = v;
    } else if (!json::StrictEqual(*v, *first)) {
      out->push_back(Make(rule, root, json::Resolve(root, item + member) ? item + member : item));
    }
  }
}

// "plugin.${/plugin_id}." with the pointers resolved; false if one does not name a string.
bool Expand(const std::string& pattern, const rapidjson::Value& root, std::string* out) {
  std::string error;
  return text::Fill(
      pattern,
      [&](std::string_view pointer) -> std::optional<std::string> {
        const rapidjson::Value* v = json::Resolve(root, pointer);
        if (!v || !v->IsString()) return std::nullopt;
        return std::string(v->GetString(), v->GetStringLength());
      },
      out, &error);
}

void Prefixed(const rapidjson::Value& rule, const rapidjson::Value& root,
              std::vector<Finding>* out) {
  std::string prefix;
  if (!Expand(json::StringMember(rule, "prefix"), root, &prefix))
    return;  // the id's own rule reports that
  const std::string when = json::StringMember(rule, "when_prefix");
  const std::string rest_pattern = json::StringMember(rule, "rest_pattern");
  for (const std::string& p : ExpandPointer(root, json::StringMember(rule, "each"))) {
    const rapidjson::Value* v = json::Resolve(root, p);
    if (!v->IsString()) continue;
    std::string_view s(v->GetString(), v->GetStringLength());
    if (s.substr(0, when.size()) != when) continue;
    const bool scoped = s.substr(0, prefix.size()) == prefix;
    if (rest_pattern.empty()) {
      if (!scoped) out->push_back(Make(rule, root, p));
      continue;
    }
    if (!scoped) continue;
    std::string rest(s.substr(prefix.size()));
    if (rest.size() > kMaxRegexSubject || !std::regex_match(rest, std::regex(rest_pattern)))
      out->push_back(Make(rule, root, p));
  }
}

bool PathInsideHolds(const rapidjson::Value& rule, const std::string& path) {
  if (path.empty()) return true;  // the shape's rules report an empty path
  if (path[0] == '/') return json::StringMember(rule, "absolute") == "allowed";
  if (path.find('/') == std::string::npos && json::StringMember(rule, "bare") == "path")
    return true;
  return PathStaysInside(path);
}

void PathInside(const rapidjson::Value& rule, const rapidjson::Value& root, const std::string& dir,
                std::vector<Finding>* out) {
  const std::string at = json::StringMember(rule, "pointer");
  const rapidjson::Value* v = json::Resolve(root, at);
  if (!v || !v->IsString()) return;
  const std::string path = v->GetString();
  bool holds = PathInsideHolds(rule, path);
  // symlinks: "resolve": a relative path that stays inside as written must also stay inside
  // once its symlinks are resolved (only where the plugin directory is known).
  std::string resolved;
  if (holds && json::StringMember(rule, "symlinks") == "resolve" && !dir.empty() && !path.empty() &&
      path[0] != '/')
    holds = ResolvesInside(dir, path, &resolved);
  if (!holds) out->push_back(Make(rule, root, at));
}

void File(const rapidjson::Value& rule, const rapidjson::Value& root, const std::string& dir,
          std::vector<Finding>* out) {
  const std::string at = json::StringMember(rule, "pointer");
  const rapidjson::Value* v = json::Resolve(root, at);
  if (!v || !v->IsString() || v->GetStringLength() == 0) return;
  std::string path = v->GetString();
  if (path[0] == '/' || !PathStaysInside(path)) return;  // path-inside's finding
  const std::string full = (fs::path(dir) / path).string();
  struct stat st {};
  const bool regular = ::stat(full.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  if (json::StringMember(rule, "require") == "executable") {
    // Only a file that is there can fail this rule; a missing one fails "regular".
    if (regular && ::access(full.c_str(), X_OK) != 0) out->push_back(Make(rule, root, at));
  } else if (!regular) {
    out->push_back(Make(rule, root, at));
  }
}

bool Fail(std::string* error, std::size_t i, const std::string& what) {
  *error = "/manifest/rules/" + std::to_string(i) + ": " + what;
  return false;
}

bool CondsOk(const rapidjson::Value* conds, bool required) {
  if (!conds) return !required;
  if (!conds->IsArray()) return false;
  for (const auto& c : conds->GetArray())
    if (!c.IsObject() || !json::Find(c, "pointer")) return false;
  return true;
}

// Every placeholder in `pattern` is `only` (or, with `only` empty, a JSON pointer: "${/a/b}").
bool PlaceholdersOk(const std::string& pattern, std::string_view only, std::string* why) {
  std::vector<text::Piece> pieces;
  if (!text::Split(pattern, &pieces, why)) return false;
  for (const text::Piece& piece : pieces) {
    if (!piece.placeholder) continue;
    const bool good =
        only.empty() ? piece.text.substr(0, 1) == "/" : text::Placeholder(piece.text) == only;
    if (!good) {
      *why = "unknown placeholder " + text::Placeholder(piece.text) + " in \"" + pattern + "\" (" +
             (only.empty() ? std::string("a JSON pointer into the manifest") : std::string(only)) +
             " only)";
      return false;
    }
  }
  return true;
}

}  // namespace

std::vector<std::string> ExpandPointer(const rapidjson::Value& root, std::string_view pattern) {
  std::vector<std::string> out = {""};
  for (const std::string& token : PointerTokens(pattern)) {
    std::vector<std::string> next;
    for (const std::string& base : out) {
      const rapidjson::Value* v = json::Resolve(root, base);
      if (!v) continue;
      if (token != "*") {
        std::string p = base + "/" + json::EscapePointerToken(token);
        if (json::Resolve(root, p)) next.push_back(p);
      } else if (v->IsArray()) {
        for (rapidjson::SizeType i = 0; i < v->Size(); ++i)
          next.push_back(base + "/" + std::to_string(i));
      } else if (v->IsObject()) {
        for (const auto& m : v->GetObject())
          next.push_back(base + "/" +
                         json::EscapePointerToken({m.name.GetString(), m.name.GetStringLength()}));
      }
    }
    out = std::move(next);
  }
  return out;
}

bool CheckRuleData(const rapidjson::Value& rules, std::string* error) {
  static const std::set<std::string> kKinds = {"iff",       "implies",  "unique",      "refers-to",
                                               "all-equal", "prefixed", "path-inside", "file"};
  for (rapidjson::SizeType i = 0; i < rules.Size(); ++i) {
    const rapidjson::Value& r = rules[i];
    if (!r.IsObject()) return Fail(error, i, "expected an object");
    const std::string kind = json::StringMember(r, "kind");
    if (json::StringMember(r, "rule").empty()) return Fail(error, i, "missing \"rule\" (its id)");
    if (!kKinds.count(kind)) return Fail(error, i, "unknown kind '" + kind + "'");
    if (json::StringMember(r, "source").empty()) return Fail(error, i, "missing \"source\"");
    bool ok = true;
    if (kind == "iff") {
      const rapidjson::Value* m = json::Find(r, "messages");
      const rapidjson::Value* a = json::Find(r, "a");
      const rapidjson::Value* b = json::Find(r, "b");
      ok = a && a->IsObject() && json::Find(*a, "pointer") && b && b->IsObject() &&
           json::Find(*b, "pointer") && m && m->IsObject() &&
           !json::StringMember(*m, "a_only").empty() && !json::StringMember(*m, "b_only").empty();
    } else {
      ok = !json::StringMember(r, "message").empty();
    }
    if (kind == "implies")
      ok = ok && CondsOk(json::Find(r, "when"), false) && CondsOk(json::Find(r, "if"), false) &&
           CondsOk(json::Find(r, "then"), true);
    if (kind == "unique" || kind == "refers-to" || kind == "all-equal" || kind == "prefixed")
      ok = ok && !json::StringMember(r, "each").empty();
    if (kind == "refers-to") ok = ok && !json::StringMember(r, "declared").empty();
    if (kind == "all-equal")
      ok = ok && json::Find(r, "default") && !json::StringMember(r, "value").empty();
    if (kind == "prefixed") ok = ok && !json::StringMember(r, "prefix").empty();
    if (kind == "path-inside" || kind == "file")
      ok = ok && !json::StringMember(r, "pointer").empty();
    if (kind == "path-inside" && json::Find(r, "symlinks"))
      ok = ok && (json::StringMember(r, "symlinks") == "resolve" ||
                  json::StringMember(r, "symlinks") == "as-written");
    if (!ok) return Fail(error, i, "incomplete " + kind + " rule (see cross_rules.hpp)");
    if (std::string why;
        !PlaceholdersOk(json::StringMember(r, "message"), "${value}", &why) ||
        (kind == "prefixed" && !PlaceholdersOk(json::StringMember(r, "prefix"), "", &why)))
      return Fail(error, i, why);
    if (kind == "prefixed" && !json::StringMember(r, "rest_pattern").empty()) {
      try {
        std::regex check(json::StringMember(r, "rest_pattern"));
      } catch (const std::regex_error& e) {
        return Fail(error, i, std::string("rest_pattern: ") + e.what());
      }
    }
  }
  return true;
}

void ApplyRules(const rapidjson::Value& rules, const rapidjson::Value& manifest,
                const std::string& plugin_dir, std::vector<Finding>* out) {
  for (const auto& rule : rules.GetArray()) {
    const std::string kind = json::StringMember(rule, "kind");
    if (kind == "iff") Iff(rule, manifest, out);
    if (kind == "implies") Implies(rule, manifest, out);
    if (kind == "unique") Unique(rule, manifest, out);
    if (kind == "refers-to") RefersTo(rule, manifest, out);
    if (kind == "all-equal") AllEqual(rule, manifest, out);
    if (kind == "prefixed") Prefixed(rule, manifest, out);
    if (kind == "path-inside") PathInside(rule, manifest, plugin_dir, out);
    if (kind == "file") File(rule, manifest, plugin_dir, out);
  }
}

}  // namespace fakehost::plugin
