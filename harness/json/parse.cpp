// Parse(): RapidJSON's iterative reader feeding the Document through a handler that adds what
// RapidJSON lacks for hostile input: a depth cap, duplicate-key detection and numbers read by
// the json layer itself (numbers.hpp says why).
#include <algorithm>
#include <cctype>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "harness/json/json.hpp"
#include "harness/json/numbers.hpp"

namespace fakehost::json {
namespace {

// Numbers arrive as their lexemes and are converted by detail::Convert: exact (ids and matcher
// values are compared exactly) without RapidJSON's full-precision strtod, which crashes.
constexpr unsigned kParseFlags =
    rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag |
    rapidjson::kParseStopWhenDoneFlag | rapidjson::kParseNumbersAsStringsFlag;

// Objects with up to this many keys are checked for duplicates by a linear scan (no
// allocation); bigger ones get a hash map so a hostile 100k-key object stays linear.
constexpr std::size_t kLinearKeyScan = 16;

// With encoding validation on, raw input cannot hold an encoded surrogate (ED A0..BF), and
// RapidJSON joins a valid \uD8xx\uDCxx pair into four bytes. So ED A0..BF in a decoded string
// can only come from a lone \uDC00-\uDFFF escape, which RapidJSON 1.1.0 lets through as invalid
// UTF-8 (a lone high surrogate it rejects itself).
bool HasLoneSurrogate(const char* s, std::size_t n) {
  std::size_t at = 0;
  while (at + 1 < n) {
    const void* hit = std::memchr(s + at, 0xED, n - at - 1);
    if (hit == nullptr) return false;
    at = static_cast<std::size_t>(static_cast<const char*>(hit) - s);
    if ((static_cast<unsigned char>(s[at + 1]) & 0xE0) == 0xA0) return true;
    ++at;
  }
  return false;
}

// A cheap pass over the raw text so the per-string check runs only when a "\uDC".."\uDF" escape
// may be present (a false alarm such as "\\udc00" just costs the check).
bool MayHoldLowSurrogateEscape(std::string_view text) {
  for (std::size_t at = text.find('\\'); at != std::string_view::npos;
       at = text.find('\\', at + 1)) {
    if (at + 3 < text.size() && text[at + 1] == 'u' && (text[at + 2] | 0x20) == 'd') {
      const char c = static_cast<char>(text[at + 3] | 0x20);
      if (c >= 'c' && c <= 'f') return true;
    }
  }
  return false;
}

struct KeySpan {
  std::size_t at;
  std::size_t size;
};

struct Level {
  bool is_object = false;
  std::size_t count = 0;       // keys (object) or elements (array) so far
  std::size_t keys_begin = 0;  // first index in keys_ belonging to this object
  std::size_t arena_begin = 0;
  std::unique_ptr<std::unordered_map<std::string, std::size_t>> key_counts;
};

// The handler's working memory, kept per thread between calls: allocating it afresh made
// Parse() ~40% slower on small frames.
struct Scratch {
  std::vector<Level> levels;
  std::vector<KeySpan> keys;  // keys of the open objects, outermost first
  std::string arena;          // their bytes

  void Reset() {
    levels.clear();
    keys.clear();
    arena.clear();
    // One hostile frame should not pin megabytes for the thread's lifetime.
    constexpr std::size_t kKeep = 64 * 1024;
    if (arena.capacity() > kKeep) arena = std::string();
    if (keys.capacity() * sizeof(KeySpan) > kKeep) keys = std::vector<KeySpan>();
    if (levels.capacity() * sizeof(Level) > kKeep) levels = std::vector<Level>();
  }
};

// A number that does not print back as sent: the how-manieth number of the document it is.
struct PendingLexeme {
  std::size_t index;
  std::string text;
};

// Where the numbers are when RapidJSON reads a masked copy (MaskNumbers): the original text, and
// the stream over the copy, whose position tells which number is being read.
struct MaskedSource {
  std::string_view original;
  const rapidjson::MemoryStream* stream;
};

class PolicyHandler {
 public:
  PolicyHandler(rapidjson::Document* doc, Scratch* scratch, std::size_t max_depth,
                bool check_surrogates, std::vector<std::string>* dups,
                std::vector<PendingLexeme>* lexemes, const MaskedSource* masked)
      : doc_(*doc),
        check_surrogates_(check_surrogates),
        max_depth_(max_depth),
        duplicates_(dups),
        lexemes_(lexemes),
        masked_(masked),
        levels_(scratch->levels),
        keys_(scratch->keys),
        arena_(scratch->arena) {}

  bool depth_exceeded() const { return depth_exceeded_; }
  bool lone_surrogate() const { return lone_surrogate_; }

  bool Null() { return NewValue() && doc_.Null(); }
  bool Bool(bool b) { return NewValue() && doc_.Bool(b); }
  // With kParseNumbersAsStringsFlag RapidJSON calls RawNumber for every number, never these.
  bool Int(int) { return false; }
  bool Uint(unsigned) { return false; }
  bool Int64(std::int64_t) { return false; }
  bool Uint64(std::uint64_t) { return false; }
  bool Double(double) { return false; }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool) {
    std::string_view lexeme(s, n);
    if (masked_ != nullptr) {  // the real number is in the original text at the same offset
      const std::string_view rest = masked_->original.substr(masked_->stream->Tell() - n);
      lexeme = rest.substr(0, detail::NumberLength(rest));
    }
    const detail::Number number = detail::Convert(lexeme);
    if (!number.prints_as_sent) lexemes_->push_back({numbers_, std::string(lexeme)});
    ++numbers_;
    NewValue();
    switch (number.kind) {
      case detail::Number::kInt64:
        return doc_.Int64(number.i);
      case detail::Number::kUint64:
        return doc_.Uint64(number.u);
      case detail::Number::kDouble:
        break;
    }
    return doc_.Double(number.d);
  }
  bool String(const char* s, rapidjson::SizeType n, bool copy) {
    return NewValue() && Utf8(s, n) && doc_.String(s, n, copy);
  }
  bool StartObject() { return Open(true) && doc_.StartObject(); }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) {
    if (!Utf8(s, n)) return false;
    NoteKey(std::string_view(s, n));
    return doc_.Key(s, n, copy);
  }
  bool EndObject(rapidjson::SizeType members) {
    Close();
    return doc_.EndObject(members);
  }
  bool StartArray() { return Open(false) && doc_.StartArray(); }
  bool EndArray(rapidjson::SizeType elements) {
    Close();
    return doc_.EndArray(elements);
  }

 private:
  bool NewValue() {
    if (!levels_.empty() && !levels_.back().is_object) ++levels_.back().count;
    return true;
  }

  bool Utf8(const char* s, std::size_t n) {
    lone_surrogate_ = check_surrogates_ && HasLoneSurrogate(s, n);
    return !lone_surrogate_;
  }

  bool Open(bool is_object) {
    NewValue();
    if (levels_.size() >= max_depth_) {
      depth_exceeded_ = true;
      return false;
    }
    Level level;
    level.is_object = is_object;
    level.keys_begin = keys_.size();
    level.arena_begin = arena_.size();
    levels_.push_back(std::move(level));
    return true;
  }

  void Close() {
    const Level& level = levels_.back();
    keys_.resize(level.keys_begin);
    arena_.resize(level.arena_begin);
    levels_.pop_back();
  }

  std::string_view KeyAt(std::size_t index) const {
    return std::string_view(arena_).substr(keys_[index].at, keys_[index].size);
  }

  void NoteKey(std::string_view key) {
    Level& level = levels_.back();
    std::size_t earlier = 0;
    if (level.key_counts) {
      earlier = (*level.key_counts)[std::string(key)]++;
    } else {
      for (std::size_t i = level.keys_begin; i < keys_.size(); ++i) {
        if (KeyAt(i) == key) ++earlier;
      }
    }
    keys_.push_back(KeySpan{arena_.size(), key.size()});
    arena_.append(key);
    ++level.count;
    if (!level.key_counts && level.count > kLinearKeyScan) {
      level.key_counts = std::make_unique<std::unordered_map<std::string, std::size_t>>();
      for (std::size_t i = level.keys_begin; i < keys_.size(); ++i) {
        ++(*level.key_counts)[std::string(KeyAt(i))];
      }
    }
    if (earlier == 1) duplicates_->push_back(PointerToCurrentKey());
  }

  // The pointer of the key just noted: each ancestor contributes the key or index under
  // which its child is being parsed.
  std::string PointerToCurrentKey() const {
    std::string pointer;
    for (std::size_t i = 0; i < levels_.size(); ++i) {
      pointer.push_back('/');
      if (!levels_[i].is_object) {
        pointer += std::to_string(levels_[i].count - 1);
        continue;
      }
      const std::size_t last = i + 1 < levels_.size() ? levels_[i + 1].keys_begin : keys_.size();
      pointer += EscapePointerToken(KeyAt(last - 1));
    }
    return pointer;
  }

  rapidjson::Document& doc_;
  bool check_surrogates_;
  std::size_t max_depth_;
  std::vector<std::string>* duplicates_;
  std::vector<PendingLexeme>* lexemes_;
  const MaskedSource* masked_;
  std::size_t numbers_ = 0;
  bool depth_exceeded_ = false;
  bool lone_surrogate_ = false;
  std::vector<Level>& levels_;
  std::vector<KeySpan>& keys_;
  std::string& arena_;
};

// "Invalid encoding in string." -> "invalid encoding in string at byte 12"
std::string Describe(const char* rapidjson_message, std::size_t offset) {
  std::string message(rapidjson_message);
  if (!message.empty() && message.back() == '.') message.pop_back();
  if (!message.empty()) {
    message[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(message[0])));
  }
  return message + " at byte " + std::to_string(offset);
}

bool IsJsonWhitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Gives each pending lexeme the address of its number: walks the document in the order the
// numbers arrived (iteratively: a document may be nested as deep as the caller allowed).
void AttachLexemes(const rapidjson::Value& root, std::vector<PendingLexeme>* pending,
                   NumberLexemes* out) {
  std::size_t index = 0;
  std::size_t next = 0;
  std::vector<const rapidjson::Value*> to_visit{&root};  // the next one last
  while (!to_visit.empty() && next < pending->size()) {
    const rapidjson::Value* value = to_visit.back();
    to_visit.pop_back();
    if (value->IsNumber()) {
      if (index++ == (*pending)[next].index)
        out->push_back({value, std::move((*pending)[next++].text)});
    } else if (value->IsArray()) {
      for (auto it = value->End(); it != value->Begin();) to_visit.push_back(&*--it);
    } else if (value->IsObject()) {
      for (auto it = value->MemberEnd(); it != value->MemberBegin();)
        to_visit.push_back(&(--it)->value);
    }
  }
  std::sort(out->begin(), out->end(), [](const NumberLexeme& a, const NumberLexeme& b) {
    return std::less<const rapidjson::Value*>()(a.value, b.value);
  });
}

// What one pass of RapidJSON over `input` left behind.
struct Pass {
  bool ok = false;
  bool depth_exceeded = false;
  bool lone_surrogate = false;
  std::size_t end = 0;  // where the value ended
};

Pass Read(std::string_view input, const std::string_view original, const ParseLimits& limits,
          rapidjson::Reader* reader, rapidjson::Document* doc, ParseResult* result,
          std::vector<PendingLexeme>* lexemes) {
  thread_local Scratch scratch;
  scratch.Reset();
  result->duplicate_keys.clear();
  lexemes->clear();
  // A raw MemoryStream, not EncodedInputStream: that one silently skips a byte-order mark,
  // which RFC 8259 forbids senders to add.
  rapidjson::MemoryStream stream(input.data(), input.size());
  const MaskedSource masked{original, &stream};
  Pass pass;
  auto generate = [&](rapidjson::Document& target) {
    PolicyHandler handler(&target, &scratch, limits.max_depth, MayHoldLowSurrogateEscape(input),
                          &result->duplicate_keys, lexemes,
                          input.data() == original.data() ? nullptr : &masked);
    pass.ok = !reader->Parse<kParseFlags>(stream, handler).IsError();
    pass.depth_exceeded = handler.depth_exceeded();
    pass.lone_surrogate = handler.lone_surrogate();
    return pass.ok;
  };
  doc->Populate(generate);
  pass.end = stream.Tell();
  return pass;
}

}  // namespace

ParseResult Parse(std::string_view text, rapidjson::Document* doc, const ParseLimits& limits) {
  ParseResult result;
  thread_local rapidjson::Reader reader;  // keeps its string stack between calls
  std::vector<PendingLexeme> lexemes;
  Pass pass = Read(text, text, limits, &reader, doc, &result, &lexemes);
  std::string masked;
  std::string_view read = text;
  if (!pass.ok && reader.GetParseErrorCode() == rapidjson::kParseErrorNumberTooBig) {
    // RapidJSON refuses valid numbers such as 1e400 as "too big" before we see them. Read a copy
    // with every number masked as 0; the handler takes each one's text from `text`.
    masked = detail::MaskNumbers(text);
    read = masked;
    pass = Read(read, text, limits, &reader, doc, &result, &lexemes);
  }

  if (!pass.ok) {
    if (pass.depth_exceeded) {
      // The iterative reader reports the offset of the bracket that went too deep.
      result.error_offset = reader.GetErrorOffset();
      result.error = "nesting deeper than " + std::to_string(limits.max_depth) +
                     " levels at byte " + std::to_string(result.error_offset);
    } else if (pass.lone_surrogate) {
      // The reader stops just after the string's closing quote.
      result.error_offset = reader.GetErrorOffset() - 1;
      result.error = "lone surrogate escape (\\uD800-\\uDFFF) in the string ending at byte " +
                     std::to_string(result.error_offset);
    } else {
      result.error_offset = reader.GetErrorOffset();
      result.error =
          Describe(rapidjson::GetParseError_En(reader.GetParseErrorCode()), result.error_offset);
    }
    result.duplicate_keys.clear();
    doc->SetNull();
    return result;
  }
  for (std::size_t at = pass.end; at < read.size(); ++at) {
    if (!IsJsonWhitespace(read[at])) {
      result.error_offset = at;
      result.error = "unexpected bytes after the JSON value at byte " + std::to_string(at);
      result.duplicate_keys.clear();
      doc->SetNull();
      return result;
    }
  }
  if (!lexemes.empty()) AttachLexemes(*doc, &lexemes, &result.lexemes);
  result.ok = true;
  return result;
}

}  // namespace fakehost::json
