#include "harness/scenario/template.hpp"

#include <algorithm>

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

// Substitute and CheckExpansion: one walk that builds the copy (or, without an allocator, only
// counts it) and charges every byte it produces to a budget, so that no scenario can make
// fakehost build more than ExpansionLimits allows.
class Expander {
 public:
  Expander(const Lookup& lookup, const ExpansionLimits& limits,
           rapidjson::Document::AllocatorType* alloc)
      : lookup_(lookup), limits_(limits), alloc_(alloc) {}

  // Expands `in`, found at `pointer`, `depth` levels down. On failure `*error` says why and
  // `*where` is the pointer of the value that crossed a limit.
  bool Expand(const rapidjson::Value& in, const std::string& pointer, std::size_t depth,
              rapidjson::Value* out, std::string* where, std::string* error) {
    if (in.IsString()) {
      std::string_view text = internal::View(in);
      if (!HasVariables(text)) {
        if (!Charge(text.size() + 1, depth, pointer, where, error)) return false;
        if (alloc_) out->CopyFrom(in, *alloc_);
        return true;
      }
      return ExpandString(text, pointer, depth, out, where, error);
    }
    if (in.IsArray()) {
      if (!Charge(1, depth, pointer, where, error)) return false;
      if (alloc_) out->SetArray().Reserve(in.Size(), *alloc_);
      for (rapidjson::SizeType i = 0; i < in.Size(); ++i) {
        rapidjson::Value v;
        if (!Expand(in[i], pointer + "/" + std::to_string(i), depth + 1, &v, where, error))
          return false;
        if (alloc_) out->PushBack(v, *alloc_);
      }
      return true;
    }
    if (in.IsObject()) {
      if (!Charge(1, depth, pointer, where, error)) return false;
      if (alloc_) out->SetObject();
      for (const auto& m : in.GetObject()) {
        rapidjson::Value v;
        std::string_view name = internal::View(m.name);
        if (!Charge(name.size(), depth, pointer, where, error) ||
            !Expand(m.value, pointer + "/" + internal::EscapeToken(name), depth + 1, &v, where,
                    error))
          return false;
        if (alloc_) out->AddMember(rapidjson::Value(m.name, *alloc_), v, *alloc_);
      }
      return true;
    }
    if (!Charge(1, depth, pointer, where, error)) return false;
    if (alloc_) out->CopyFrom(in, *alloc_);
    return true;
  }

 private:
  bool ExpandString(std::string_view text, const std::string& pointer, std::size_t depth,
                    rapidjson::Value* out, std::string* where, std::string* error) {
    std::vector<text::Piece> pieces;
    if (!SplitVariables(text, &pieces, error)) return Fail(pointer, where);
    std::string result;      // built only with an allocator
    std::size_t length = 0;  // always
    for (const text::Piece& piece : pieces) {
      if (!piece.placeholder) {
        length += piece.text.size();
        if (alloc_) result += piece.text;
        continue;
      }
      const rapidjson::Value* value = lookup_ ? lookup_(piece.text) : nullptr;
      if (value == nullptr) {
        if (!alloc_) continue;  // counting: a capture or a run-time value, not known yet
        *error = "unknown variable '" + std::string(piece.text) + "'";
        return Fail(pointer, where);
      }
      if (pieces.size() == 1) {  // the whole string: keep the value's type
        std::size_t nested = 0;
        std::size_t size = SizeOf(*value, Left() + 1, 0, &nested);
        if (!Charge(size, depth + nested, pointer, where, error)) return false;
        if (alloc_) out->CopyFrom(*value, *alloc_);
        return true;
      }
      std::string_view piece_text;
      std::string compact;
      if (value->IsString()) {
        piece_text = internal::View(*value);
      } else {
        std::size_t nested = 0;
        if (SizeOf(*value, Left() + 1, 0, &nested) > Left())
          return Charge(Left() + 1, depth, pointer, where, error);
        compact = json::ToCompact(*value);
        piece_text = compact;
      }
      length += piece_text.size();
      if (length > Left()) return Charge(length, depth, pointer, where, error);
      if (alloc_) result += piece_text;
    }
    if (!Charge(length + 1, depth, pointer, where, error)) return false;
    if (alloc_)
      out->SetString(result.data(), static_cast<rapidjson::SizeType>(result.size()), *alloc_);
    return true;
  }

  // What a copy of `v` costs: its strings' and names' bytes plus one per value, counted until it
  // passes `limit`; `*deepest` is its nesting below itself.
  static std::size_t SizeOf(const rapidjson::Value& v, std::size_t limit, std::size_t depth,
                            std::size_t* deepest) {
    *deepest = std::max(*deepest, depth);
    if (v.IsString()) return v.GetStringLength() + 1;
    std::size_t size = 1;
    if (v.IsArray()) {
      for (const auto& item : v.GetArray()) {
        if (size > limit) break;
        size += SizeOf(item, limit - size, depth + 1, deepest);
      }
    } else if (v.IsObject()) {
      for (const auto& m : v.GetObject()) {
        if (size > limit) break;
        size += m.name.GetStringLength() + SizeOf(m.value, limit - size, depth + 1, deepest);
      }
    }
    return size;
  }

  std::size_t Left() const { return limits_.max_bytes - used_; }

  bool Charge(std::size_t bytes, std::size_t depth, const std::string& pointer, std::string* where,
              std::string* error) {
    if (depth > limits_.max_depth) {
      *error = "variables expand this value deeper than " + std::to_string(limits_.max_depth) +
               " levels (the expansion cap)" + At(pointer);
      return Fail(pointer, where);
    }
    if (bytes > Left()) {
      *error = "variables expand this value past " + std::to_string(limits_.max_bytes) +
               " bytes (the expansion cap)" + At(pointer);
      return Fail(pointer, where);
    }
    used_ += bytes;
    return true;
  }

  // Where, for Substitute's message; the loader's counting names the file:line:col instead.
  std::string At(const std::string& pointer) const {
    return !alloc_ || pointer.empty() ? std::string() : " at " + pointer;
  }

  static bool Fail(const std::string& pointer, std::string* where) {
    *where = pointer;
    return false;
  }

  const Lookup& lookup_;
  ExpansionLimits limits_;
  rapidjson::Document::AllocatorType* alloc_;
  std::size_t used_ = 0;
};

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
                std::string* error, const ExpansionLimits& limits) {
  Expander expander(lookup, limits, &alloc);
  std::string where;
  return expander.Expand(in, "", 0, out, &where, error);
}

bool CheckExpansion(const rapidjson::Value& in, const Lookup& lookup, std::string* pointer,
                    std::string* error, const ExpansionLimits& limits) {
  Expander counter(lookup, limits, nullptr);
  rapidjson::Value unused;
  return counter.Expand(in, "", 0, &unused, pointer, error);
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
