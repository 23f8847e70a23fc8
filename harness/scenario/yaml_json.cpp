#include "harness/scenario/yaml_json.hpp"

#include "harness/json/text_file.hpp"

#include <charconv>
#include <cstdint>
#include <memory>

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

bool Convert(const YamlNode& node, const std::string& file, rapidjson::Value* out,
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
    for (const YamlNode& item : node) {
      rapidjson::Value v;
      ok = Convert(item, file, &v, alloc, errors, depth + 1) && ok;
      out->PushBack(v, alloc);
    }
  } else if (node.IsMap()) {
    out->SetObject();
    for (std::size_t i = 0; i < node.size(); ++i) {
      rapidjson::Value k, v;
      const std::string& key = node.Key(i).Scalar();
      k.SetString(key.data(), static_cast<rapidjson::SizeType>(key.size()), alloc);
      ok = Convert(node.Value(i), file, &v, alloc, errors, depth + 1) && ok;
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

bool YamlToJson(const YamlNode& node, const std::string& file, rapidjson::Value* out,
                rapidjson::Document::AllocatorType& alloc, std::vector<LoadError>* errors) {
  return Convert(node, file, out, alloc, errors, 0);
}

bool ScalarToJson(const YamlNode& node, rapidjson::Value* out,
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

bool YamlNode::IsNull() const { return data_ != nullptr && data_->kind == Kind::kNull; }
bool YamlNode::IsScalar() const { return data_ != nullptr && data_->kind == Kind::kScalar; }
bool YamlNode::IsSequence() const { return data_ != nullptr && data_->kind == Kind::kSequence; }
bool YamlNode::IsMap() const { return data_ != nullptr && data_->kind == Kind::kMap; }

const std::string& YamlNode::Scalar() const {
  static const std::string kEmpty;
  return IsScalar() ? data_->text : kEmpty;
}

const std::string& YamlNode::Tag() const {
  static const std::string kNone;
  return data_ != nullptr ? data_->tag : kNone;
}

YamlMark YamlNode::Mark() const { return data_ != nullptr ? data_->mark : YamlMark(); }

std::size_t YamlNode::size() const {
  if (IsSequence()) return data_->children.size();
  if (IsMap()) return data_->children.size() / 2;
  return 0;
}

YamlNode YamlNode::Item(std::size_t i) const {
  return IsSequence() && i < data_->children.size() ? YamlNode(data_->children[i]) : YamlNode();
}

YamlNode YamlNode::Key(std::size_t i) const {
  return IsMap() && i < size() ? YamlNode(data_->children[2 * i]) : YamlNode();
}

YamlNode YamlNode::Value(std::size_t i) const {
  // A map whose parse stopped after a key has an odd child count: the value is undefined.
  return IsMap() && 2 * i + 1 < data_->children.size() ? YamlNode(data_->children[2 * i + 1])
                                                       : YamlNode();
}

YamlNode::Iterator YamlNode::begin() const {
  return Iterator(IsSequence() ? data_->children.data() : nullptr);
}

YamlNode::Iterator YamlNode::end() const {
  return Iterator(IsSequence() ? data_->children.data() + data_->children.size() : nullptr);
}

result::SourceLoc LocOf(const std::string& file, const YamlMark& mark) {
  if (mark.line < 0) return {file, 1, 1};
  return {file, mark.line + 1, mark.column + 1};
}

YamlMark MarkAt(const YamlNode& node, std::string_view pointer, bool at_key) {
  YamlNode current = node;
  YamlMark mark = node.Mark();
  while (!pointer.empty() && pointer[0] == '/') {
    pointer.remove_prefix(1);
    const std::size_t end = pointer.find('/');
    const std::string token = DecodeToken(pointer.substr(0, end));
    pointer = end == std::string_view::npos ? std::string_view() : pointer.substr(end);
    const bool last = pointer.empty();
    YamlNode next;
    if (current.IsMap()) {
      for (std::size_t i = 0; i < current.size(); ++i) {
        if (current.Key(i).IsScalar() && current.Key(i).Scalar() == token) {
          next = current.Value(i);
          mark = last && at_key ? current.Key(i).Mark() : next.Mark();
          break;
        }
      }
    } else if (current.IsSequence()) {
      std::size_t index = 0;
      auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), index);
      if (ec == std::errc() && ptr == token.data() + token.size() && index < current.size()) {
        next = current.Item(index);
        mark = next.Mark();
      }
    }
    if (!next.IsDefined()) break;
    current = next;
  }
  return mark;
}

result::SourceLoc YamlLocator::At(std::string_view pointer, bool at_key) const {
  if (tree_ == nullptr) return {file_, 1, 1};
  return LocOf(file_, MarkAt(tree_->root(), pointer, at_key));
}

bool ParseYamlToJson(std::string_view text, const std::string& file, rapidjson::Document* out,
                     YamlLocator* where, std::vector<LoadError>* errors) {
  const std::size_t before = errors->size();
  auto tree = std::make_shared<YamlTree>();
  out->SetNull();
  const bool parsed = ParseYaml(text, file, tree.get(), errors);
  if (parsed) YamlToJson(tree->root(), file, out, out->GetAllocator(), errors);
  if (where != nullptr) {
    where->file_ = file;
    where->tree_ = std::move(tree);
  }
  return parsed && errors->size() == before;
}

bool ReadInputFile(const std::string& path, std::string* text, std::vector<LoadError>* errors) {
  std::string error;
  if (json::ReadFileCapped(path, json::kInputFileCap, text, &error)) return true;
  LoadError e;  // built member by member: g++ 12 warns falsely on the nested braces
  e.loc.file = path;
  // ReadFileCapped's message starts with the path, which the LoadError prints already.
  e.message = error.rfind(path + ": ", 0) == 0 ? error.substr(path.size() + 2) : error;
  errors->push_back(std::move(e));
  return false;
}

}  // namespace fakehost::scenario
