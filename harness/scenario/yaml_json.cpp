#include "harness/scenario/yaml_json.hpp"

#include <charconv>
#include <cstdint>
#include <iterator>
#include <set>

#include <yaml-cpp/depthguard.h>

namespace fakehost::scenario {
namespace {

constexpr std::string_view kStrTag = "tag:yaml.org,2002:str";
constexpr std::string_view kMapTag = "tag:yaml.org,2002:map";
constexpr std::string_view kSeqTag = "tag:yaml.org,2002:seq";

bool IsDigits(std::string_view s, bool (*ok)(char)) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!ok(c)) return false;
  }
  return true;
}
bool IsDec(char c) { return c >= '0' && c <= '9'; }
bool IsOct(char c) { return c >= '0' && c <= '7'; }
bool IsHex(char c) { return IsDec(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?, the core schema's float, minus the
// integer-only case that the caller has already handled.
bool LooksLikeFloat(std::string_view s) {
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  std::size_t int_digits = 0, frac_digits = 0;
  while (i < s.size() && IsDec(s[i])) ++i, ++int_digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && IsDec(s[i])) ++i, ++frac_digits;
    if (int_digits == 0 && frac_digits == 0) return false;
  } else if (int_digits == 0) {
    return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    if (!IsDigits(s.substr(i), IsDec)) return false;
    return true;
  }
  return i == s.size();
}

bool IsInfOrNan(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  return s == ".inf" || s == ".Inf" || s == ".INF" || s == ".nan" || s == ".NaN" || s == ".NAN";
}

// Returns false with *error set if the plain scalar looks like a number JSON cannot hold.
bool PlainScalarToJson(const std::string& text, rapidjson::Value* out,
                       rapidjson::Document::AllocatorType& alloc, std::string* error) {
  std::string_view s = text;
  if (s == "true" || s == "True" || s == "TRUE") return out->SetBool(true), true;
  if (s == "false" || s == "False" || s == "FALSE") return out->SetBool(false), true;
  if (s == "null" || s == "Null" || s == "NULL" || s == "~" || s.empty()) {
    return out->SetNull(), true;
  }
  std::string_view body = s;
  bool negative = false;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  int base = 0;
  std::string_view digits;
  if (IsDigits(body, IsDec)) {
    base = 10, digits = body;
  } else if (s.size() > 2 && s[0] == '0' && s[1] == 'o' && IsDigits(s.substr(2), IsOct)) {
    base = 8, digits = s.substr(2);
  } else if (s.size() > 2 && s[0] == '0' && s[1] == 'x' && IsDigits(s.substr(2), IsHex)) {
    base = 16, digits = s.substr(2);
  }
  if (base != 0) {
    std::uint64_t magnitude = 0;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
    const std::uint64_t limit = negative ? (std::uint64_t{1} << 63) : (std::uint64_t{1} << 63) - 1;
    if (ec != std::errc() || ptr != digits.data() + digits.size() || magnitude > limit) {
      *error = "integer " + text + " is outside the 64-bit signed range";
      return false;
    }
    if (negative) {
      out->SetInt64(magnitude == (std::uint64_t{1} << 63) ? INT64_MIN
                                                          : -static_cast<std::int64_t>(magnitude));
    } else {
      out->SetInt64(static_cast<std::int64_t>(magnitude));
    }
    return true;
  }
  if (LooksLikeFloat(s)) {
    std::string_view f = s[0] == '+' ? s.substr(1) : s;
    double value = 0;
    auto [ptr, ec] = std::from_chars(f.data(), f.data() + f.size(), value);
    if (ec != std::errc() || ptr != f.data() + f.size()) {
      *error = "number " + text + " is out of range";
      return false;
    }
    out->SetDouble(value);
    return true;
  }
  if (IsInfOrNan(s)) {
    *error = "'" + text + "' has no JSON representation (quote it to make it a string)";
    return false;
  }
  out->SetString(text.data(), static_cast<rapidjson::SizeType>(text.size()), alloc);
  return true;
}

class TreeChecker {
 public:
  TreeChecker(const std::string& file, std::vector<LoadError>* errors)
      : file_(file), errors_(errors) {}

  void Check(const YAML::Node& node, int depth) {
    if (depth > kMaxYamlDepth) {
      Add(node.Mark(),
          "nesting deeper than " + std::to_string(kMaxYamlDepth) + " levels (a recursive alias?)");
      return;
    }
    if (node.IsSequence()) {
      for (const YAML::Node& item : node) Check(item, depth + 1);
    } else if (node.IsMap()) {
      std::set<std::string> seen;
      for (auto it = node.begin(); it != node.end(); ++it) {
        const YAML::Node key = it->first;  // a copy: it->first lives in a temporary proxy
        if (!key.IsScalar()) {
          Add(key.Mark(), "a key must be a plain string, not a list, map or null");
        } else if (!seen.insert(key.Scalar()).second) {
          Add(key.Mark(), "duplicate key '" + key.Scalar() + "'");
        }
        Check(it->second, depth + 1);
      }
    }
  }
  bool ok() const { return ok_; }

 private:
  void Add(const YAML::Mark& mark, std::string message) {
    ok_ = false;
    errors_->push_back({LocOf(file_, mark), std::move(message)});
  }
  const std::string& file_;
  std::vector<LoadError>* errors_;
  bool ok_ = true;
};

bool Convert(const YAML::Node& node, const std::string& file, rapidjson::Value* out,
             rapidjson::Document::AllocatorType& alloc, std::vector<LoadError>* errors, int depth) {
  if (depth > kMaxYamlDepth) {
    errors->push_back({LocOf(file, node.Mark()), "nesting too deep"});
    return false;
  }
  const std::string& tag = node.Tag();
  if (node.IsSequence() || node.IsMap()) {
    if (tag != "?" && tag != "!" && tag != kMapTag && tag != kSeqTag) {
      errors->push_back({LocOf(file, node.Mark()), "unsupported YAML tag '" + tag + "'"});
      return false;
    }
  }
  bool ok = true;
  if (node.IsSequence()) {
    out->SetArray();
    for (const YAML::Node& item : node) {
      rapidjson::Value v;
      ok = Convert(item, file, &v, alloc, errors, depth + 1) && ok;
      out->PushBack(v, alloc);
    }
  } else if (node.IsMap()) {
    out->SetObject();
    for (auto it = node.begin(); it != node.end(); ++it) {
      rapidjson::Value k, v;
      const std::string key = it->first.IsScalar() ? it->first.Scalar() : std::string();
      k.SetString(key.data(), static_cast<rapidjson::SizeType>(key.size()), alloc);
      ok = Convert(it->second, file, &v, alloc, errors, depth + 1) && ok;
      out->AddMember(k, v, alloc);
    }
  } else {
    std::string error;
    if (!ScalarToJson(node, out, alloc, &error)) {
      errors->push_back({LocOf(file, node.Mark()), error});
      return false;
    }
  }
  return ok;
}

// RFC 6901 token decoding (~1 -> '/', ~0 -> '~').
std::string DecodeToken(std::string_view token) {
  std::string out;
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '~' && i + 1 < token.size()) {
      out += token[i + 1] == '1' ? '/' : '~';
      ++i;
    } else {
      out += token[i];
    }
  }
  return out;
}

}  // namespace

SourceLoc LocOf(const std::string& file, const YAML::Mark& mark) {
  if (mark.line < 0) return {file, 1, 1};
  return {file, mark.line + 1, mark.column + 1};
}

bool ParseYaml(std::string_view text, const std::string& file, YAML::Node* out,
               std::vector<LoadError>* errors) {
  std::vector<YAML::Node> docs;
  try {
    docs = YAML::LoadAll(std::string(text));
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp words this one "bad file".
    errors->push_back({LocOf(file, e.mark), "nesting too deep for the YAML parser"});
    return false;
  } catch (const YAML::Exception& e) {
    errors->push_back({LocOf(file, e.mark), e.msg});
    return false;
  }
  if (docs.size() > 1) {
    errors->push_back({LocOf(file, docs[1].Mark()),
                       "a file holds one YAML document, not " + std::to_string(docs.size())});
    return false;
  }
  // Node::operator= assigns through references in yaml-cpp; reset() rebinds.
  out->reset(docs.empty() ? YAML::Node(YAML::NodeType::Null) : docs[0]);
  return true;
}

bool CheckYamlTree(const YAML::Node& node, const std::string& file,
                   std::vector<LoadError>* errors) {
  TreeChecker checker(file, errors);
  checker.Check(node, 0);
  return checker.ok();
}

bool YamlToJson(const YAML::Node& node, const std::string& file, rapidjson::Value* out,
                rapidjson::Document::AllocatorType& alloc, std::vector<LoadError>* errors) {
  return Convert(node, file, out, alloc, errors, 0);
}

bool ScalarToJson(const YAML::Node& node, rapidjson::Value* out,
                  rapidjson::Document::AllocatorType& alloc, std::string* error) {
  if (!node.IsDefined() || node.IsNull()) return out->SetNull(), true;
  const std::string& tag = node.Tag();
  const std::string& text = node.Scalar();
  if (tag == "!" || tag == kStrTag) {
    out->SetString(text.data(), static_cast<rapidjson::SizeType>(text.size()), alloc);
    return true;
  }
  if (tag != "?") {
    *error = "unsupported YAML tag '" + tag + "' (only !!str is understood)";
    return false;
  }
  return PlainScalarToJson(text, out, alloc, error);
}

YAML::Mark MarkAt(const YAML::Node& node, std::string_view pointer, bool at_key) {
  YAML::Node current;
  current.reset(node);
  YAML::Mark mark = node.Mark();
  while (!pointer.empty() && pointer[0] == '/') {
    pointer.remove_prefix(1);
    const std::size_t end = pointer.find('/');
    const std::string token = DecodeToken(pointer.substr(0, end));
    pointer = end == std::string_view::npos ? std::string_view() : pointer.substr(end);
    const bool last = pointer.empty();
    bool found = false;
    if (current.IsMap()) {
      for (auto it = current.begin(); it != current.end(); ++it) {
        if (it->first.IsScalar() && it->first.Scalar() == token) {
          mark = last && at_key ? it->first.Mark() : it->second.Mark();
          current.reset(it->second);
          found = true;
          break;
        }
      }
    } else if (current.IsSequence()) {
      std::size_t index = 0;
      auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), index);
      if (ec == std::errc() && ptr == token.data() + token.size() && index < current.size()) {
        auto it = current.begin();
        std::advance(it, static_cast<std::ptrdiff_t>(index));
        mark = it->Mark();
        current.reset(*it);
        found = true;
      }
    }
    if (!found) break;
  }
  return mark;
}

}  // namespace fakehost::scenario
