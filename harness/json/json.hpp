// JSON policy for frames: how plugin output is parsed, how ids compare, how values print.
//
// Plugin output is hostile input. Parse() validates UTF-8, uses RapidJSON's iterative parser
// (the recursive one segfaults on 100k nested '['), caps nesting depth (Accept() and valijson
// recurse), and reports duplicate object keys, which RapidJSON would silently keep. It also
// rejects a lone surrogate escape such as "\udc00": RapidJSON would store it as invalid UTF-8,
// and a host that decodes into UTF-8 strings cannot keep it either.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "harness/json/rapidjson.hpp"

namespace fakehost::json {

struct ParseLimits {
  std::size_t max_depth = 128;  ///< arrays/objects nested deeper are a parse error
};

/// A number the document cannot hold as it was sent, with the text that arrived.
struct NumberLexeme {
  const rapidjson::Value* value = nullptr;  ///< into the parsed document
  std::string text;                         ///< e.g. "1e400", "18446744073709551616", "-0"
};
using NumberLexemes = std::vector<NumberLexeme>;

struct ParseResult {
  bool ok = false;
  std::string error;  ///< set when !ok: what is wrong, e.g. "invalid encoding in string at byte 12"
  std::size_t error_offset = 0;
  /// JSON pointers of keys that appeared more than once in their object (each reported once,
  /// at the second occurrence's object). The document keeps every member, as RapidJSON does.
  std::vector<std::string> duplicate_keys;
  /// Every number whose value in the document does not print back as it was sent (sorted by
  /// address, for LexemeOf): above the double range (kept as ±inf, which ToCompact cannot write),
  /// below it (kept as ±0), integers outside [-2^63, 2^64) (kept as the nearest double, so two of
  /// them may be equal as values), and spellings the writer normalises ("-0", "1E2", "3.00"). Empty
  /// for almost every frame. The pointers stay valid while the document is alive and unmodified.
  NumberLexemes lexemes;
};

/// Parses exactly one JSON value (trailing bytes other than whitespace are an error; so is a
/// UTF-8 byte-order mark, which RFC 8259 forbids senders to add). On failure `*doc` is null.
/// A Document's allocator only grows: parse each frame into a fresh Document.
/// Numbers: integers in [-2^63, 2^64) are integers, everything else the correctly rounded double
/// (never RapidJSON's full-precision path, which crashes on long decimals); any valid JSON number
/// parses, 1e400 and 400-digit integers included, and ParseResult::lexemes keeps what arrived.
ParseResult Parse(std::string_view text, rapidjson::Document* doc, const ParseLimits& limits = {});

/// A fresh Document for a value of about `payload_bytes` bytes of JSON, which it holds for as
/// long as anyone shares it: its allocator grows in chunks sized to that payload, not in
/// RapidJSON's 64 KiB, so a kept small message costs about its size (an inbox of 256 two-line
/// notifications held 16 MiB of empty chunks).
std::shared_ptr<rapidjson::Document> NewDocument(std::size_t payload_bytes);

/// Compact serialisation. Returns false (and leaves `out` unspecified) for NaN/Inf.
bool ToCompact(const rapidjson::Value& value, std::string* out);
std::string ToCompact(const rapidjson::Value& value);  ///< "<unserialisable>" on failure
/// The same, but numbers listed in `lexemes` are written exactly as they arrived (1e400 stays
/// "1e400", not "<unserialisable>"): use it to report or echo what a plugin sent. Fails only on
/// NaN/Inf that no lexeme covers.
bool ToCompact(const rapidjson::Value& value, const NumberLexemes& lexemes, std::string* out);
std::string ToCompact(const rapidjson::Value& value, const NumberLexemes& lexemes);
/// The text `value` arrived as if `lexemes` lists it, else nullptr.
const std::string* LexemeOf(const rapidjson::Value& value, const NumberLexemes& lexemes);
std::string ToPretty(const rapidjson::Value& value);

/// JSON type name: "null", "boolean", "integer", "number" (non-integral or double), "string",
/// "array", "object". `1` is "integer", `1.0` is "number".
const char* TypeName(const rapidjson::Value& value);

/// Strict equality: same JSON type and value; 1 != 1.0 != true != "1"; objects by member set
/// (a repeated key pairs by rank: the 2nd "k" of one object with the 2nd "k" of the other).
bool StrictEqual(const rapidjson::Value& a, const rapidjson::Value& b);

/// Lays the object `over` onto the object `into`, member by member: where both hold an object
/// under a name the two are merged the same way, otherwise `over`'s value (a copy) takes the
/// place. Nothing happens unless both are objects.
void MergeInto(const rapidjson::Value& over, rapidjson::Value* into,
               rapidjson::Document::AllocatorType& a);

/// Ids (RIM §5, Flash "Ids"): what kind of id a member holds.
enum class IdKind { kAbsent, kNull, kInteger, kString, kOther };
IdKind ClassifyId(const rapidjson::Value* id);  ///< nullptr: absent. Integer = IsInt64().
/// A map key that keeps 2 and "2" apart: "i:2" / "s:2". Meant for kInteger and kString; other
/// values get "n:" (null) or "x:" + compact JSON, never equal to a real id's key.
std::string IdKey(const rapidjson::Value& id);
/// The same, with "x:" keys built from what arrived: two ids sent as different numbers (say
/// 18446744073709551616 and 18446744073709551617, one double apart from nothing) never share one.
std::string IdKey(const rapidjson::Value& id, const NumberLexemes& lexemes);

/// A string value's bytes, embedded NULs included (the value must be a string).
inline std::string_view View(const rapidjson::Value& string) {
  return {string.GetString(), string.GetStringLength()};
}

/// Finds a member, or nullptr (never asserts like operator[]).
const rapidjson::Value* Find(const rapidjson::Value& object, std::string_view key);

/// `text` as a JSON string literal, quotes included (also a valid YAML double-quoted scalar).
std::string QuotedString(std::string_view text);

/// A string member's value, or "" when it is absent or not a string.
std::string StringMember(const rapidjson::Value& object, std::string_view key);

/// RFC 6901 token escaping ("~" -> "~0", "/" -> "~1").
std::string EscapePointerToken(std::string_view token);

/// Resolves an RFC 6901 pointer ("" is the root); nullptr if it does not resolve.
const rapidjson::Value* Resolve(const rapidjson::Value& root, std::string_view pointer);

/// Shortens text for messages: text longer than `max` bytes keeps at most `max` of them, cut on a
/// UTF-8 boundary, followed by "…(N bytes)" where N is the full length.
std::string Abbreviate(std::string_view text, std::size_t max = 200);

}  // namespace fakehost::json
