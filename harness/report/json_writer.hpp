// The primitives every JSON file fakehost writes is made of (the report, the HTML's embedded
// data, transcripts, the certify matrix), so that each writes text, keys and times the same way:
// text always valid UTF-8 (plugin bytes that are not are replaced), times in milliseconds to the
// microsecond, rounded, so a time read back from a file is written again as the same number.
#pragma once

#include <rapidjson/encodings.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "harness/report/text.hpp"

namespace fakehost::report::jsonw {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

inline void Str(Writer& w, std::string_view s) {
  std::string valid = ValidUtf8(s);
  w.String(valid.data(), static_cast<rapidjson::SizeType>(valid.size()));
}

/// Whether `bytes` are UTF-8 as the JSON reader checks it (json::Parse validates encoding with
/// RapidJSON's own decoder: no overlong forms, no surrogates, nothing past U+10FFFF), so that a
/// string written from them reads back as the same bytes. Checked by text::IsValidUtf8, which
/// stops at the end of the bytes: RapidJSON's validator reads a cut sequence's continuation
/// bytes past it.
inline bool IsJsonUtf8(std::string_view bytes) { return text::IsValidUtf8(bytes); }

inline void Key(Writer& w, const char* k) { w.Key(k); }

inline void Ms(Writer& w, double ms) {
  w.Double(std::isfinite(ms) ? std::round(ms * 1000) / 1000 : 0);
}

inline void Strings(Writer& w, const char* key, const std::vector<std::string>& list) {
  Key(w, key);
  w.StartArray();
  for (const auto& s : list) Str(w, s);
  w.EndArray();
}

}  // namespace fakehost::report::jsonw
