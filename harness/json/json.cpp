#include "harness/json/json.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>

namespace fakehost::json {
namespace {

bool IsInteger(const rapidjson::Value& v) { return v.IsNumber() && !v.IsDouble(); }

bool SameString(const rapidjson::Value& v, std::string_view s) {
  return v.GetStringLength() == s.size() &&
         (s.empty() || std::memcmp(v.GetString(), s.data(), s.size()) == 0);
}

bool NumbersEqual(const rapidjson::Value& a, const rapidjson::Value& b) {
  if (a.IsDouble() != b.IsDouble()) return false;  // 1 is not 1.0
  if (a.IsDouble()) return a.GetDouble() == b.GetDouble();
  if (a.IsInt64() && b.IsInt64()) return a.GetInt64() == b.GetInt64();
  if (a.IsUint64() && b.IsUint64()) return a.GetUint64() == b.GetUint64();
  return false;  // one is negative, the other above INT64_MAX
}

// The member of `b` named like `*member` of `a` and at the same rank among the members of that
// name (the 2nd "k" of `a` pairs with the 2nd "k" of `b`): with duplicate keys, Find alone would
// pair every "k" with the first and an object would not even equal itself.
const rapidjson::Value* FindSameOccurrence(const rapidjson::Value& a,
                                           rapidjson::Value::ConstMemberIterator member,
                                           const rapidjson::Value& b) {
  const std::string_view key(member->name.GetString(), member->name.GetStringLength());
  std::size_t rank = 0;
  for (auto it = a.MemberBegin(); it != member; ++it) {
    if (SameString(it->name, key)) ++rank;
  }
  for (const auto& candidate : b.GetObject()) {
    if (SameString(candidate.name, key) && rank-- == 0) return &candidate.value;
  }
  return nullptr;
}

// Parses an RFC 6901 array index: "0" or digits without a leading zero.
bool ParseIndex(std::string_view token, rapidjson::SizeType* out) {
  if (token.empty() || token.size() > 10 || (token.size() > 1 && token[0] == '0')) return false;
  std::uint64_t value = 0;
  for (char c : token) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (value > UINT32_MAX) return false;
  *out = static_cast<rapidjson::SizeType>(value);
  return true;
}

// Undoes EscapePointerToken; false on a '~' not followed by '0' or '1'.
bool UnescapeToken(std::string_view token, std::string* out) {
  out->clear();
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] != '~') {
      out->push_back(token[i]);
      continue;
    }
    if (i + 1 == token.size()) return false;
    const char next = token[++i];
    if (next == '0') {
      out->push_back('~');
    } else if (next == '1') {
      out->push_back('/');
    } else {
      return false;
    }
  }
  return true;
}

template <typename Writer>
bool Write(const rapidjson::Value& value, rapidjson::StringBuffer& buffer, Writer& writer,
           std::string* out) {
  if (!value.Accept(writer)) return false;
  out->assign(buffer.GetString(), buffer.GetSize());
  return true;
}

}  // namespace

bool ToCompact(const rapidjson::Value& value, std::string* out) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  return Write(value, buffer, writer, out);
}

std::string ToCompact(const rapidjson::Value& value) {
  std::string out;
  if (!ToCompact(value, &out)) return "<unserialisable>";
  return out;
}

namespace {

// Value::Accept, except that numbers listed in `lexemes` are written as they arrived.
bool WriteAsSent(const rapidjson::Value& value, const NumberLexemes& lexemes,
                 rapidjson::Writer<rapidjson::StringBuffer>& writer) {
  switch (value.GetType()) {
    case rapidjson::kNumberType:
      if (const std::string* text = LexemeOf(value, lexemes)) {
        return writer.RawValue(text->data(), text->size(), rapidjson::kNumberType);
      }
      return value.Accept(writer);
    case rapidjson::kArrayType:
      if (!writer.StartArray()) return false;
      for (const auto& element : value.GetArray()) {
        if (!WriteAsSent(element, lexemes, writer)) return false;
      }
      return writer.EndArray(value.Size());
    case rapidjson::kObjectType:
      if (!writer.StartObject()) return false;
      for (const auto& member : value.GetObject()) {
        if (!writer.Key(member.name.GetString(), member.name.GetStringLength()) ||
            !WriteAsSent(member.value, lexemes, writer)) {
          return false;
        }
      }
      return writer.EndObject(value.MemberCount());
    default:
      return value.Accept(writer);
  }
}

}  // namespace

bool ToCompact(const rapidjson::Value& value, const NumberLexemes& lexemes, std::string* out) {
  if (lexemes.empty()) return ToCompact(value, out);
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  if (!WriteAsSent(value, lexemes, writer)) return false;
  out->assign(buffer.GetString(), buffer.GetSize());
  return true;
}

std::string ToCompact(const rapidjson::Value& value, const NumberLexemes& lexemes) {
  std::string out;
  if (!ToCompact(value, lexemes, &out)) return "<unserialisable>";
  return out;
}

const std::string* LexemeOf(const rapidjson::Value& value, const NumberLexemes& lexemes) {
  const auto at = std::lower_bound(lexemes.begin(), lexemes.end(), &value,
                                   [](const NumberLexeme& l, const rapidjson::Value* v) {
                                     return std::less<const rapidjson::Value*>()(l.value, v);
                                   });
  return at != lexemes.end() && at->value == &value ? &at->text : nullptr;
}

std::string ToPretty(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> writer(buffer);
  writer.SetIndent(' ', 2);
  std::string out;
  return Write(value, buffer, writer, &out) ? out : "<unserialisable>";
}

const char* TypeName(const rapidjson::Value& value) {
  switch (value.GetType()) {
    case rapidjson::kNullType:
      return "null";
    case rapidjson::kFalseType:
    case rapidjson::kTrueType:
      return "boolean";
    case rapidjson::kNumberType:
      return IsInteger(value) ? "integer" : "number";
    case rapidjson::kStringType:
      return "string";
    case rapidjson::kArrayType:
      return "array";
    case rapidjson::kObjectType:
      return "object";
  }
  return "unknown";
}

void MergeInto(const rapidjson::Value& over, rapidjson::Value* into,
               rapidjson::Document::AllocatorType& a) {
  if (!over.IsObject() || !into->IsObject()) return;
  for (const auto& m : over.GetObject()) {
    auto* at = const_cast<rapidjson::Value*>(Find(*into, View(m.name)));
    if (!at)
      into->AddMember(rapidjson::Value(m.name, a), rapidjson::Value(m.value, a), a);
    else if (at->IsObject() && m.value.IsObject())
      MergeInto(m.value, at, a);
    else
      at->CopyFrom(m.value, a);
  }
}

bool StrictEqual(const rapidjson::Value& a, const rapidjson::Value& b) {
  if (a.GetType() != b.GetType()) return false;  // true and false are distinct types here
  switch (a.GetType()) {
    case rapidjson::kNullType:
    case rapidjson::kFalseType:
    case rapidjson::kTrueType:
      return true;
    case rapidjson::kNumberType:
      return NumbersEqual(a, b);
    case rapidjson::kStringType:
      return SameString(b, std::string_view(a.GetString(), a.GetStringLength()));
    case rapidjson::kArrayType:
      if (a.Size() != b.Size()) return false;
      for (rapidjson::SizeType i = 0; i < a.Size(); ++i) {
        if (!StrictEqual(a[i], b[i])) return false;
      }
      return true;
    case rapidjson::kObjectType:
      if (a.MemberCount() != b.MemberCount()) return false;
      for (auto member = a.MemberBegin(); member != a.MemberEnd(); ++member) {
        const rapidjson::Value* other = FindSameOccurrence(a, member, b);
        if (other == nullptr || !StrictEqual(member->value, *other)) return false;
      }
      return true;
  }
  return false;
}

IdKind ClassifyId(const rapidjson::Value* id) {
  if (id == nullptr) return IdKind::kAbsent;
  if (id->IsNull()) return IdKind::kNull;
  if (id->IsString()) return IdKind::kString;
  if (IsInteger(*id) && id->IsInt64()) return IdKind::kInteger;
  return IdKind::kOther;
}

std::string IdKey(const rapidjson::Value& id) {
  switch (ClassifyId(&id)) {
    case IdKind::kInteger:
      return "i:" + std::to_string(id.GetInt64());
    case IdKind::kString:
      return "s:" + std::string(id.GetString(), id.GetStringLength());
    case IdKind::kNull:
      return "n:";
    default:
      return "x:" + ToCompact(id);  // not an id; still kept apart from every real one
  }
}

std::string IdKey(const rapidjson::Value& id, const NumberLexemes& lexemes) {
  const IdKind kind = ClassifyId(&id);
  if (kind == IdKind::kInteger || kind == IdKind::kString || kind == IdKind::kNull) {
    return IdKey(id);
  }
  return "x:" + ToCompact(id, lexemes);
}

const rapidjson::Value* Find(const rapidjson::Value& object, std::string_view key) {
  if (!object.IsObject()) return nullptr;
  for (const auto& member : object.GetObject()) {
    if (SameString(member.name, key)) return &member.value;
  }
  return nullptr;
}

std::string QuotedString(std::string_view text) {
  rapidjson::Document d;
  d.SetString(text.data(), static_cast<rapidjson::SizeType>(text.size()), d.GetAllocator());
  return ToCompact(d);
}

std::string StringMember(const rapidjson::Value& object, std::string_view key) {
  const rapidjson::Value* v = Find(object, key);
  return v && v->IsString() ? std::string(View(*v)) : std::string();
}

std::string EscapePointerToken(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (char c : token) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

const rapidjson::Value* Resolve(const rapidjson::Value& root, std::string_view pointer) {
  if (pointer.empty()) return &root;
  if (pointer[0] != '/') return nullptr;
  const rapidjson::Value* at = &root;
  std::string token;
  std::size_t begin = 1;
  while (true) {
    const std::size_t end = std::min(pointer.find('/', begin), pointer.size());
    if (!UnescapeToken(pointer.substr(begin, end - begin), &token)) return nullptr;
    if (at->IsObject()) {
      at = Find(*at, token);
    } else if (at->IsArray()) {
      rapidjson::SizeType index = 0;
      at = ParseIndex(token, &index) && index < at->Size() ? &(*at)[index] : nullptr;
    } else {
      at = nullptr;
    }
    if (at == nullptr || end == pointer.size()) return at;
    begin = end + 1;
  }
}

std::string Abbreviate(std::string_view text, std::size_t max) {
  if (text.size() <= max) return std::string(text);
  std::size_t cut = max;
  // Back up over continuation bytes (10xxxxxx) so no character is split; at most 3, so
  // bytes that are not UTF-8 at all still get cut.
  for (int i = 0; i < 3 && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80; ++i) {
    --cut;
  }
  if ((static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) cut = max;
  return std::string(text.substr(0, cut)) + "\xE2\x80\xA6(" + std::to_string(text.size()) +
         " bytes)";
}

namespace {

// A document and the allocator it draws from, which it does not own: they live and die together.
struct SizedDocument {
  explicit SizedDocument(std::size_t chunk) : allocator(chunk), doc(&allocator) {}
  rapidjson::MemoryPoolAllocator<> allocator;
  rapidjson::Document doc;
};

}  // namespace

std::shared_ptr<rapidjson::Document> NewDocument(std::size_t payload_bytes) {
  // A parsed value takes about twice its text (16-byte values, 32-byte members); the allocator
  // asks for a chunk of at least what one allocation needs, so a large payload is never refused.
  constexpr std::size_t kLeast = 256, kMost = 64 * 1024;  // RapidJSON's own chunk
  const std::size_t chunk = std::clamp(payload_bytes * 2, kLeast, kMost);
  auto owner = std::make_shared<SizedDocument>(chunk);
  return std::shared_ptr<rapidjson::Document>(owner, &owner->doc);
}

}  // namespace fakehost::json
