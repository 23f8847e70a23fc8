#include "harness/scenario/template.hpp"

#include "harness/json/json.hpp"
#include "harness/scenario/matcher_internal.hpp"
#include "harness/text/template.hpp"

namespace fakehost::scenario {
namespace {

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

bool ValidPath(std::string_view path) {
  if (path.empty() || path.front() == '.' || path.back() == '.') return false;
  char previous = '\0';
  for (char c : path) {
    if (c == '.' ? previous == '.' : !IsNameChar(c)) return false;
    previous = c;
  }
  return true;
}

// Splits `text` with the shared tokenizer and checks each variable's name: a dotted path.
bool SplitVariables(std::string_view text, std::vector<text::Piece>* pieces, std::string* error) {
  if (!text::Split(text, pieces, error)) return false;
  for (const text::Piece& piece : *pieces) {
    if (piece.placeholder && !ValidPath(piece.text)) {
      *error = "bad variable name '" + std::string(piece.text) + "' in \"" + std::string(text) +
               "\" (a dotted path of letters, digits, '_' and '-'; write $${ for a literal ${)";
      return false;
    }
  }
  return true;
}

bool SubstituteString(std::string_view text, const Lookup& lookup,
                      rapidjson::Document::AllocatorType& alloc, rapidjson::Value* out,
                      std::string* error) {
  std::vector<text::Piece> pieces;
  if (!SplitVariables(text, &pieces, error)) return false;
  std::string result;
  for (const text::Piece& piece : pieces) {
    if (!piece.placeholder) {
      result += piece.text;
      continue;
    }
    const rapidjson::Value* value = lookup ? lookup(piece.text) : nullptr;
    if (value == nullptr) {
      *error = "unknown variable '" + std::string(piece.text) + "'";
      return false;
    }
    if (pieces.size() == 1) {  // the whole string: keep the value's type
      out->CopyFrom(*value, alloc);
      return true;
    }
    if (value->IsString()) {
      result += internal::View(*value);
    } else {
      result += json::ToCompact(*value);
    }
  }
  out->SetString(result.data(), static_cast<rapidjson::SizeType>(result.size()), alloc);
  return true;
}

void CheckAll(const rapidjson::Value& value, const std::string& pointer,
              std::vector<std::pair<std::string, std::string>>* errors) {
  std::string error;
  if (value.IsString()) {
    if (!CheckTemplate(internal::View(value), &error)) errors->emplace_back(pointer, error);
  } else if (value.IsArray()) {
    for (rapidjson::SizeType i = 0; i < value.Size(); ++i) {
      CheckAll(value[i], pointer + "/" + std::to_string(i), errors);
    }
  } else if (value.IsObject()) {
    for (const auto& m : value.GetObject()) {
      CheckAll(m.value, pointer + "/" + internal::EscapeToken(internal::View(m.name)), errors);
    }
  }
}

}  // namespace

bool Substitute(const rapidjson::Value& in, const Lookup& lookup,
                rapidjson::Document::AllocatorType& alloc, rapidjson::Value* out,
                std::string* error) {
  if (in.IsString()) {
    if (!HasVariables(internal::View(in))) {
      out->CopyFrom(in, alloc);
      return true;
    }
    return SubstituteString(internal::View(in), lookup, alloc, out, error);
  }
  if (in.IsArray()) {
    out->SetArray();
    out->Reserve(in.Size(), alloc);
    for (const auto& item : in.GetArray()) {
      rapidjson::Value v;
      if (!Substitute(item, lookup, alloc, &v, error)) return false;
      out->PushBack(v, alloc);
    }
    return true;
  }
  if (in.IsObject()) {
    out->SetObject();
    for (const auto& m : in.GetObject()) {
      rapidjson::Value k(m.name, alloc), v;
      if (!Substitute(m.value, lookup, alloc, &v, error)) return false;
      out->AddMember(k, v, alloc);
    }
    return true;
  }
  out->CopyFrom(in, alloc);
  return true;
}

bool HasVariables(std::string_view text) { return text::HasPlaceholders(text); }

bool HasVariables(const rapidjson::Value& in) {
  if (in.IsString()) return HasVariables(internal::View(in));
  if (in.IsArray()) {
    for (const auto& item : in.GetArray()) {
      if (HasVariables(item)) return true;
    }
  } else if (in.IsObject()) {
    for (const auto& m : in.GetObject()) {
      if (HasVariables(m.value)) return true;
    }
  }
  return false;
}

bool CheckTemplate(std::string_view text, std::string* error) {
  if (!HasVariables(text)) return true;
  std::vector<text::Piece> pieces;
  return SplitVariables(text, &pieces, error);
}

void CheckTemplates(const rapidjson::Value& value,
                    std::vector<std::pair<std::string, std::string>>* errors) {
  CheckAll(value, "", errors);
}

}  // namespace fakehost::scenario
