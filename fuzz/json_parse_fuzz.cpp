// json::Parse on arbitrary bytes: it must never crash, and what it accepts must survive a round
// trip. Oracles, beyond the sanitizers:
// - acceptance agrees with RapidJSON reading numbers as strings (the grammar), except where the
//   policy adds a refusal (depth, lone surrogate) or RapidJSON refuses a valid number as "too
//   big" (the policy accepts those);
// - an accepted document, written with its lexemes, parses again to a StrictEqual document with
//   the same duplicate keys, and writing that one gives the same text (a fixpoint);
// - every id-ish helper (IdKey, TypeName, ToPretty, Resolve of each duplicate key) runs clean.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "harness/json/json.hpp"

namespace {

using fakehost::json::ParseResult;

[[noreturn]] void Fail(const char* what, std::string_view text) {
  std::fprintf(stderr, "json fuzz: %s\ninput: %.*s\n", what, static_cast<int>(text.size()),
               text.data());
  std::abort();
}

// What RapidJSON itself says of the grammar (and the trailing bytes), without our policy.
rapidjson::ParseErrorCode Grammar(std::string_view text, bool* trailing) {
  constexpr unsigned kFlags = rapidjson::kParseValidateEncodingFlag |
                              rapidjson::kParseIterativeFlag | rapidjson::kParseStopWhenDoneFlag |
                              rapidjson::kParseNumbersAsStringsFlag;
  rapidjson::MemoryStream stream(text.data(), text.size());
  rapidjson::Reader reader;
  rapidjson::BaseReaderHandler<> handler;
  reader.Parse<kFlags>(stream, handler);
  *trailing = false;
  for (std::size_t at = stream.Tell(); at < text.size(); ++at) {
    const char c = text[at];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') *trailing = true;
  }
  return reader.GetParseErrorCode();
}

void CheckAccepted(std::string_view text, const rapidjson::Document& doc, const ParseResult& r) {
  std::string written;
  if (!fakehost::json::ToCompact(doc, r.lexemes, &written)) Fail("cannot write it back", text);
  rapidjson::Document again;
  fakehost::json::ParseLimits deep;
  deep.max_depth = 1u << 20;  // the compact text is no deeper than the input
  const ParseResult r2 = fakehost::json::Parse(written, &again, deep);
  if (!r2.ok) Fail(("its compact form does not parse: " + r2.error).c_str(), text);
  if (!fakehost::json::StrictEqual(doc, again)) Fail("round trip changed a value", text);
  if (r2.duplicate_keys != r.duplicate_keys) Fail("round trip changed duplicate keys", text);
  if (fakehost::json::ToCompact(again, r2.lexemes) != written) Fail("not a fixpoint", text);
  for (const auto& lexeme : r.lexemes) {
    if (fakehost::json::LexemeOf(*lexeme.value, r.lexemes) != &lexeme.text) {
      Fail("LexemeOf does not find a lexeme", text);
    }
  }
  // (A duplicate key's pointer may not Resolve: under a repeated key it follows the first one.)
  for (const auto& pointer : r.duplicate_keys) {
    if (pointer.empty() || pointer[0] != '/') Fail("duplicate key pointer", text);
    (void)fakehost::json::Resolve(doc, pointer);
  }
  (void)fakehost::json::IdKey(doc, r.lexemes);
  (void)fakehost::json::IdKey(doc);
  (void)fakehost::json::TypeName(doc);
  (void)fakehost::json::ToPretty(doc);
  if (const rapidjson::Value* id = fakehost::json::Find(doc, "id")) {
    (void)fakehost::json::ClassifyId(id);
    (void)fakehost::json::IdKey(*id, r.lexemes);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  rapidjson::Document doc;
  const ParseResult r = fakehost::json::Parse(text, &doc);
  bool trailing = false;
  const rapidjson::ParseErrorCode grammar = Grammar(text, &trailing);
  const bool grammar_ok = grammar == rapidjson::kParseErrorNone && !trailing;
  if (r.ok) {
    if (!grammar_ok && grammar != rapidjson::kParseErrorNumberTooBig) {
      Fail("accepted what RapidJSON's grammar refuses", text);
    }
    CheckAccepted(text, doc, r);
  } else {
    if (!doc.IsNull()) Fail("a failed parse left a document", text);
    if (r.error.empty() || r.error_offset > size) Fail("bad error report", text);
    const bool policy = r.error.rfind("nesting deeper", 0) == 0 || r.error.rfind("lone", 0) == 0;
    if (grammar_ok && !policy) Fail(("refused valid JSON: " + r.error).c_str(), text);
  }
  return 0;
}
