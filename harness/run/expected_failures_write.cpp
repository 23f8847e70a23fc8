// Writing a baseline from a run's failures (`--write-expected-failures FILE`).
#include <fnmatch.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "harness/run/expected_failures.hpp"

namespace fakehost::run {
namespace {

using result::ScenarioResult;
using result::Status;

// What one failing id contributes: the entry that applied to it (if any) or its first cause.
struct Cause {
  std::string reason, kind, until;
  std::string entry;  // "file:line" of the applied entry, "" if none
  bool expired = false;
};

// One UTF-8 sequence at s[i..]: its code point and length, or -1 for an invalid sequence.
long DecodeUtf8(std::string_view s, std::size_t i, std::size_t* len) {
  auto b = static_cast<unsigned char>(s[i]);
  std::size_t n = b < 0x80           ? 1
                  : (b >> 5) == 0x6  ? 2
                  : (b >> 4) == 0xE  ? 3
                  : (b >> 3) == 0x1E ? 4
                                     : 0;
  *len = 1;
  if (n == 0 || i + n > s.size()) return -1;
  long cp = n == 1 ? b : b & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) {
    auto c = static_cast<unsigned char>(s[i + k]);
    if ((c >> 6) != 0x2) return -1;
    cp = (cp << 6) | (c & 0x3F);
  }
  static constexpr long kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return -1;
  *len = n;
  return cp;
}

// Written as it is: YAML's printable set without the line breaks libyaml also knows (NEL, LS,
// PS) and the BOM.
bool Plain(long cp) {
  return (cp >= 0x20 && cp <= 0x7E) ||
         (cp >= 0xA0 && cp <= 0xD7FF && cp != 0x2028 && cp != 0x2029) ||
         (cp >= 0xE000 && cp <= 0xFFFD && cp != 0xFEFF) || cp >= 0x10000;
}

// A YAML double-quoted scalar that libyaml reads back as `s`: '"' and '\' escaped, every code
// point outside YAML's printable set escaped, invalid UTF-8 as U+FFFD.
std::string Quote(std::string_view s) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size();) {
    std::size_t len = 1;
    long cp = DecodeUtf8(s, i, &len);
    if (cp < 0) cp = 0xFFFD;
    char buf[16];
    if (cp == '"' || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (!Plain(cp) || cp == 0xFFFD) {
      std::snprintf(buf, sizeof buf, cp < 0x100 ? "\\x%02lX" : "\\u%04lX", cp);
      out += buf;
    } else {
      out.append(s.substr(i, len));
    }
    i += len;
  }
  return out + "\"";
}

// An id as a glob that matches just it.
std::string EscapeGlob(std::string_view id) {
  std::string out;
  for (char c : id) {
    if (c == '*' || c == '?' || c == '[' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// The first line of a failure's message, trimmed and cut to a readable length.
std::string OneLine(std::string_view text) {
  text = text.substr(0, text.find('\n'));
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
    text.remove_suffix(1);
  constexpr std::size_t kMax = 200;
  if (text.size() <= kMax) return std::string(text);
  std::size_t cut = kMax;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "…";
}

Cause CauseOf(const ScenarioResult& r) {
  Cause c;
  if (r.expected_failure) {
    const auto& e = *r.expected_failure;
    c = {e.reason, e.kind, e.expired ? "" : e.until, e.loc.ToString(), e.expired};
    return c;
  }
  for (const auto& f : r.failures) {
    if (f.check == kExpectedFailureCheck) continue;
    // A known SDK trait (run/sdk_traits.hpp) ends the message: it goes last, so that the
    // mismatch is never cut off by it.
    std::string_view message = f.message, trait;
    if (std::size_t at = message.find(" [known trait of "); at != std::string_view::npos) {
      trait = message.substr(at + 1);
      message = message.substr(0, at);
    }
    c.reason = OneLine(message);
    // "arrived but does not match" says little on its own: the mismatch says what was expected
    // and what came ("/error/code: expected -32602, got -32603").
    if (!c.reason.empty() && !f.expected.empty()) c.reason += ": " + OneLine(f.expected);
    if (!c.reason.empty() && !trait.empty()) c.reason += " " + OneLine(trait);
    if (!c.reason.empty()) break;
  }
  if (c.reason.empty()) c.reason = std::string("fails (") + result::StatusName(r.status) + ")";
  // The sentence it breaks first: an entry must quote it (the baseline's rule), so the written
  // one starts from it.
  if (!r.sentence.empty())
    c.reason = OneLine(r.spec) + ": \"" + OneLine(r.sentence) + "\" " + c.reason;
  return c;
}

void Entry(std::string& out, const std::string& id, const Cause& c, const std::string& note) {
  if (!note.empty()) out += "# " + note + "\n";
  out += "- id: " + Quote(id) + "\n  reason: " + Quote(c.reason) + "\n";
  if (!c.kind.empty()) out += "  kind: " + Quote(c.kind) + "\n";
  if (!c.until.empty()) out += "  until: " + c.until + "\n";
}

// The header as comment lines: a line per line, anything a comment cannot hold as '?'.
std::string HeaderComment(const std::string& header) {
  std::string out = "# ";
  for (std::size_t i = 0, len = 1; i < header.size(); i += len) {
    long cp = DecodeUtf8(header, i, &len);
    if (cp == '\n')
      out += "\n# ";
    else if (cp == '\t' || Plain(cp))
      out.append(header, i, len);
    else
      out += '?';
  }
  return out + "\n";
}

// The widest prefix glob above `id` that covers only failing ids of the suite, at least two of
// them, with their causes in `covered`; "" when there is none.
std::string WidestGlob(const std::string& id, const std::set<std::string>& suite,
                       const std::map<std::string, Cause>& failing,
                       std::vector<const Cause*>* covered) {
  for (std::size_t slash = id.find('/'); slash != std::string::npos;
       slash = id.find('/', slash + 1)) {
    std::string prefix = id.substr(0, slash + 1);
    std::vector<const Cause*> under;
    bool all = true;
    for (auto it = suite.lower_bound(prefix); it != suite.end() && it->rfind(prefix, 0) == 0;
         ++it) {
      auto f = failing.find(*it);
      if (f == failing.end()) {
        all = false;
        break;
      }
      under.push_back(&f->second);
    }
    if (all && under.size() >= 2) {
      *covered = std::move(under);
      return EscapeGlob(prefix) + "*";
    }
  }
  return "";
}

}  // namespace

// Walks the failing ids in order; each takes the widest prefix glob that covers only failing
// ids of the suite (at least two of them), else its own entry.
std::string WriteExpectedFailures(const std::vector<ScenarioResult>& results,
                                  const std::vector<std::string>& suite_ids, bool strict,
                                  const std::string& header) {
  std::map<std::string, Cause> failing;  // sorted by id
  for (const ScenarioResult& r : results) {
    bool fails = r.status == Status::kFail || r.status == Status::kXfail ||
                 (strict && r.status == Status::kWarn);
    if (fails && !failing.count(r.id)) failing.emplace(r.id, CauseOf(r));
  }
  std::set<std::string> suite(suite_ids.begin(), suite_ids.end());
  for (const auto& [id, cause] : failing) suite.insert(id);

  std::string out = HeaderComment(header);
  if (failing.empty()) return out + "[]\n";

  std::set<std::string> written_globs;
  for (const auto& [id, cause] : failing) {
    std::vector<const Cause*> covered;
    std::string glob = WidestGlob(id, suite, failing, &covered);
    if (glob.empty()) {
      Entry(out, EscapeGlob(id), cause,
            cause.expired ? "its entry (" + cause.entry + ") had expired" : "");
      continue;
    }
    if (!written_globs.insert(glob).second) continue;
    // One entry applied to all of them: keep it. Else the first one's cause stands for all.
    const std::string& entry = cause.entry;  // (clang 14 captures no structured binding)
    bool same = !entry.empty() && std::all_of(covered.begin(), covered.end(),
                                              [&](const Cause* c) { return c->entry == entry; });
    Cause c = cause;
    if (!same) {
      c = Cause{std::to_string(covered.size()) + " scenarios fail; " + id + ": " + cause.reason, "",
                "", "", false};
    }
    Entry(out, glob, c, c.expired ? "its entry (" + cause.entry + ") had expired" : "");
  }
  return out;
}

}  // namespace fakehost::run
