// The loader's scalar and value readers: each names the value it rejects.
#include <charconv>
#include <csignal>
#include <limits>

#include "harness/json/json.hpp"
#include "harness/os/signals.hpp"
#include "harness/scenario/duration.hpp"
#include "harness/scenario/matcher.hpp"
#include "harness/scenario/matcher_internal.hpp"
#include "harness/scenario/reader.hpp"
#include "harness/scenario/template.hpp"
#include "harness/scenario/yaml_json.hpp"

namespace fakehost::scenario::internal {
namespace {

bool IsIdentifier(std::string_view s) {
  if (s.empty() || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_')) {
    return false;
  }
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
          c == '-')) {
      return false;
    }
  }
  return true;
}

}  // namespace

result::SourceLoc Reader::Loc(const YamlMark& mark) const { return LocOf(file_, mark); }

std::string Reader::UsedFromSuffix() const {
  std::string out;
  for (const result::SourceLoc& loc : used_from_) {
    out += out.empty() ? " (used from " : ", used from ";
    out += loc.ToString();
  }
  return out.empty() ? out : out + ")";
}

void Reader::Error(const YamlMark& mark, const std::string& message) {
  errors_->push_back({Loc(mark), message + UsedFromSuffix()});
}

void Reader::AddSuffix(std::size_t from) {
  const std::string suffix = UsedFromSuffix();
  for (std::size_t i = from; i < errors_->size(); ++i) (*errors_)[i].message += suffix;
}

std::vector<Entry> Reader::Entries(const YamlNode& map) {
  std::vector<Entry> out;
  if (!map.IsMap()) return out;
  for (std::size_t i = 0; i < map.size(); ++i) {
    out.push_back({map.Key(i).Scalar(), map.Key(i), map.Value(i)});
  }
  return out;
}

const Entry* Reader::Find(const std::vector<Entry>& entries, std::string_view key) {
  for (const Entry& entry : entries) {
    if (entry.key == key) return &entry;
  }
  return nullptr;
}

bool Reader::OnlyKeys(const std::vector<Entry>& entries,
                      const std::vector<std::string_view>& allowed, const std::string& what) {
  bool ok = true;
  for (const Entry& entry : entries) {
    bool known = false;
    std::string list;
    for (std::string_view key : allowed) {
      known |= key == entry.key;
      if (!list.empty()) list += ", ";
      list += key;
    }
    if (!known) {
      Error(entry.key_node.Mark(), "unknown key '" + entry.key + "' in " + what +
                                       (list.empty() ? "" : " (allowed: " + list + ")"));
      ok = false;
    }
  }
  return ok;
}

bool Reader::String(const YamlNode& node, const std::string& what, std::string* out) {
  rapidjson::Document doc;
  std::string error;
  if (node.IsDefined() && !node.IsNull() && !node.IsScalar()) {
    Error(node.Mark(), what + " must be a string, not a " + (node.IsMap() ? "map" : "list"));
    return false;
  }
  if (!ScalarToJson(node, &doc, doc.GetAllocator(), &error)) {
    Error(node.Mark(), what + ": " + error);
    return false;
  }
  if (!doc.IsString()) {
    Error(node.Mark(), what + " must be a string, not " + DescribeValue(&doc) +
                           (doc.IsNull() ? "" : " (quote it to make it a string)"));
    return false;
  }
  out->assign(doc.GetString(), doc.GetStringLength());
  return true;
}

bool Reader::Bool(const YamlNode& node, const std::string& what, bool* out) {
  rapidjson::Document doc;
  std::string error;
  if (node.IsScalar() && ScalarToJson(node, &doc, doc.GetAllocator(), &error) && doc.IsBool()) {
    *out = doc.GetBool();
    return true;
  }
  Error(node.Mark(), what + " must be true or false" +
                         (node.IsScalar() ? ", not '" + node.Scalar() + "'" : std::string()));
  return false;
}

bool Reader::Integer(const YamlNode& node, const std::string& what, std::int64_t min,
                     std::int64_t max, std::int64_t* out) {
  rapidjson::Document doc;
  std::string error;
  if (!node.IsScalar() || !ScalarToJson(node, &doc, doc.GetAllocator(), &error) || !doc.IsInt64()) {
    Error(node.Mark(), what + " must be an integer" +
                           (node.IsScalar() ? ", not '" + node.Scalar() + "'" : std::string()));
    return false;
  }
  if (doc.GetInt64() < min || doc.GetInt64() > max) {
    Error(node.Mark(), what + " must be between " + std::to_string(min) + " and " +
                           std::to_string(max) + ", not " + std::to_string(doc.GetInt64()));
    return false;
  }
  *out = doc.GetInt64();
  return true;
}

bool Reader::Duration(const YamlNode& node, const std::string& what, Ms* out) {
  // A map or list is shown as {...} or [...]: its text is not one string.
  const std::string text = node.IsMap() ? "{...}" : node.IsSequence() ? "[...]" : node.Scalar();
  std::string error;
  if (ParseDuration(text, out, &error) && node.IsScalar()) return true;
  Error(node.Mark(), what + ": " + error);
  return false;
}

bool Reader::LevelOf(const YamlNode& node, result::Level* out) {
  const std::string text = node.IsScalar() ? node.Scalar() : std::string();
  if (text == "must") return *out = result::Level::kMust, true;
  if (text == "should") return *out = result::Level::kShould, true;
  if (text == "may") return *out = result::Level::kMay, true;
  Error(node.Mark(), "bad level " + (node.IsScalar() ? "'" + text + "'" : std::string("value")) +
                         " (must, should or may)");
  return false;
}

bool Reader::Pointer(const YamlNode& node, const std::string& what, std::string* out) {
  if (!String(node, what, out)) return false;
  bool ok = !out->empty() && (*out)[0] == '/';
  for (std::size_t i = 0; ok && i < out->size(); ++i) {
    if ((*out)[i] == '~')
      ok = i + 1 < out->size() && ((*out)[i + 1] == '0' || (*out)[i + 1] == '1');
  }
  if (!ok) {
    Error(node.Mark(), what + " must be a JSON pointer such as \"/commands\", not '" + *out + "'");
  }
  return ok;
}

bool Reader::SignalOf(const YamlNode& node, int* number, std::string* name) {
  const std::string text = node.IsScalar() ? node.Scalar() : std::string();
  if (int n = os::SignalNumber(text); n != 0) {
    *number = n;
    *name = os::SignalName(n);
    return true;
  }
  Error(node.Mark(), "unknown signal '" + text +
                         "' (a name such as TERM, KILL, INT, HUP, USR1, "
                         "or a number from 1 to 64)");
  return false;
}

bool Reader::Identifier(const YamlNode& node, const std::string& what, std::string* out) {
  if (!String(node, what, out)) return false;
  if (IsIdentifier(*out)) return true;
  Error(node.Mark(), "bad name '" + *out + "' for " + what +
                         " (letters, digits, '_' and '-', starting with a letter or '_')");
  return false;
}

JsonPtr Reader::Json(const YamlNode& node) {
  auto doc = std::make_shared<rapidjson::Document>();
  const std::size_t before = errors_->size();
  if (!YamlToJson(node, file_, doc.get(), doc->GetAllocator(), errors_)) {
    AddSuffix(before);
    return nullptr;
  }
  std::vector<std::pair<std::string, std::string>> template_errors;
  CheckTemplates(*doc, &template_errors);
  for (const auto& [pointer, message] : template_errors) {
    Error(MarkAt(node, pointer, false), message);
  }
  if (!template_errors.empty()) return nullptr;
  if (vars_ && HasVariables(*doc)) {
    // The expansion cap (template.hpp), with the values known now: a capture counts as empty.
    auto lookup = [this](std::string_view path) -> const rapidjson::Value* {
      std::string_view head = path.substr(0, path.find('.'));
      auto var = vars_->find(std::string(head));
      if (var == vars_->end() || !var->second) return nullptr;
      const rapidjson::Value* v = var->second.get();
      std::string_view rest = head.size() < path.size() ? path.substr(head.size() + 1) : "";
      while (v && !rest.empty()) {
        std::string_view seg = rest.substr(0, rest.find('.'));
        rest = seg.size() < rest.size() ? rest.substr(seg.size() + 1) : "";
        if (v->IsObject()) {
          v = json::Find(*v, seg);
        } else if (v->IsArray() && !seg.empty() && seg.size() < 10 &&
                   seg.find_first_not_of("0123456789") == std::string_view::npos) {
          std::size_t i = std::stoul(std::string(seg));
          v = i < v->Size() ? &(*v)[static_cast<rapidjson::SizeType>(i)] : nullptr;
        } else {
          v = nullptr;
        }
      }
      return v;
    };
    std::string pointer, message;
    if (!CheckExpansion(*doc, lookup, &pointer, &message)) {
      Error(MarkAt(node, pointer, false), message);
      return nullptr;
    }
  }
  return doc;
}

JsonPtr Reader::Pattern(const YamlNode& node) {
  JsonPtr doc = Json(node);
  if (doc == nullptr) return nullptr;
  std::vector<PatternError> pattern_errors;
  if (CheckPattern(*doc, &pattern_errors)) return doc;
  for (const PatternError& e : pattern_errors) {
    Error(MarkAt(node, e.pointer, e.at_key), e.message);
  }
  return nullptr;
}

}  // namespace fakehost::scenario::internal
